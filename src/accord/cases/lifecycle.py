"""A case's lifecycle: its states, the transitions between them, and the one way to change them.

A case has two status fields. ``dcp_status`` is its DCP-07 status (R6, eight values);
``status`` is Accord's outcome word (``SettleStatus``), which callers and the ``cases`` table
have always used. Every outcome Accord records is one :class:`Outcome`, and :data:`OUTCOMES`
maps each onto the pair of fields it sets (the only legal pairs):

=============  ===============  ==============  ==============================================
outcome        status           dcp_status      when
=============  ===============  ==============  ==============================================
settled        settled          resolved        a rung, strategy, person or probe chose a side
merged         merged           resolved        complementary work was merged (no conflict)
consensus      no_conflict      resolved        the agents agreed
escalated      escalated        escalated       nobody could settle it yet (it waits)
queued         escalated        appealing       escalated to human appeal with an approval item
denied         denied           abandoned       people (or a timeout's deny action) refused it
expired        expired          abandoned       its approval item or last tier deadline ran out
=============  ===============  ==============  ==============================================

:data:`TRANSITIONS` joins the eight DCP statuses; ``resolved``, ``withdrawn`` and
``abandoned`` are final. ``negotiating``, ``arbitrating`` and ``withdrawn`` have no outcome
yet (DCP-07 negotiation, panels and withdrawal will add theirs here). A new case starts
``open``. :func:`transition` is the only function that moves a case: it refuses an illegal
move with :class:`~accord.errors.IllegalTransition` and builds the new case through
validation (never ``model_copy``). The vocabulary (the three enums, :data:`OUTCOMES`,
:data:`LEGAL_PAIRS`, :data:`FINAL`) is defined in :mod:`accord.dcp07.statuses`, a leaf the
case model reads too, and re-exported here.

A *collecting case* (:mod:`accord.cases.collecting`) is what comes before a case: it waits
for each expected party's own position. :data:`COLLECTING_TRANSITIONS` and
:func:`move_collecting` are its lifecycle: ``collecting`` → ``settled`` (its positions went
to settle; from then on the case it became moves by :func:`transition`) or ``abandoned`` (its
deadline passed with too few positions). Both exits are final.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from accord.cases.case import Case
from accord.cases.collecting_case import CollectingCase
from accord.cases.statuses import (
    LEGAL_PAIRS,
    OUTCOMES,
    CollectingStatus,
    Outcome,
    SettleStatus,
)
from accord.conflicts import Detection, Position, Tier
from accord.dcp07.statuses import FINAL, TRANSITIONS, CaseStatus, check_transition, is_legal
from accord.errors import IllegalTransition


@dataclass(frozen=True)
class NewCase:
    """A case ``settle`` is opening (DCP status ``open``): the fields its first recorded state
    shares, before any outcome is known. It is never stored as it is."""

    case_id: str
    session_id: str | None
    subject: str
    task_type: str
    positions: tuple[Position, ...]
    detection: Detection
    created_at: datetime
    duration_ms: int
    department: str | None = None

    @property
    def dcp_status(self) -> CaseStatus:
        return CaseStatus.OPEN

    def fields(self) -> dict[str, Any]:
        return dict(vars(self))


def _fields_of(case: Case | NewCase) -> dict[str, Any]:
    if isinstance(case, NewCase):
        return case.fields()
    return {name: getattr(case, name) for name in type(case).model_fields}


def transition(case: Case | NewCase, to: Outcome, **changes: Any) -> Case:
    """``case`` after outcome ``to``, with ``changes`` applied (validated as a new :class:`Case`).

    Raises :class:`IllegalTransition` when the lifecycle does not join the case's DCP status
    to the outcome's. ``status`` and ``dcp_status`` come from :data:`OUTCOMES`, never from
    ``changes``."""
    if "status" in changes or "dcp_status" in changes:
        raise TypeError("transition sets status and dcp_status from the outcome")
    status, dcp_status = OUTCOMES[to]
    tier = getattr(case, "tier", None)
    check_transition(
        case.dcp_status,
        dcp_status,
        case.case_id,
        at_last_tier=None if tier is None else tier is Tier.HUMAN_APPEAL,
    )
    data = _fields_of(case)
    data.update(changes)
    data["status"] = status
    data["dcp_status"] = dcp_status
    return Case.model_validate(data)


COLLECTING_TRANSITIONS: Mapping[CollectingStatus, frozenset[CollectingStatus]] = {
    CollectingStatus.COLLECTING: frozenset({CollectingStatus.SETTLED, CollectingStatus.ABANDONED}),
    CollectingStatus.SETTLED: frozenset(),
    CollectingStatus.ABANDONED: frozenset(),
}
"""From each collecting status, the statuses a collecting case may move to."""


def move_collecting(
    collecting: CollectingCase, to: CollectingStatus, **changes: Any
) -> CollectingCase:
    """``collecting`` moved to ``to`` with ``changes`` (validated as a new model); a move the
    table does not join is :class:`~accord.errors.IllegalTransition` (409 over HTTP)."""
    if "status" in changes:
        raise TypeError("move_collecting sets status from to")
    if to not in COLLECTING_TRANSITIONS[collecting.status]:
        raise IllegalTransition(
            f"collecting case {collecting.collecting_id} cannot move from "
            f"{collecting.status.value} to {to.value}: it is already closed",
            collecting_id=collecting.collecting_id,
            from_status=collecting.status.value,
            to_status=to.value,
            field="status",
            rule="a collecting case closes once (settled or abandoned)",
        )
    data = collecting.model_dump()
    data.update(changes)
    data["status"] = to
    return CollectingCase.model_validate(data)


__all__ = [
    "COLLECTING_TRANSITIONS",
    "FINAL",
    "LEGAL_PAIRS",
    "OUTCOMES",
    "TRANSITIONS",
    "CaseStatus",
    "CollectingStatus",
    "NewCase",
    "Outcome",
    "SettleStatus",
    "check_transition",
    "is_legal",
    "move_collecting",
    "transition",
]
