"""Choosing and checking the tie-breaker (pure): a registered probe, never free text.

The application supplies tie-breakers as ``hints`` keyed, most specific first, by
``"<task_type>:<field path>"``, ``"*:<field path>"``, ``"<task_type>"`` and ``"*"``.

A tie-breaker **restates the crux** (refused, ``boundary.tie_breaker_restates_crux``) when
any of these holds — each means running it would observe nothing the crux did not already say:

1. it has no arguments: a probe with nothing to look up checks nothing about this case;
2. its description, normalized (case, whitespace, edge punctuation, emphasis), is empty of
   anything beyond the crux: it equals, or is contained in, the crux statement or path;
3. every argument value is a string that, normalized, equals the crux statement or path.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from accord.boundary._json import result_key
from accord.boundary.crux import Side, style_key
from accord.boundary.model import Crux, TieBreaker
from accord.boundary.probes import ProbeRegistry
from accord.errors import ValidationError
from accord.values import revised


def hint_keys(crux: Crux, task_type: str) -> tuple[str, ...]:
    """Hint keys to look up, most specific first."""
    keys: list[str] = []
    if crux.path:
        keys += [f"{task_type}:{crux.path}", f"*:{crux.path}"]
    keys += [task_type, "*"]
    return tuple(keys)


def find_hint(hints: Mapping[str, TieBreaker], crux: Crux, task_type: str) -> TieBreaker | None:
    """The most specific hint for ``crux`` in a case of ``task_type``, if any."""
    for key in hint_keys(crux, task_type):
        hint = hints.get(key)
        if hint is not None:
            return hint
    return None


def _leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, Mapping):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def restates_crux(tie_breaker: TieBreaker, crux: Crux) -> str | None:
    """Which rule (see module doc) makes ``tie_breaker`` a restatement of ``crux``, or None."""
    if not tie_breaker.arguments:
        return "the probe has no arguments, so it checks nothing about this case"
    said = {style_key(crux.statement)}
    if crux.path:
        said.add(style_key(crux.path))
    description = style_key(tie_breaker.description)
    if not description or any(description in known for known in said):
        return "the description only repeats the crux"
    values = list(_leaves(tie_breaker.arguments))
    if all(isinstance(v, str) and style_key(v) in said for v in values):
        return "the arguments only repeat the crux"
    return None


def validate_tie_breaker(tie_breaker: TieBreaker, crux: Crux, probes: ProbeRegistry) -> None:
    """Raise unless ``tie_breaker`` names a registered probe and does more than restate
    ``crux``. (Canonical arguments and a non-empty description are checked by the model.)"""
    probes.get(tie_breaker.probe)
    rule = restates_crux(tie_breaker, crux)
    if rule is not None:
        raise ValidationError(
            f"tie-breaker {tie_breaker.probe!r} only restates the crux: {rule}",
            code="boundary.tie_breaker_restates_crux",
            field="tie_breaker",
            rule=rule,
            probe=tie_breaker.probe,
        )


def winner_by_answer(sides: Sequence[Side]) -> dict[str, tuple[str, ...]]:
    """Each side's answer, written as a probe result (``result_key``), mapped to its agents."""
    mapping: dict[str, tuple[str, ...]] = {}
    for side in sides:
        key = result_key(side.answer)
        if key in mapping:
            raise ValidationError(
                f"two sides answer {key!r}: a probe result cannot tell them apart",
                code="boundary.ambiguous_result_mapping",
                field="winner_by_result",
                rule="each side's answer maps to a distinct probe result",
                result=key,
            )
        mapping[key] = side.agents
    return mapping


def propose_tie_breaker(
    crux: Crux,
    sides: Sequence[Side],
    probes: ProbeRegistry,
    hints: Mapping[str, TieBreaker],
    *,
    task_type: str = "",
) -> TieBreaker | None:
    """The sealed tie-breaker for ``crux``: the most specific hint, validated, with its
    ``winner_by_result`` filled from ``sides`` when the hint leaves it empty.

    None when no hint applies (nothing a single successor could run). Raises
    ``ValidationError`` for an unknown probe (``boundary.unknown_probe``), a restatement of
    the crux (``boundary.tie_breaker_restates_crux``) or sides a result cannot tell apart.
    """
    hint = find_hint(hints, crux, task_type)
    if hint is None:
        return None
    validate_tie_breaker(hint, crux, probes)
    if hint.winner_by_result:
        return hint
    return revised(hint, winner_by_result=winner_by_answer(sides))
