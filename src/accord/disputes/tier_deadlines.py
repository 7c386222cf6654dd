"""A dispute's tier deadline as a deadline row, and the handler that escalates it (R4).

The lifecycle arms a dispute's first deadline when the dispute opens
(:func:`arm_tier_deadline`), re-arms it when a party escalates by hand
(:func:`rearm_tier_deadline`, the clock restarts) and cancels it when the dispute resolves or
is withdrawn (:func:`cancel_tier_deadline`). When the deadline passes, the sweeper calls
:class:`DisputeTierHandler`, which reads the dispute through the :class:`EscalateOnDeadline`
port, takes the step :func:`~accord.disputes.deadline_rules.after_deadline` decides and hands
it back to the port — the case lifecycle, the one owner of a case's state — to apply, in the
sweeper's transaction; an escalation arms the next tier's deadline in the same transaction.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from pydantic import BaseModel, ConfigDict
from sqlalchemy import Connection

from accord.conflicts import Severity, Tier
from accord.deadlines import Deadline, Handled, arm, cancel, new_deadline, rearm
from accord.disputes.deadline_rules import DeadlineStep, after_deadline, tier_deadline

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


class DisputeTierHandler:
    """The ``dispute_tier`` deadline handler: R4's automatic escalation, once per deadline."""

    def __init__(self, lifecycle: EscalateOnDeadline) -> None:
        self._lifecycle = lifecycle

    def __call__(self, conn: Connection, deadline: Deadline, now: datetime) -> Handled:
        dispute = self._lifecycle.dispute_at_deadline(conn, deadline.subject_id)
        if dispute is None or not dispute.unresolved or dispute.tier.value != deadline.tier:
            return Handled(outcome="stale")  # resolved, or moved on without re-arming
        step = after_deadline(
            dispute.tier, dispute.severity, party_escalated=dispute.party_escalated, now=now
        )
        self._lifecycle.apply_deadline(conn, dispute.dispute_id, step, now)
        outcomes = {"escalate": "escalated", "abandon": "abandoned", "lapse": "lapsed"}
        return Handled(
            outcome=outcomes[step.action],
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
