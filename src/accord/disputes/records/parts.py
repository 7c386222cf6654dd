"""The parts several signed records share: a party, a position, the resolution-log fields, a
dissent entry, a rung attempt, token counts. Each has one builder (``of``)."""

from __future__ import annotations

from typing import Annotated, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from accord.clock import isoformat
from accord.conflicts import Position
from accord.crypto import content_hash
from accord.disputes.case import Case, DissentRecord
from accord.disputes.lifecycle import SettleStatus
from accord.disputes.records.base import BasisPoints, Signable
from accord.disputes.signable import basis_points, signable
from accord.org import OrgChart
from accord.resolution import RungAttempt

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class Party(BaseModel):
    """A complainant or respondent (R5): the agent and who stands behind it."""

    model_config = _FROZEN

    agent_id: str
    principal_id: str
    organization_id: str

    @classmethod
    def of(cls, agent: str, org: OrgChart | None) -> Party:
        if org is not None and agent in org:
            member = org.agent(agent)
            return cls(
                agent_id=agent,
                principal_id=member.principal_id,
                organization_id=member.organization_id,
            )
        return cls(agent_id=agent, principal_id="unknown", organization_id="unknown")


class PositionRecord(BaseModel):
    """What is signed about one agent's position."""

    model_config = _FROZEN

    agent_id: str
    answer: Signable
    confidence_bp: BasisPoints | None
    evidence: tuple[str, ...]
    sources: tuple[str, ...]
    assumptions: tuple[str, ...]

    @classmethod
    def of(cls, p: Position) -> PositionRecord:
        return cls(
            agent_id=p.agent,
            answer=signable(p.output),
            confidence_bp=basis_points(p.confidence),
            evidence=tuple(e.content_hash for e in p.evidence),
            sources=tuple(p.sources),
            assumptions=tuple(p.assumptions),
        )


class LogFields(BaseModel):
    """The playbook's resolution-log fields every outcome record carries (the case's state
    when signed)."""

    model_config = _FROZEN

    case_id: str
    time: str
    agents: tuple[str, ...]
    kind: str | None
    severity: str | None
    strategy: str | None
    winner: str | None
    confidence_bp: BasisPoints | None
    escalated: bool
    duration_ms: int

    @model_validator(mode="after")
    def _winner_is_a_party(self) -> Self:
        if self.winner is not None and self.winner not in self.agents:
            raise ValueError(f"log: winner {self.winner} is not a party")
        return self

    @classmethod
    def of(cls, case: Case) -> LogFields:
        decision = case.decision
        return cls(
            case_id=case.case_id,
            time=isoformat(case.decided_at or case.created_at),
            agents=tuple(p.agent for p in case.positions),
            kind=case.detection.kind.value if case.detection.kind else None,
            severity=case.detection.severity.value if case.detection.severity else None,
            strategy=decision.rung if decision else None,
            winner=decision.winner if decision else None,
            confidence_bp=basis_points(decision.confidence) if decision else 0,
            escalated=case.status is SettleStatus.ESCALATED,
            duration_ms=case.duration_ms,
        )


class DissentEntry(BaseModel):
    """What an outcome record signs about one dissent (the rest of a dissent record copies
    the case: its position, the winning answer, the subject)."""

    model_config = _FROZEN

    dissent_id: str
    agent_id: str
    strategy: str | None
    reasoning: str
    decided_by: str | None
    created_at: str
    arguments_hash: str | None

    @classmethod
    def of(cls, d: DissentRecord) -> DissentEntry:
        return cls(
            dissent_id=d.dissent_id,
            agent_id=d.agent_id,
            strategy=d.strategy,
            reasoning=d.reasoning,
            decided_by=d.decided_by,
            created_at=isoformat(d.created_at),
            arguments_hash=content_hash(dict(d.arguments)) if d.arguments else None,
        )


def dissent_entries(case: Case) -> tuple[DissentEntry, ...]:
    """The signed entry of each of ``case``'s dissent records."""
    return tuple(DissentEntry.of(d) for d in case.dissent)


class AttemptRecord(BaseModel):
    """One rung or strategy tried, as signed."""

    model_config = _FROZEN

    rung: str
    decided: bool
    detail: str
    tier: str

    @classmethod
    def of(cls, a: RungAttempt) -> AttemptRecord:
        return cls(rung=a.rung, decided=a.decided, detail=a.detail, tier=a.tier.value)


class Tokens(BaseModel):
    """Model use while deciding the case."""

    model_config = _FROZEN

    input: Annotated[int, Field(ge=0)]
    output: Annotated[int, Field(ge=0)]
    model_calls: Annotated[int, Field(ge=0)]

    @classmethod
    def of(cls, case: Case) -> Tokens:
        return cls(input=case.tokens_in, output=case.tokens_out, model_calls=case.model_calls)


def winners_are_parties(
    record: str, winner: str | None, winners: tuple[str, ...], log: LogFields
) -> None:
    """A record's winners are parties, and its winner (when named) is one of them."""
    if not set(winners) <= set(log.agents):
        strangers = sorted(set(winners) - set(log.agents))
        raise ValueError(f"{record}: winners {strangers} are not parties")
    if winner is not None and winner not in winners:
        raise ValueError(f"{record}: winner {winner} is not among the winners")
