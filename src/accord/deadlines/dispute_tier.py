"""A dispute's tier deadline as a deadline row, and the handler that escalates it (R4).

The lifecycle arms a dispute's first deadline when the dispute opens
(:func:`arm_tier_deadline`), re-arms it when a party escalates by hand
(:func:`rearm_tier_deadline`, the clock restarts) and cancels it when the dispute resolves or
is withdrawn (:func:`cancel_tier_deadline`). When the deadline passes, the sweeper calls
:class:`DisputeTierHandler`, which reads the dispute through the :class:`EscalateOnDeadline`
port, takes the step :func:`~accord.dcp07.deadlines.after_deadline` decides and hands
it back to the port — the case lifecycle, the one owner of a case's state — to apply, in the
sweeper's transaction; an escalation arms the next tier's deadline in the same transaction.
A port that is also an :class:`EscalateManyOnDeadline` is handed a sweeper batch's disputes
at once: read in one query, their steps recorded together (one ledger append per batch).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection

from accord.conflicts import Severity, Tier
from accord.dcp07.deadlines import DeadlineStep, after_deadline, tier_deadline
from accord.deadlines import Deadline, Handled, arm, cancel, new_deadline, rearm

#: The deadline kind of a DCP-07 tier.
DISPUTE_TIER = "dispute_tier"


class DisputeAtDeadline(BaseModel):
    """What the handler needs to know about a dispute whose deadline passed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dispute_id: str
    tier: Tier
    severity: Severity
    unresolved: bool
    """False once resolved, withdrawn or abandoned: the deadline has nothing left to do."""
    party_escalated: bool = False
    """Whether a party ever escalated by hand (R6: only then is a lapsed appeal not abandoned)."""
    stored: Any = Field(default=None, exclude=True, repr=False)
    """The port's own reading of the dispute (its stored row), handed back to
    :meth:`EscalateManyOnDeadline.apply_deadlines` so a dispute is read once per step."""


class EscalateOnDeadline(Protocol):
    """The case lifecycle's side of a passed tier deadline (the port the handler calls)."""

    def dispute_at_deadline(self, conn: Connection, dispute_id: str) -> DisputeAtDeadline | None:
        """The dispute as it stands (None if there is no such dispute)."""
        ...

    def apply_deadline(
        self, conn: Connection, dispute_id: str, step: DeadlineStep, now: datetime
    ) -> None:
        """Escalate, abandon or note the lapse, with its records, in transaction ``conn``."""
        ...


@runtime_checkable
class EscalateManyOnDeadline(EscalateOnDeadline, Protocol):
    """The port for a sweeper batch of passed tier deadlines at once (what
    :class:`DisputeTierHandler` uses when the port offers it)."""

    def disputes_at_deadline(
        self, conn: Connection, dispute_ids: Sequence[str]
    ) -> Mapping[str, DisputeAtDeadline]:
        """The disputes as they stand, by id (one missing from the answer does not exist)."""
        ...

    def apply_deadlines(
        self, conn: Connection, steps: Sequence[tuple[DisputeAtDeadline, DeadlineStep]],
        now: datetime,
    ) -> None:  # fmt: skip
        """Apply each dispute's step, in order, with its records, in transaction ``conn``
        (each dispute as :meth:`disputes_at_deadline` read it in the same transaction)."""
        ...


_OUTCOMES = {"escalate": "escalated", "abandon": "abandoned", "lapse": "lapsed"}


class DisputeTierHandler:
    """The ``dispute_tier`` deadline handler: R4's automatic escalation, once per deadline
    (a :class:`~accord.deadlines.BatchDeadlineHandler`: a batch's disputes read and recorded
    together when the port is an :class:`EscalateManyOnDeadline`)."""

    def __init__(self, lifecycle: EscalateOnDeadline) -> None:
        self._lifecycle = lifecycle

    def __call__(self, conn: Connection, deadline: Deadline, now: datetime) -> Handled:
        if isinstance(self._lifecycle, EscalateManyOnDeadline):
            return self.handle_many(conn, [deadline], now)[0]
        dispute = self._lifecycle.dispute_at_deadline(conn, deadline.subject_id)
        step = _step(deadline, dispute, now)
        if dispute is None or step is None:
            return Handled(outcome="stale")
        self._lifecycle.apply_deadline(conn, dispute.dispute_id, step, now)
        return _handled(step)

    def handle_many(
        self, conn: Connection, due: Sequence[Deadline], now: datetime
    ) -> list[Handled]:
        """Every deadline of ``due`` handled as :meth:`__call__` would, in order."""
        lifecycle = self._lifecycle
        if not isinstance(lifecycle, EscalateManyOnDeadline):
            return [self(conn, deadline, now) for deadline in due]
        found = lifecycle.disputes_at_deadline(conn, [d.subject_id for d in due])
        steps: list[tuple[DisputeAtDeadline, DeadlineStep]] = []
        handled = []
        for deadline in due:
            dispute = found.get(deadline.subject_id)
            step = _step(deadline, dispute, now)
            if dispute is None or step is None:
                handled.append(Handled(outcome="stale"))
                continue
            steps.append((dispute, step))
            handled.append(_handled(step))
        if steps:
            lifecycle.apply_deadlines(conn, steps, now)
        return handled


def _step(
    deadline: Deadline, dispute: DisputeAtDeadline | None, now: datetime
) -> DeadlineStep | None:
    """The step a passed deadline takes, or None when it is stale: the dispute is gone,
    resolved, or moved on without re-arming."""
    if dispute is None or not dispute.unresolved or dispute.tier.value != deadline.tier:
        return None
    return after_deadline(
        dispute.tier, dispute.severity, party_escalated=dispute.party_escalated, now=now
    )


def _handled(step: DeadlineStep) -> Handled:
    return Handled(
        outcome=_OUTCOMES[step.action],
        next_due=step.next_due,
        next_tier=step.to_tier.value if step.to_tier else None,
    )


def new_tier_deadline(
    dispute_id: str, tier: Tier, severity: Severity, now: datetime, *, kind: str = DISPUTE_TIER
) -> Deadline:
    """``tier``'s deadline for a dispute reaching it now (R3), not stored yet: many new
    disputes' deadlines are stored together with ``accord.deadlines.arm_many``. ``kind``
    tells a filed dispute's (``dispute_tier``) from a settle case's (``case_tier``)."""
    return new_deadline(
        kind=kind,
        subject_id=dispute_id,
        due_at=now + tier_deadline(severity, tier),
        now=now,
        tier=tier.value,
    )


def arm_tier_deadline(
    conn: Connection, dispute_id: str, tier: Tier, severity: Severity, now: datetime
) -> Deadline:
    """Arm ``tier``'s deadline for a dispute that just reached it (R3)."""
    return arm(
        conn,
        kind=DISPUTE_TIER,
        subject_id=dispute_id,
        due_at=now + tier_deadline(severity, tier),
        now=now,
        tier=tier.value,
    )


def rearm_tier_deadline(
    conn: Connection, dispute_id: str, tier: Tier, severity: Severity, now: datetime
) -> Deadline:
    """Restart the clock at ``tier`` (a party escalated by hand): the old deadline is cancelled."""
    return rearm(
        conn,
        kind=DISPUTE_TIER,
        subject_id=dispute_id,
        due_at=now + tier_deadline(severity, tier),
        now=now,
        tier=tier.value,
    )


def cancel_tier_deadline(
    conn: Connection, dispute_id: str, now: datetime, *, kind: str = DISPUTE_TIER
) -> Deadline | None:
    """The dispute resolved, was withdrawn or abandoned: its deadline will not fire."""
    return cancel(conn, kind=kind, subject_id=dispute_id, now=now)
