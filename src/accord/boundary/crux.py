"""Finding the fork in the logic (pure): the crux, the sides at it, and stylistic noise.

Rules, in order:

* **structured** outputs: the first diverging field path (in path order, ``a.b`` right after
  ``a``) is the crux (``kind="field"``); the statement names each side's value there, any
  further diverging paths, and the assumptions that differ between the agents;
* **number, boolean, label** outputs: the output itself is the data point
  (``kind="data_point"``, no path), with differing assumptions appended;
* **free text**: differing assumptions, when the agents stated any, are the crux
  (``kind="assumption"``, zero tokens); else the model-backed ``text_crux`` names the claim
  (``kind="text"``); without one, or when it finds nothing, there is no crux (the caller
  records ``AMBIGUITY_UNRESOLVED``).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, JsonValue, SkipValidation

from accord.boundary._json import render
from accord.boundary.model import Crux
from accord.conflicts import Detection, OutputKind, Position, normalize_text

TextCrux = Callable[[Sequence[Position]], Crux | None]
"""A port naming the claim free-text positions disagree on (see ``ModelTextCrux``)."""

_MARKUP = str.maketrans("", "", "*_`~#>|")


class Side(BaseModel):
    """Agents that give the same answer at the crux."""

    model_config = ConfigDict(frozen=True)

    answer: Annotated[JsonValue, SkipValidation]
    agents: tuple[str, ...]


def _path_key(path: str) -> tuple[str, ...]:
    return tuple(path.split("."))


def differing_assumptions(positions: Sequence[Position]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Per agent (in position order), its assumptions not held by every other agent."""
    shared = set(shared_assumptions(positions))
    found: list[tuple[str, tuple[str, ...]]] = []
    for position in positions:
        own = tuple(dict.fromkeys(a for a in position.assumptions if a not in shared))
        if own:
            found.append((position.agent, own))
    return tuple(found)


def shared_assumptions(positions: Sequence[Position]) -> tuple[str, ...]:
    """Assumptions every position states (in the first position's order)."""
    if not positions:
        return ()
    rest = [set(p.assumptions) for p in positions[1:]]
    return tuple(
        dict.fromkeys(a for a in positions[0].assumptions if all(a in other for other in rest))
    )


def _describe_sides(sides: Sequence[Side]) -> str:
    parts = []
    for side in sides:
        verb = "says" if len(side.agents) == 1 else "say"
        parts.append(f"{', '.join(side.agents)} {verb} {render(side.answer)}")
    return "; ".join(parts)


def _describe_assumptions(positions: Sequence[Position]) -> str:
    differing = differing_assumptions(positions)
    if not differing:
        return ""
    listed = "; ".join(f"{agent} assumes {' & '.join(own)}" for agent, own in differing)
    return f"assumptions differ — {listed}"


def _join(*parts: str) -> str:
    return " | ".join(part for part in parts if part)


def extract_crux(
    positions: Sequence[Position],
    detection: Detection,
    *,
    text_crux: TextCrux | None = None,
) -> Crux | None:
    """The crux of a detected conflict, or None when none can be named (see module doc)."""
    assumptions = _describe_assumptions(positions)
    if detection.field_conflicts:
        conflicts = sorted(detection.field_conflicts, key=lambda c: _path_key(c.path))
        first = conflicts[0]
        sides = [Side(answer=g.answer, agents=g.agents) for g in first.groups]
        others = [c.path for c in conflicts[1:]]
        also = f"also diverging: {', '.join(others)}" if others else ""
        statement = _join(f"{first.path} — {_describe_sides(sides)}", also, assumptions)
        return Crux(kind="field", path=first.path, statement=statement)
    prose = detection.prose
    if prose is not None and prose.differing and detection.output_kind is OutputKind.TEXT:
        statement = _join("; ".join(prose.differing), assumptions)
        return Crux(kind="data_point", path=None, statement=statement)
    if detection.output_kind is not OutputKind.TEXT:
        sides = [Side(answer=g.answer, agents=g.agents) for g in detection.groups]
        statement = _join(f"the answer — {_describe_sides(sides)}", assumptions)
        return Crux(kind="data_point", path=None, statement=statement)
    if assumptions:
        return Crux(kind="assumption", path=None, statement=assumptions)
    if text_crux is None:
        return None
    return text_crux(positions)


def crux_sides(crux: Crux, detection: Detection) -> tuple[Side, ...]:
    """The sides at ``crux``: the groups at its field, else the detection's answer groups."""
    if crux.kind == "field":
        for conflict in detection.field_conflicts:
            if conflict.path == crux.path:
                return tuple(Side(answer=g.answer, agents=g.agents) for g in conflict.groups)
    return tuple(Side(answer=g.answer, agents=g.agents) for g in detection.groups)


def style_key(text: str) -> str:
    """Text with case, width, whitespace, edge punctuation and markdown emphasis removed."""
    stripped = normalize_text(text).translate(_MARKUP)
    return normalize_text(unicodedata.normalize("NFKC", stripped))


def _stylistic_equal(a: Any, b: Any, rel_tol: float) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, rel_tol=rel_tol, abs_tol=rel_tol)
    if isinstance(a, str) and isinstance(b, str):
        return style_key(a) == style_key(b)
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(_stylistic_equal(a[k], b[k], rel_tol) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(
            _stylistic_equal(x, y, rel_tol) for x, y in zip(a, b, strict=True)
        )
    return bool(a is None and b is None)


def _groups_stylistic(answers: Sequence[Any], rel_tol: float) -> bool:
    return all(_stylistic_equal(answers[0], other, rel_tol) for other in answers[1:])


def is_stylistic(
    positions: Sequence[Position], detection: Detection, *, rel_tol: float = 1e-9
) -> bool:
    """True when a detected conflict is only a matter of style: every diverging value equals
    the others once case, whitespace, edge punctuation and markdown emphasis are ignored, and
    numbers agree within ``rel_tol`` (relative, or absolute near zero). Booleans, list order
    and any other difference are substantive."""
    if not detection.has_conflict:
        return False
    if detection.field_conflicts:
        return all(
            _groups_stylistic([g.answer for g in conflict.groups], rel_tol)
            for conflict in detection.field_conflicts
        )
    return _groups_stylistic([p.output for p in positions], rel_tol)
