"""``dispute_abandoned``: people denied the case, its approval item expired undecided, or its
last tier deadline passed with no party escalating (R6, by ``accord:deadline``)."""

from __future__ import annotations

from typing import ClassVar, Self

from pydantic import model_validator

from accord.cases.case import Case
from accord.cases.records.parts import LogFields, check_log, log_fields
from accord.clock import isoformat
from accord.ledger.signed_record import Built, SignedRecord


class CaseAbandoned(SignedRecord):
    """The case closed unsettled at ``decided_at`` (the one instant its case row carries)."""

    event_type: ClassVar[str] = "dispute_abandoned"

    dispute_id: str
    approval_item_id: str | None
    outcome: str
    decided_by: str
    reason: str
    decided_at: str
    log: Built[LogFields]

    @model_validator(mode="after")
    def _one_instant(self) -> Self:
        check_log(self.event_type, self.dispute_id, self.log)
        if self.decided_at != self.log["time"]:
            raise ValueError("dispute_abandoned: decided_at and log.time differ")
        if self.log["winner"] is not None:
            raise ValueError("an abandoned case has no winner")
        return self

    @classmethod
    def of(cls, case: Case, *, outcome: str, decided_by: str) -> CaseAbandoned:
        assert case.decided_at is not None
        return cls(
            dispute_id=case.case_id,
            approval_item_id=case.approval_item_id,
            outcome=outcome,
            decided_by=decided_by,
            reason=case.escalation.reason if case.escalation else "",
            decided_at=isoformat(case.decided_at),
            log=log_fields(case),
        )
