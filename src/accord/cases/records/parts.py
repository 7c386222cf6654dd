"""The parts several signed records share, as typed dicts (validated with the record that
carries them): a party, a position, the resolution-log fields, a dissent entry, a rung
attempt, token counts. Each has one builder, named after it."""

from __future__ import annotations

from typing_extensions import TypedDict

from accord.cases.case import Case, DissentRecord
from accord.cases.lifecycle import SettleStatus
from accord.cases.signable import basis_points
from accord.clock import isoformat
from accord.conflicts import Position
from accord.crypto import content_hash
from accord.ladder import RungAttempt
from accord.ledger.signed_record import BasisPoints, Signable
from accord.org import PartyIds, party
from accord.values import signable


class PositionRecord(TypedDict):
    """What is signed about one agent's position."""

    agent_id: str
    answer: Signable
    confidence_bp: BasisPoints | None
    evidence: list[str]
    sources: list[str]
    assumptions: list[str]


def position_record(p: Position) -> PositionRecord:
    return {
        "agent_id": p.agent,
        "answer": signable(p.output),
        "confidence_bp": basis_points(p.confidence),
        "evidence": [e.content_hash for e in p.evidence],
        "sources": list(p.sources),
        "assumptions": list(p.assumptions),
    }


class LogFields(TypedDict):
    """The playbook's resolution-log fields every outcome record carries (the case's state
    when signed)."""

    case_id: str
    time: str
    agents: list[str]
    kind: str | None
    severity: str | None
    strategy: str | None
    winner: str | None
    confidence_bp: BasisPoints | None
    escalated: bool
    duration_ms: int


def log_fields(case: Case) -> LogFields:
    decision = case.decision
    return {
        "case_id": case.case_id,
        "time": isoformat(case.decided_at or case.created_at),
        "agents": [p.agent for p in case.positions],
        "kind": case.detection.kind.value if case.detection.kind else None,
        "severity": case.detection.severity.value if case.detection.severity else None,
        "strategy": decision.rung if decision else None,
        "winner": decision.winner if decision else None,
        "confidence_bp": basis_points(decision.confidence) if decision else 0,
        "escalated": case.status is SettleStatus.ESCALATED,
        "duration_ms": case.duration_ms,
    }


def check_log(record: str, case_id: str, log: LogFields) -> None:
    """A record's log names its own case, and a winner (when any) among its agents."""
    if log["case_id"] != case_id:
        raise ValueError(f"{record}: the log names case {log['case_id']}, not {case_id}")
    if log["winner"] is not None and log["winner"] not in log["agents"]:
        raise ValueError(f"{record}: log winner {log['winner']} is not a party")


class DissentEntry(TypedDict):
    """What an outcome record signs about one dissent (the rest of a dissent record copies
    the case: its position, the winning answer, the subject)."""

    dissent_id: str
    agent_id: str
    strategy: str | None
    reasoning: str
    decided_by: str | None
    created_at: str
    arguments_hash: str | None


def dissent_entry(d: DissentRecord) -> DissentEntry:
    return {
        "dissent_id": d.dissent_id,
        "agent_id": d.agent_id,
        "strategy": d.strategy,
        "reasoning": d.reasoning,
        "decided_by": d.decided_by,
        "created_at": isoformat(d.created_at),
        "arguments_hash": content_hash(dict(d.arguments)) if d.arguments else None,
    }


def dissent_entries(case: Case) -> list[DissentEntry]:
    """The signed entry of each of ``case``'s dissent records."""
    return [dissent_entry(d) for d in case.dissent]


class AttemptRecord(TypedDict):
    """One rung or strategy tried, as signed."""

    rung: str
    decided: bool
    detail: str
    tier: str


def attempt_record(a: RungAttempt) -> AttemptRecord:
    return {"rung": a.rung, "decided": a.decided, "detail": a.detail, "tier": a.tier.value}


class Tokens(TypedDict):
    """Model use while deciding the case."""

    input: int
    output: int
    model_calls: int


def tokens(case: Case) -> Tokens:
    return {"input": case.tokens_in, "output": case.tokens_out, "model_calls": case.model_calls}


def winners_are_parties(
    record: str, winner: str | None, winners: list[str], log: LogFields
) -> None:
    """A record's winners are parties, and its winner (when named) is one of them."""
    strangers = sorted(set(winners) - set(log["agents"]))
    if strangers:
        raise ValueError(f"{record}: winners {strangers} are not parties")
    if winner is not None and winner not in winners:
        raise ValueError(f"{record}: winner {winner} is not among the winners")


__all__ = [
    "AttemptRecord",
    "DissentEntry",
    "LogFields",
    "PartyIds",
    "PositionRecord",
    "Tokens",
    "attempt_record",
    "check_log",
    "dissent_entries",
    "dissent_entry",
    "log_fields",
    "party",
    "position_record",
    "tokens",
    "winners_are_parties",
]
