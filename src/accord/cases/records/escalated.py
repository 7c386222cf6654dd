"""``dispute_escalated`` records: tier 1's hand-over to a tier-2 strategy, and the outcome of
a case that nobody could settle yet (waiting, or queued for people)."""

from __future__ import annotations

from typing import ClassVar, Self

from pydantic import model_validator

from accord.cases.case import Case
from accord.cases.records.parts import (
    AttemptRecord,
    LogFields,
    Tokens,
    attempt_record,
    check_log,
    log_fields,
    tokens,
)
from accord.conflicts import Tier
from accord.ledger.signed_record import Built, SignedRecord

HAND_OVER_REASON = "tier 1 could not settle it honestly"


class CaseHandedOver(SignedRecord):
    """``dispute_escalated`` without a resolution log: tier 1 handed the case to the strategy
    ``next_step``; written before what that strategy did."""

    event_type: ClassVar[str] = "dispute_escalated"

    dispute_id: str
    from_level: str
    to_level: str
    next_step: str
    reason: str
    strategies_tried: Built[list[AttemptRecord]]

    @model_validator(mode="after")
    def _tier_one_only(self) -> Self:
        if any(a["rung"] == self.next_step for a in self.strategies_tried):
            raise ValueError("the hand-over lists only what ran before the strategy")
        return self

    @classmethod
    def of(cls, case: Case) -> CaseHandedOver:
        assert case.classification is not None
        assert case.strategy is not None
        return cls(
            dispute_id=case.case_id,
            from_level=case.classification.starting_tier.value,
            to_level=Tier.CONTEXTUAL_ARBITRATION.value,
            next_step=case.strategy,
            reason=HAND_OVER_REASON,
            strategies_tried=[attempt_record(a) for a in case.attempts if a.rung != case.strategy],
        )


class CaseEscalated(SignedRecord):
    """``dispute_escalated`` as a case's outcome: it waits at ``to_level`` (with its approval
    item when queued for people)."""

    event_type: ClassVar[str] = "dispute_escalated"

    dispute_id: str
    from_level: str
    to_level: str
    next_step: str | None
    reason: str
    strategies_tried: Built[list[AttemptRecord]]
    approval_item_id: str | None
    tokens: Built[Tokens]
    log: Built[LogFields]

    @model_validator(mode="after")
    def _escalated(self) -> Self:
        check_log(self.event_type, self.dispute_id, self.log)
        if not self.log["escalated"] or self.log["winner"] is not None:
            raise ValueError("dispute_escalated: the log says escalated, with no winner")
        return self

    @classmethod
    def of(cls, case: Case, *, from_level: Tier | None = None) -> CaseEscalated:
        """``from_level``: the tier the case left when it is not the one settle ran (a tier
        deadline passed at ``from_level``, R4)."""
        classification, escalation = case.classification, case.escalation
        assert classification is not None
        assert escalation is not None
        if from_level is None:
            from_level = (
                classification.starting_tier
                if case.strategy is None
                else Tier.CONTEXTUAL_ARBITRATION
            )
        return cls(
            dispute_id=case.case_id,
            from_level=from_level.value,
            to_level=escalation.target_tier.value,
            next_step=escalation.next_step,
            reason=escalation.reason,
            strategies_tried=[attempt_record(a) for a in case.attempts],
            approval_item_id=case.approval_item_id,
            tokens=tokens(case),
            log=log_fields(case),
        )
