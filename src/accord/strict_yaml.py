"""Strict YAML parsing: safe types only, duplicate keys refused, syntax errors located."""

from __future__ import annotations

from typing import Any

import yaml

from accord.errors import ConfigError


class _StrictLoader(yaml.SafeLoader):
    """A SafeLoader that refuses a key defined twice in one mapping."""


class _DuplicateKeyError(yaml.constructor.ConstructorError):
    """A mapping defines the same key twice (PyYAML would silently keep the last)."""


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


def parse_yaml(text: str, *, source: str) -> Any:
    """The document in ``text``; ``ConfigError`` (``config.yaml_syntax``) naming the line."""
    try:
        return yaml.load(text, Loader=_StrictLoader)  # a SafeLoader subclass: no arbitrary objects
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "malformed document"
        duplicate = isinstance(exc, _DuplicateKeyError)
        rule = problem if duplicate else f"invalid YAML syntax: {problem}"
        line = None if mark is None else mark.line + 1
        column = None if mark is None else mark.column + 1
        where = "" if line is None else f"line {line}, column {column}: "
        raise ConfigError(
            f"{source}: {where}{rule}",
            code="config.duplicate_key" if duplicate else "config.yaml_syntax",
            file=source,
            key_path="",
            rule=rule,
            line=line,
            column=column,
        ) from None
    except yaml.YAMLError as exc:
        rule = f"invalid YAML: {exc}"
        raise ConfigError(
            f"{source}: {rule}",
            code="config.yaml_syntax",
            file=source,
            key_path="",
            rule=rule,
            line=None,
            column=None,
        ) from None
