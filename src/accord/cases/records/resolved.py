"""``dispute_resolved``: the case settled on a winning group (R19, R30).

Three ways to settle sign three shapes of the one record type, each a subclass of
:class:`CaseResolved`, all built by :func:`dispute_resolved`:

- on the ladder (a tier-1 rung or a tier-2 strategy, ``resolution_type`` ``tier_one`` /
  ``strategy``): what was tried, the department, the common manager, the tokens;
- by a person on the case's approval item (``human_appeal``): the item and the instant;
- by a successor's tie-breaker probe (``tie_breaker_probe``): the boundary and the receipt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal, Self

from pydantic import model_validator

from accord.cases.case import Case
from accord.cases.records.parts import (
    AttemptRecord,
    DissentEntry,
    LogFields,
    Tokens,
    attempt_record,
    check_log,
    dissent_entries,
    log_fields,
    tokens,
    winners_are_parties,
)
from accord.cases.signable import AnswerHashes
from accord.clock import isoformat
from accord.ladder.hierarchy import common_manager
from accord.ledger.signed_record import Built, Signable, SignedRecord
from accord.org import OrgChart
from accord.values import signable


class CaseResolved(SignedRecord):
    """What every ``dispute_resolved`` record states: the winner among the parties (none when
    a person wrote the outcome), the answer, the dissenters (parties, none a winner) and the
    resolution log."""

    event_type: ClassVar[str] = "dispute_resolved"

    dispute_id: str
    resolution_id: str | None
    resolution_level: str
    resolution_type: str
    rung: str | None
    winner: str | None
    """None only for a person's written outcome (``human_appeal`` with no winners)."""
    winners: list[str]
    answer: Signable
    answer_hash: str
    decided_by: str | None
    dissent: Built[list[DissentEntry]]
    log: Built[LogFields]

    @model_validator(mode="after")
    def _a_winner_among_the_parties(self) -> Self:
        if self.winner is None and (self.winners or self.resolution_type != "human_appeal"):
            raise ValueError("dispute_resolved: only a person's written outcome names no winner")
        winners_are_parties(self.event_type, self.winner, self.winners, self.log)
        check_log(self.event_type, self.dispute_id, self.log)
        if self.log["winner"] != self.winner:
            raise ValueError("dispute_resolved: the log names another winner")
        for d in self.dissent:
            if d["agent_id"] not in self.log["agents"] or d["agent_id"] in self.winners:
                who = d["agent_id"]
                raise ValueError(f"dispute_resolved: dissenter {who} is not a losing party")
            if d["created_at"] != self.log["time"]:
                raise ValueError("dispute_resolved: dissent and decision times differ")
        return self


class ResolvedOnTheLadder(CaseResolved):
    """Settled by a tier-1 rung or a tier-2 strategy."""

    resolution_type: Literal["tier_one", "strategy"]
    attempts: Built[list[AttemptRecord]]
    department: str | None
    common_manager: str | None
    tokens: Built[Tokens]


class ResolvedByPerson(CaseResolved):
    """Settled by a person's decision on the case's approval item."""

    resolution_type: Literal["human_appeal", "timeout"]
    approval_item_id: str
    decided_at: str

    @model_validator(mode="after")
    def _one_instant(self) -> Self:
        if self.decided_at != self.log["time"]:
            raise ValueError("decided_at and log.time come from one clock read")
        return self


class ResolvedByProbe(CaseResolved):
    """Settled by a successor session's tie-breaker probe."""

    resolution_type: Literal["tie_breaker_probe"]
    reasoning: str
    boundary_id: str
    probe_receipt: str
    decided_at: str

    @model_validator(mode="after")
    def _one_instant(self) -> Self:
        if self.decided_at != self.log["time"]:
            raise ValueError("decided_at and log.time come from one clock read")
        return self


@dataclass(frozen=True)
class OnTheLadder:
    """A rung or strategy settled it; ``org`` names the common manager across departments."""

    org: OrgChart | None


@dataclass(frozen=True)
class ByPerson:
    """A person decided the approval item ``approval_item_id``."""

    decided_by: str
    approval_item_id: str


@dataclass(frozen=True)
class ByProbe:
    """Probe ``probe`` answered; ``reasoning`` says what it found."""

    probe: str
    reasoning: str
    boundary_id: str
    receipt_hash: str


HowResolved = OnTheLadder | ByPerson | ByProbe


def _common_manager(case: Case, org: OrgChart | None) -> str | None:
    """When the parties span departments (no shared one), their lowest common manager."""
    agents = [p.agent for p in case.positions]
    if case.department is not None or org is None or any(a not in org for a in agents):
        return None
    if len({org.agent(a).department for a in agents}) == 1:
        return None
    return common_manager(org, agents)


def dispute_resolved(
    case: Case, how: HowResolved, answer_hash: AnswerHashes | None = None
) -> CaseResolved:
    """The ``dispute_resolved`` record of settled ``case`` (the one builder of the type)."""
    decision = case.decision
    assert decision is not None
    answer_hash = answer_hash or AnswerHashes()
    common = {
        "dispute_id": case.case_id,
        "resolution_id": decision.resolution_id,
        "resolution_level": case.tier.value,
        "rung": decision.rung,
        "winner": decision.winner,
        "winners": list(decision.winners),
        "answer": signable(decision.answer),
        "answer_hash": answer_hash(decision.answer),
        "dissent": dissent_entries(case),
        "log": log_fields(case),
    }
    match how:
        case OnTheLadder(org=org):
            return ResolvedOnTheLadder(
                **common,
                resolution_type="tier_one" if case.strategy is None else "strategy",
                decided_by=(case.dissent[0].decided_by if case.dissent else None) or decision.rung,
                attempts=[attempt_record(a) for a in case.attempts],
                department=case.department,
                common_manager=_common_manager(case, org),
                tokens=tokens(case),
            )
        case ByPerson():
            assert case.decided_at is not None
            return ResolvedByPerson(
                **common,
                resolution_type="human_appeal" if decision.rung == "human" else "timeout",
                decided_by=how.decided_by,
                approval_item_id=how.approval_item_id,
                decided_at=isoformat(case.decided_at),
            )
        case ByProbe():
            assert case.decided_at is not None
            return ResolvedByProbe(
                **common,
                resolution_type="tie_breaker_probe",
                decided_by=f"probe:{how.probe}",
                reasoning=how.reasoning,
                boundary_id=how.boundary_id,
                probe_receipt=how.receipt_hash,
                decided_at=isoformat(case.decided_at),
            )
