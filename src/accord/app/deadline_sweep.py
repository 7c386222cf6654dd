"""The one deadline sweep: every kind Accord arms, fired by one sweeper.

``accord sweep`` and the service's background sweeper both build it here: the approval
queue's §12.4 timeouts always, the DCP-07 tier escalation (R4) when the case lifecycle's
:class:`~accord.deadlines.dispute_tier.EscalateOnDeadline` port is given — without it,
``dispute_tier`` rows stay armed (nothing is fired that nothing can handle); the same
handler over settle cases (``case_tier``, :mod:`accord.cases.deadlines`) when
``cases`` is given; likewise the ``dispute_compliance`` deadlines of required actions, fired
when compliance is given, and collecting cases' deadlines (settle on what arrived, or
abandon) when collecting is given.
"""

from __future__ import annotations

from accord.approvals import ApprovalQueue
from accord.approvals.timeout_handler import APPROVAL_TIMEOUT
from accord.cases.collecting import (
    COLLECTING_DEADLINE,
    CloseOnDeadline,
    CollectingDeadlineHandler,
)
from accord.cases.deadlines import CASE_TIER
from accord.clock import Clock
from accord.deadlines import DeadlineHandler, DeadlineSweep
from accord.deadlines.dispute_tier import DISPUTE_TIER, DisputeTierHandler, EscalateOnDeadline
from accord.disputes.compliance.deadline import (
    DISPUTE_COMPLIANCE,
    ComplianceDeadlineHandler,
    FailOnDeadline,
)
from accord.errors import AccordError
from accord.store import Database


def deadline_sweep(
    db: Database,
    clock: Clock,
    approvals: ApprovalQueue,
    *,
    disputes: EscalateOnDeadline | None = None,
    cases: EscalateOnDeadline | None = None,
    compliance: FailOnDeadline | None = None,
    collecting: CloseOnDeadline | None = None,
    sweeper_id: str | None = None,
    read_only: bool = False,
) -> DeadlineSweep:
    """A sweeper firing approval timeouts, dispute tiers when ``disputes`` is given, settle
    cases' tiers when ``cases`` is given, required actions' deadlines (R20, R21) when
    ``compliance`` is given, and collecting cases' deadlines when ``collecting`` is given.

    ``read_only`` (an Accord opened to read) refuses with ``accord.read_only``."""
    if read_only:
        raise AccordError(
            "cannot sweep: this Accord was opened read-only (Accord.open(read_only=True))",
            code="accord.read_only",
            action="sweep",
        )
    handlers: dict[str, DeadlineHandler] = {APPROVAL_TIMEOUT: approvals.timeout_handler()}
    if disputes is not None:
        handlers[DISPUTE_TIER] = DisputeTierHandler(disputes)
    if cases is not None:
        handlers[CASE_TIER] = DisputeTierHandler(cases)
    if compliance is not None:
        handlers[DISPUTE_COMPLIANCE] = ComplianceDeadlineHandler(compliance)
    if collecting is not None:
        handlers[COLLECTING_DEADLINE] = CollectingDeadlineHandler(collecting)
    return DeadlineSweep(db, clock, handlers, sweeper_id=sweeper_id)
