"""Merging complementary outputs: each field from the agent most confident about it.

When agents worked on different parts of a task their structured outputs do not conflict;
they complete each other. :func:`merge_complementary` builds one output from all of them and
records which agent each field came from.

Confidence on a field is the agent's ``field_confidence`` for that dotted path (or for its
nearest ancestor path), else its overall ``confidence``, else 0.5. Ties go to the earlier
position. Where one agent gives a plain value at ``a`` and another a mapping beneath it
(``a.b``), the more confident one decides the shape of ``a``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, cast

from pydantic import BaseModel, ConfigDict, JsonValue, SkipValidation

from accord.conflicts._fingerprint import fingerprint
from accord.conflicts.position import Position, validate_positions
from accord.errors import ValidationError
from accord.values import MISSING, ancestors, leaves, nearest_value, value_at

NEUTRAL_CONFIDENCE = 0.5
"""The confidence assumed for an agent that stated none."""


class MergeResult(BaseModel):
    """The merged output, the agent behind each leaf field, and the fields where values differed."""

    model_config = ConfigDict(frozen=True)

    output: Annotated[dict[str, JsonValue], SkipValidation]
    provenance: dict[str, str]
    conflicts_resolved: tuple[str, ...]


def merge_complementary(positions: Sequence[Position]) -> MergeResult:
    """One nested output taking every leaf field from the agent most confident on it.

    ``provenance`` maps each leaf path of the result to the agent it came from;
    ``conflicts_resolved`` lists the paths where agents gave values that are not exactly
    equal (so a choice was made). Outputs must be structured (``conflicts.not_structured``),
    unless each agent worked on its own task subsets: then the result maps each subset name to
    the output of the agent that worked on it.
    """
    items = validate_positions(positions)
    if not isinstance(items[0].output, Mapping) and _subsets_disjoint(items):
        return _merge_by_subset(items)
    if not isinstance(items[0].output, Mapping):
        raise ValidationError(
            "only structured outputs can be merged",
            code="conflicts.not_structured",
            field="output",
            position=0,
            agent=items[0].agent,
            rule="merge needs mapping outputs",
        )
    return merge_outputs(items, [leaves(_mapping(item)) for item in items])


def merge_outputs(items: Sequence[Position], flats: Sequence[dict[str, Any]]) -> MergeResult:
    """:func:`merge_complementary` over validated positions and their leaves by path."""
    paths = list(dict.fromkeys(path for flat in flats for path in flat))
    decided: dict[str, int] = {}
    differing: set[str] = set()
    for path in sorted(paths, key=lambda p: p.count(".")):
        if any(ancestor in decided for ancestor in ancestors(path)):
            continue  # a less nested plain value won
        candidates = _candidates(items, flats, path)
        if len(candidates) > 1 and len({fingerprint(value) for _, value in candidates}) > 1:
            differing.add(path)
        winner, value = _most_confident(items, candidates, path)
        if isinstance(value, Mapping) and value:
            continue  # the winner has fields beneath: each is decided on its own
        decided[path] = winner
    output: dict[str, Any] = {}
    provenance: dict[str, str] = {}
    for path in paths:
        chosen = decided.get(path)
        if chosen is not None:
            _put(output, path, _copy(flats[chosen][path]))
            provenance[path] = items[chosen].agent
    resolved = tuple(path for path in paths if path in differing)
    return MergeResult(output=output, provenance=provenance, conflicts_resolved=resolved)


def _subsets_disjoint(items: Sequence[Position]) -> bool:
    seen: set[str] = set()
    for item in items:
        if not item.task_subset or not seen.isdisjoint(item.task_subset):
            return False
        seen.update(item.task_subset)
    return len(items) > 1


def _merge_by_subset(items: Sequence[Position]) -> MergeResult:
    output: dict[str, Any] = {}
    provenance: dict[str, str] = {}
    for item in items:
        for subset in item.task_subset:
            output[subset] = _copy(item.output)
            provenance[subset] = item.agent
    return MergeResult(output=output, provenance=provenance, conflicts_resolved=())


def declared_confidence(position: Position, path: str) -> float | None:
    """``position``'s stated confidence on ``path`` (per field, nearest ancestor, overall), or
    None when it stated none that applies."""
    found = nearest_value(position.field_confidence, path) if position.field_confidence else None
    return position.confidence if found is None else found


def field_confidence(position: Position, path: str) -> float:
    """``position``'s confidence on dotted ``path``: per field, nearest ancestor, overall, 0.5."""
    stated = declared_confidence(position, path)
    return NEUTRAL_CONFIDENCE if stated is None else stated


def _mapping(position: Position) -> Mapping[str, Any]:
    return cast("Mapping[str, Any]", position.output)  # validate_positions: one kind for all


def _candidates(
    items: Sequence[Position], flats: Sequence[dict[str, Any]], path: str
) -> list[tuple[int, Any]]:
    found: list[tuple[int, Any]] = []
    for index, flat in enumerate(flats):
        value = flat.get(path, MISSING)
        if value is MISSING:
            value = value_at(_mapping(items[index]), path)
        if value is not MISSING:
            found.append((index, value))
    return found


def _most_confident(
    items: Sequence[Position], candidates: list[tuple[int, Any]], path: str
) -> tuple[int, Any]:
    best, best_value = candidates[0]
    best_confidence = field_confidence(items[best], path)
    for index, value in candidates[1:]:
        confidence = field_confidence(items[index], path)
        if confidence > best_confidence:
            best, best_value, best_confidence = index, value, confidence
    return best, best_value


def _put(tree: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    node = tree
    for part in parents:
        node = node.setdefault(part, {})
    node[last] = value


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value
