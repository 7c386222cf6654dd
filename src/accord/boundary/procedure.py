"""The decision procedure (pure): what, if anything, to record for one unresolved case.

The note's four questions, asked in this order:

1. **Did the agents reach conflicting conclusions?** No → record the consensus
   (``status="consensus"``). Agents that worked on disjoint subsets of the task did not
   conflict either (the note's step 4) → their results are recorded side by side
   (``status="disjoint"``). A conflict that is purely stylistic is not recorded (None).
2. **Is the crux identifiable?** No → ``AMBIGUITY_UNRESOLVED`` (``status="ambiguous"``).
3. **Can one successor execute the tie-breaker?** No hint for it, an unknown probe, or a
   refused tie-breaker → the case goes to people (``status="human"``, ``reason`` says why).
4. Otherwise the predicate is sealed into the record: ``status="pending"``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from accord.boundary._json import render, same_json
from accord.boundary.crux import (
    TextCrux,
    crux_sides,
    extract_crux,
    is_stylistic,
    shared_assumptions,
)
from accord.boundary.model import AMBIGUITY_UNRESOLVED, BoundaryDraft, PositionEntry, TieBreaker
from accord.boundary.probes import ProbeRegistry
from accord.boundary.tiebreak import find_hint, propose_tie_breaker
from accord.conflicts import Detection, Position
from accord.errors import ValidationError
from accord.values import leaves


class BoundaryInputs(BaseModel):
    """One unresolved case as the procedure sees it; a matching case hint (any key) is used
    before the application's hints."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    case_id: str
    subject: str
    task_type: str
    positions: tuple[Position, ...]
    detection: Detection
    hints: dict[str, TieBreaker] = Field(default_factory=dict)


def _disjoint_subsets(positions: Sequence[Position]) -> bool:
    seen: set[str] = set()
    for position in positions:
        if not position.task_subset or not seen.isdisjoint(position.task_subset):
            return False
        seen.update(position.task_subset)
    return True


def agreed_sub_conclusions(positions: Sequence[Position]) -> tuple[str, ...]:
    """What every agent agrees on exactly: ``"path = value"`` for structured outputs (in path
    order), ``"answer = value"`` for equal scalar answers, and ``"assumes: …"`` per shared
    assumption. Values are written in full (never cut)."""
    lines: list[str] = []
    outputs = [p.output for p in positions]
    if all(isinstance(o, Mapping) for o in outputs):
        flats: list[dict[str, Any]] = [leaves(o) for o in outputs if isinstance(o, Mapping)]
        for path in sorted(flats[0], key=lambda p: tuple(p.split("."))):
            value = flats[0][path]
            if all(path in flat and same_json(flat[path], value) for flat in flats[1:]):
                lines.append(f"{path} = {render(value, None)}")
    elif all(same_json(o, outputs[0]) for o in outputs[1:]):
        lines.append(f"answer = {render(outputs[0], None)}")
    lines += [f"assumes: {assumption}" for assumption in shared_assumptions(positions)]
    return tuple(lines)


def decide_boundary(
    inputs: BoundaryInputs,
    *,
    probes: ProbeRegistry,
    hints: Mapping[str, TieBreaker] | None = None,
    text_crux: TextCrux | None = None,
) -> BoundaryDraft | None:
    """The draft to record for ``inputs`` (see module doc), or None when nothing is.

    Raises ``boundary.too_few_positions`` for fewer than two positions.
    """
    positions = inputs.positions
    if len(positions) < 2:
        raise ValidationError(
            f"case {inputs.case_id!r} has {len(positions)} position(s); a disagreement "
            "boundary needs at least two",
            code="boundary.too_few_positions",
            field="positions",
            rule="a boundary records two or more positions",
            case_id=inputs.case_id,
        )
    detection = inputs.detection
    base: dict[str, Any] = {
        "case_id": inputs.case_id,
        "subject": inputs.subject,
        "task_type": inputs.task_type,
        "positions": tuple(PositionEntry.of(p) for p in positions),
    }
    consensus = agreed_sub_conclusions(positions)
    if detection.complementary or _disjoint_subsets(positions):
        subsets = "; ".join(
            f"{p.agent}: {', '.join(p.task_subset) or 'its own fields'}" for p in positions
        )
        reason = f"disjoint subsets, results recorded separately — {subsets}"
        return BoundaryDraft(**base, status="disjoint", consensus=consensus, reason=reason)
    if not detection.has_conflict:
        return BoundaryDraft(**base, status="consensus", consensus=consensus, reason="agreed")
    if is_stylistic(positions, detection):
        return None
    crux = extract_crux(positions, detection, text_crux=text_crux)
    if crux is None:
        return BoundaryDraft(
            **base,
            status="ambiguous",
            marker=AMBIGUITY_UNRESOLVED,
            consensus=consensus,
            reason="no identifiable crux: the agents talk past each other",
        )
    # The case's own hints come first, whatever their key; then the application's.
    chosen = inputs.hints if find_hint(inputs.hints, crux, inputs.task_type) else (hints or {})
    try:
        tie_breaker = propose_tie_breaker(
            crux, crux_sides(crux, detection), probes, chosen, task_type=inputs.task_type
        )
    except ValidationError as exc:
        return BoundaryDraft(
            **base,
            status="human",
            crux=crux,
            consensus=consensus,
            reason=f"tie-breaker refused [{exc.code}]: {exc.message}",
        )
    if tie_breaker is None:
        where = f"field {crux.path!r}" if crux.path else "this crux"
        return BoundaryDraft(
            **base,
            status="human",
            crux=crux,
            consensus=consensus,
            reason=f"no registered probe settles {where} of task type {inputs.task_type!r}",
        )
    return BoundaryDraft(
        **base, status="pending", crux=crux, tie_breaker=tie_breaker, consensus=consensus
    )
