"""The records that first record a case: ``consensus_recorded`` (the agents agreed),
``outputs_merged`` (complementary work) and ``dispute_opened`` (a real conflict, R5, R30)."""

from __future__ import annotations

from typing import Any, ClassVar, Literal, Self

from pydantic import model_validator
from typing_extensions import TypedDict

from accord.cases.case import Case
from accord.cases.records.parts import (
    LogFields,
    PartyIds,
    PositionRecord,
    check_log,
    log_fields,
    party,
    position_record,
    winners_are_parties,
)
from accord.cases.signable import AnswerHashes, basis_points
from accord.clock import isoformat
from accord.ledger.signed_record import BasisPoints, Built, Signable, SignedRecord
from accord.org import OrgChart
from accord.values import signable


class Subject(TypedDict):
    """What the case is about (R5 ``subject``)."""

    description: str
    task_type: str


class OpeningRecord(SignedRecord):
    """The fields every opening record carries."""

    dispute_id: str
    session_id: str | None
    subject: Built[Subject]
    opened_at: str
    output_kind: str
    max_gap_bp: BasisPoints | None
    conflict_fields: list[str]
    positions: Built[list[PositionRecord]]
    log: Built[LogFields]

    @model_validator(mode="after")
    def _one_case(self) -> Self:
        check_log(self.event_type, self.dispute_id, self.log)
        if self.log["agents"] != [p["agent_id"] for p in self.positions]:
            raise ValueError(f"{self.event_type}: log.agents are not the positions' agents")
        return self


def _opening(case: Case) -> dict[str, Any]:
    return {
        "dispute_id": case.case_id,
        "session_id": case.session_id,
        "subject": {"description": case.subject, "task_type": case.task_type},
        "opened_at": isoformat(case.created_at),
        "output_kind": case.detection.output_kind.value,
        "max_gap_bp": basis_points(case.detection.max_gap),
        "conflict_fields": [f.path for f in case.detection.field_conflicts],
        "positions": [position_record(p) for p in case.positions],
        "log": log_fields(case),
    }


class ConsensusRecorded(OpeningRecord):
    """``consensus_recorded``: the agents agreed (``answer`` is None when they agree within
    tolerance but differ)."""

    event_type: ClassVar[str] = "consensus_recorded"

    answer: Signable
    answer_hash: str
    winners: list[str]

    @model_validator(mode="after")
    def _winners(self) -> Self:
        winners_are_parties(self.event_type, None, self.winners, self.log)
        return self

    @classmethod
    def of(cls, case: Case, answer_hash: AnswerHashes) -> ConsensusRecorded:
        answer = case.decision.answer if case.decision else None
        return cls(
            **_opening(case),
            answer=signable(answer),
            answer_hash=answer_hash(answer),
            winners=list(case.decision.winners) if case.decision else [],
        )


class OutputsMerged(OpeningRecord):
    """``outputs_merged``: complementary outputs merged into one."""

    event_type: ClassVar[str] = "outputs_merged"

    merged: Signable
    merged_hash: str
    winners: list[str]
    resolution_id: str | None
    provenance: dict[str, str]
    conflicts_resolved: list[str]

    @model_validator(mode="after")
    def _winners(self) -> Self:
        winners_are_parties(self.event_type, None, self.winners, self.log)
        return self

    @classmethod
    def of(cls, case: Case, answer_hash: AnswerHashes) -> OutputsMerged:
        decision = case.decision
        assert decision is not None
        return cls(
            **_opening(case),
            merged=signable(decision.answer),
            merged_hash=answer_hash(decision.answer),
            winners=list(decision.winners),
            resolution_id=decision.resolution_id,
            provenance=dict(decision.provenance or {}),
            conflicts_resolved=list(decision.conflicts_resolved),
        )


class ConflictPart(TypedDict):
    """What the detector found and the chain the decision table chose."""

    kind: str
    output_kind: str
    fields: list[str]
    max_gap_bp: BasisPoints | None
    strategy_chain: list[str]


class CaseOpened(OpeningRecord):
    """``dispute_opened``: a real conflict, as a DCP-07 dispute record (R5)."""

    event_type: ClassVar[str] = "dispute_opened"

    dispute_type: str
    severity: str
    status: Literal["open"]
    current_escalation_level: str
    complainant: Built[PartyIds]
    respondents: Built[list[PartyIds]]
    conflict: Built[ConflictPart]

    @model_validator(mode="after")
    def _parties(self) -> Self:
        parties = [self.complainant["agent_id"], *(r["agent_id"] for r in self.respondents)]
        if parties != self.log["agents"]:
            raise ValueError("dispute_opened: complainant and respondents are not the agents")
        return self

    @classmethod
    def of(cls, case: Case, org: OrgChart | None) -> CaseOpened:
        classification = case.classification
        assert classification is not None
        agents = [p.agent for p in case.positions]
        return cls(
            **_opening(case),
            dispute_type=classification.dispute_type.value,
            severity=classification.severity.value,
            status="open",
            current_escalation_level=classification.starting_tier.value,
            complainant=party(agents[0], org),
            respondents=[party(a, org) for a in agents[1:]],
            conflict={
                "kind": classification.kind.value,
                "output_kind": case.detection.output_kind.value,
                "fields": [f.path for f in case.detection.field_conflicts],
                "max_gap_bp": basis_points(case.detection.max_gap),
                "strategy_chain": list(classification.strategy_chain),
            },
        )
