"""Strict YAML parsing: safe types only, duplicate keys refused, syntax errors located, and
bounded: nesting depth, alias count and the size of the document once aliases are expanded are
limited (an alias bomb is refused while composing, before anything is built from it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from accord.config_errors import config_error
from accord.errors import ConfigError

MAX_BYTES = 8 * 1024 * 1024
"""The largest YAML file read (configuration and org charts are far smaller)."""
MAX_DEPTH = 64
"""How deeply sequences and mappings may nest, aliases expanded."""
MAX_ALIASES = 1000
"""How many aliases (``*name``) one document may use."""
MAX_EXPANDED_NODES = 250_000
"""How many nodes the document may have once every alias is expanded."""
MAX_INTEGER_DIGITS = 64
"""Longest integer literal (as ``limits.json_integer_digits``' default)."""


class _DuplicateKeyError(yaml.constructor.ConstructorError):
    """A mapping defines the same key twice (PyYAML would silently keep the last)."""


class _LimitError(yaml.composer.ComposerError):
    """The document is nested too deeply, uses too many aliases or expands too far."""


class _StrictLoader(yaml.SafeLoader):
    """A SafeLoader that refuses a key defined twice in one mapping and enforces the limits."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._aliases = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
        if self.check_event(yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                raise _LimitError(None, None, f"more than {MAX_ALIASES} aliases", mark)
            return super().compose_node(parent, index)
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise _LimitError(None, None, f"nested more than {MAX_DEPTH} levels deep", mark)
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def compose_document(self) -> yaml.Node | None:
        node = super().compose_document()
        if node is not None and self._aliases:
            _Expansion().measure(node, 1)
        return node


class _Expansion:
    """Size and height of a node graph as if every alias were copied out, memoized per node,
    so a billion laughs is measured in as many steps as it has distinct nodes."""

    def __init__(self) -> None:
        self._seen: dict[int, tuple[int, int]] = {}
        self._open: set[int] = set()

    def measure(self, node: yaml.Node, depth: int) -> tuple[int, int]:
        """``(nodes, height)`` of ``node``, which sits ``depth`` levels down."""
        key = id(node)
        found = self._seen.get(key)
        if found is None:
            if key in self._open:  # an alias inside its own anchor: infinitely deep
                self._too_deep(node)
            self._open.add(key)
            found = self._children(node, depth)
            self._open.discard(key)
            self._seen[key] = found
        size, height = found
        if depth - 1 + height > MAX_DEPTH:
            self._too_deep(node)
        if size > MAX_EXPANDED_NODES:
            raise _LimitError(
                None,
                None,
                f"aliases expand to more than {MAX_EXPANDED_NODES:,} nodes",
                node.start_mark,
            )
        return found

    def _children(self, node: yaml.Node, depth: int) -> tuple[int, int]:
        if isinstance(node, yaml.SequenceNode):
            children: list[yaml.Node] = list(node.value)
        elif isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        else:
            return 1, 1
        size, height = 1, 1
        for child in children:
            child_size, child_height = self.measure(child, depth + 1)
            size += child_size
            height = max(height, child_height + 1)
            if size > MAX_EXPANDED_NODES:
                break
        return size, height

    @staticmethod
    def _too_deep(node: yaml.Node) -> None:
        raise _LimitError(
            None,
            None,
            f"nested more than {MAX_DEPTH} levels deep once aliases are expanded",
            node.start_mark,
        )


def _construct_unique_mapping(loader: _StrictLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    # Only keys written in this mapping must be unique; keys merged in with ``<<: *anchor``
    # may be overridden by them (YAML's merge-key rule), so check before flattening.
    written = [(k, v) for k, v in node.value if k.tag != "tag:yaml.org,2002:merge"]
    seen: set[Any] = set()
    for key_node, _ in written:
        key = loader.construct_object(key_node)
        try:
            duplicate = key in seen
        except TypeError:  # unhashable: construct_mapping reports it with its line
            continue
        if duplicate:
            mark = key_node.start_mark
            raise _DuplicateKeyError(None, None, f"duplicate key {key!r}", mark)
        seen.add(key)
    loader.flatten_mapping(node)
    return loader.construct_mapping(node)


_StrictLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
    _construct_unique_mapping,
)


def _construct_bounded_int(loader: _StrictLoader, node: yaml.ScalarNode) -> int:
    """An integer of at most ``MAX_INTEGER_DIGITS`` characters (Python refuses to convert
    ones over 4,300 digits with a bare ``ValueError``; no setting needs more than a few)."""
    text = str(node.value)
    if len(text) > MAX_INTEGER_DIGITS:
        raise _LimitError(
            None,
            None,
            f"an integer of {len(text):,} characters: at most {MAX_INTEGER_DIGITS} digits",
            node.start_mark,
        )
    return int(loader.construct_yaml_int(node))


_StrictLoader.add_constructor("tag:yaml.org,2002:int", _construct_bounded_int)


def parse_yaml(text: str, *, source: str) -> Any:
    """The document in ``text``; ``ConfigError`` (``config.yaml_syntax``) naming the line."""
    try:
        return yaml.load(text, Loader=_StrictLoader)  # a SafeLoader subclass: no arbitrary objects
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "malformed document"
        duplicate = isinstance(exc, _DuplicateKeyError)
        limit = isinstance(exc, _LimitError)
        rule = problem if duplicate or limit else f"invalid YAML syntax: {problem}"
        line = None if mark is None else mark.line + 1
        column = None if mark is None else mark.column + 1
        where = "" if line is None else f"line {line}, column {column}: "
        raise ConfigError(
            f"{source}: {where}{rule}",
            code=(
                "config.duplicate_key"
                if duplicate
                else "config.yaml_limit"
                if limit
                else "config.yaml_syntax"
            ),
            file=source,
            key_path="",
            rule=rule,
            line=line,
            column=column,
        ) from None
    except yaml.YAMLError as exc:
        rule = f"invalid YAML: {exc}"
        raise config_error(
            source, "", rule, code="config.yaml_syntax", line=None, column=None
        ) from None


def check_yaml_size(size: int, *, source: str) -> None:
    """``ConfigError`` (``config.yaml_limit``) for a file larger than :data:`MAX_BYTES`, so it
    is refused before it is read."""
    if size > MAX_BYTES:
        rule = f"at most {MAX_BYTES:,} bytes (the file has {size:,})"
        raise config_error(source, "", rule, code="config.yaml_limit", line=None, column=None)


def read_yaml_file(path: Path) -> Any:
    """The document in the YAML file at ``path``, parsed by :func:`parse_yaml`; a file larger
    than :data:`MAX_BYTES` is ``config.yaml_limit`` (refused unread), one that cannot be read or
    is not UTF-8 text is ``config.unreadable``."""
    source = str(path)
    try:
        check_yaml_size(path.stat().st_size, source=source)
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        rule = f"the file is not valid UTF-8 (byte {exc.start})"
        raise config_error(source, "", rule, code="config.unreadable") from None
    except OSError as exc:
        rule = f"cannot read the file: {exc.strerror or exc}"
        raise config_error(source, "", rule, code="config.unreadable") from None
    return parse_yaml(text, source=source)
