"""A case as the learning loop sees it: who won, who lost, and the likely root cause."""

from __future__ import annotations

from datetime import UTC

from accord.cases.case import Case, SettleStatus
from accord.learning import CaseOutcome

#: Cases that escalated: still waiting, or closed unsettled by people or a timeout.
_WENT_TO_PEOPLE = (SettleStatus.ESCALATED, SettleStatus.DENIED, SettleStatus.EXPIRED)


def infer_cause(case: Case) -> str | None:
    """A coarse root cause from the case's own evidence (playbook §9), or None.

    - ``factual_error``: a source of truth settled it, so one side had wrong data;
    - ``divergent_assumptions``: the sides declared different assumptions;
    - ``unsupported_claim``: a dissenting side offered no evidence and no sources;
    - ``field_disagreement``: structured outputs split on particular fields;
    - ``judgement_call``: none of the above — the agents weighed the same facts differently.
    """
    if case.status is not SettleStatus.SETTLED and case.status is not SettleStatus.ESCALATED:
        return None
    if case.decision is not None and case.decision.rung == "source_verification":
        return "factual_error"
    assumptions = {frozenset(p.assumptions) for p in case.positions if p.assumptions}
    if len(assumptions) > 1:
        return "divergent_assumptions"
    losers = {d.agent_id for d in case.dissent}
    if any(not p.evidence and not p.sources for p in case.positions if p.agent in losers):
        return "unsupported_claim"
    if case.detection.field_conflicts:
        return "field_disagreement"
    return "judgement_call"


def case_outcome(case: Case) -> CaseOutcome:
    """The learning room's view of ``case``."""
    decision = case.decision
    when = case.decided_at or case.created_at
    settled = case.status is SettleStatus.SETTLED and decision is not None
    return CaseOutcome(
        case_id=case.case_id,
        task_type=case.task_type,
        kind=case.detection.kind.value if case.detection.kind else case.status.value,
        severity=case.detection.severity.value if case.detection.severity else "none",
        strategy=(decision.rung if decision and decision.rung else case.status.value),
        winner=decision.winner if settled and decision else None,
        winners=decision.winners if decision and decision.winner in decision.winners else (),
        losers=tuple(d.agent_id for d in case.dissent),
        escalated=case.status in _WENT_TO_PEOPLE,
        cause=infer_cause(case),
        decided_at=when if when.tzinfo else when.replace(tzinfo=UTC),
    )
