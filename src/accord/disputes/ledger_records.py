"""The signed ledger records a case writes (pure: a case in, event records out).

Every case writes one entry, or two when it is a real conflict: ``dispute_opened`` and then
``dispute_resolved`` or ``dispute_escalated`` (DCP R30 names). Agreement and complementary
work write ``consensus_recorded`` / ``outputs_merged``. Each carries the playbook's
resolution-log fields: case id, time, agents, kind, severity, strategy, winner, confidence,
escalated, duration_ms.
"""

from __future__ import annotations

from typing import Any

from accord.clock import isoformat
from accord.conflicts import Position, Tier
from accord.crypto import content_hash
from accord.disputes.case import Case, SettleStatus
from accord.disputes.signable import AnswerHashes, basis_points
from accord.org import OrgChart
from accord.resolution.hierarchy import common_manager
from accord.values import signable


def _party(agent: str, org: OrgChart | None) -> dict[str, str]:
    if org is not None and agent in org:
        member = org.agent(agent)
        return {
            "agent_id": agent,
            "principal_id": member.principal_id,
            "organization_id": member.organization_id,
        }
    return {"agent_id": agent, "principal_id": "unknown", "organization_id": "unknown"}


def position_record(p: Position) -> dict[str, Any]:
    """What is signed about one agent's position."""
    return {
        "agent_id": p.agent,
        "answer": signable(p.output),
        "confidence_bp": basis_points(p.confidence),
        "evidence": [e.content_hash for e in p.evidence],
        "sources": list(p.sources),
        "assumptions": list(p.assumptions),
    }


def _common_manager(case: Case, org: OrgChart | None) -> str | None:
    """When the parties span departments (no shared one), their lowest common manager."""
    agents = [p.agent for p in case.positions]
    if case.department is not None or org is None or any(a not in org for a in agents):
        return None
    if len({org.agent(a).department for a in agents}) == 1:
        return None
    return common_manager(org, agents)


def log_fields(case: Case) -> dict[str, Any]:
    """The resolution-log fields every outcome record carries (the case's state when signed)."""
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


def dissent_entries(case: Case) -> list[dict[str, Any]]:
    """What an outcome record signs about each dissent (the rest of a dissent record copies
    the case: its position, the winning answer, the subject)."""
    return [
        {
            "dissent_id": d.dissent_id,
            "agent_id": d.agent_id,
            "strategy": d.strategy,
            "reasoning": d.reasoning,
            "decided_by": d.decided_by,
            "created_at": isoformat(d.created_at),
            "arguments_hash": content_hash(dict(d.arguments)) if d.arguments else None,
        }
        for d in case.dissent
    ]


def case_events(
    case: Case, org: OrgChart | None, answer_hash: AnswerHashes | None = None
) -> list[tuple[str, dict[str, Any]]]:
    """The (event type, record) pairs to append for ``case``, in order."""
    answer_hash = answer_hash or AnswerHashes()
    base = {
        "dispute_id": case.case_id,
        "session_id": case.session_id,
        "subject": {"description": case.subject, "task_type": case.task_type},
        "opened_at": isoformat(case.created_at),
        "output_kind": case.detection.output_kind.value,
        "max_gap_bp": basis_points(case.detection.max_gap),
        "conflict_fields": [f.path for f in case.detection.field_conflicts],
    }
    if case.status is SettleStatus.NO_CONFLICT:
        answer = case.decision.answer if case.decision else None
        return [
            (
                "consensus_recorded",
                {
                    **base,
                    "answer": signable(answer),
                    "answer_hash": answer_hash(answer),
                    "winners": list(case.decision.winners) if case.decision else [],
                    "positions": [position_record(p) for p in case.positions],
                    "log": log_fields(case),
                },
            )
        ]
    if case.status is SettleStatus.MERGED:
        decision = case.decision
        assert decision is not None
        return [
            (
                "outputs_merged",
                {
                    **base,
                    "merged": signable(decision.answer),
                    "merged_hash": answer_hash(decision.answer),
                    "winners": list(decision.winners),
                    "resolution_id": decision.resolution_id,
                    "provenance": dict(decision.provenance or {}),
                    "conflicts_resolved": list(decision.conflicts_resolved),
                    "positions": [position_record(p) for p in case.positions],
                    "log": log_fields(case),
                },
            )
        ]
    classification = case.classification
    assert classification is not None
    agents = [p.agent for p in case.positions]
    opened = {
        **base,
        "dispute_type": classification.dispute_type.value,
        "severity": classification.severity.value,
        "status": "open",
        "current_escalation_level": classification.starting_tier.value,
        "complainant": _party(agents[0], org),
        "respondents": [_party(a, org) for a in agents[1:]],
        "positions": [position_record(p) for p in case.positions],
        "conflict": {
            "kind": classification.kind.value,
            "output_kind": case.detection.output_kind.value,
            "fields": [f.path for f in case.detection.field_conflicts],
            "max_gap_bp": basis_points(case.detection.max_gap),
            "strategy_chain": list(classification.strategy_chain),
        },
        "opened_at": isoformat(case.created_at),
        "log": log_fields(case),
    }
    attempts = [
        {"rung": a.rung, "decided": a.decided, "detail": a.detail, "tier": a.tier.value}
        for a in case.attempts
    ]
    events: list[tuple[str, dict[str, Any]]] = [("dispute_opened", opened)]
    if case.strategy is not None:
        # tier 1 could not settle it: record that hand-over before what the strategy did
        tier_one = [a for a in attempts if a["rung"] != case.strategy]
        events.append(
            (
                "dispute_escalated",
                {
                    "dispute_id": case.case_id,
                    "from_level": classification.starting_tier.value,
                    "to_level": Tier.CONTEXTUAL_ARBITRATION.value,
                    "next_step": case.strategy,
                    "reason": "tier 1 could not settle it honestly",
                    "strategies_tried": tier_one,
                },
            )
        )
    tokens = {"input": case.tokens_in, "output": case.tokens_out, "model_calls": case.model_calls}
    if case.status is SettleStatus.SETTLED:
        decision = case.decision
        assert decision is not None
        resolved = {
            "dispute_id": case.case_id,
            "resolution_id": decision.resolution_id,
            "resolution_level": case.tier.value,
            "resolution_type": "tier_one" if case.strategy is None else "strategy",
            "rung": decision.rung,
            "winner": decision.winner,
            "winners": list(decision.winners),
            "answer": signable(decision.answer),
            "answer_hash": answer_hash(decision.answer),
            "attempts": attempts,
            "dissent": dissent_entries(case),
            "decided_by": (case.dissent[0].decided_by if case.dissent else None) or decision.rung,
            "department": case.department,
            "common_manager": _common_manager(case, org),
            "tokens": tokens,
            "log": log_fields(case),
        }
        return [*events, ("dispute_resolved", resolved)]
    escalation = case.escalation
    assert escalation is not None
    escalated = {
        "dispute_id": case.case_id,
        "from_level": (
            classification.starting_tier.value
            if case.strategy is None
            else Tier.CONTEXTUAL_ARBITRATION.value
        ),
        "to_level": escalation.target_tier.value,
        "next_step": escalation.next_step,
        "reason": escalation.reason,
        "strategies_tried": attempts,
        "approval_item_id": case.approval_item_id,
        "tokens": tokens,
        "log": log_fields(case),
    }
    return [*events, ("dispute_escalated", escalated)]
