"""Non-compliance as a new dispute (R21): a ``policy_conflict`` opened straight at human appeal.

The complainant is the first other party of the original dispute (the party the resolution
protected); the respondent is the agent that did not comply; the evidence is the signed
``dispute_compliance_failed`` entry. The dispute is opened through the store and moved to
``appealing`` at ``human_appeal`` through the lifecycle, in the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from sqlalchemy import Connection

from accord.conflicts import Tier
from accord.dcp07.dispute_record import DisputeRecord
from accord.disputes.compliance.actions import TrackedAction
from accord.disputes.compliance.refusals import refused
from accord.disputes.rule_ports import DisputeHooks

COMPLIANCE_ACTOR: Final = "accord:compliance"
"""The actor of the escalation Accord makes on its own (R21)."""
_MAX_TEXT = 4000


def open_noncompliance_dispute(
    conn: Connection,
    disputes: DisputeHooks,
    original: DisputeRecord,
    action: TrackedAction,
    *,
    failed_seq: int,
    problems: Sequence[str],
) -> str:
    """Open the R21 dispute for ``action``'s failure and take it to human appeal; its id."""
    parties = {party.agent_id: party for party in original.parties}
    respondent = parties.get(action.agent_id)
    others = [p for p in original.parties if p.agent_id != action.agent_id]
    if respondent is None or not others:
        raise refused(
            "R21",
            "actions_required.agent_id",
            "non-compliance is a dispute between the non-complying party and another party",
            code="compliance.no_counterparty",
            dispute_id=original.dispute_id,
            agent_id=action.agent_id,
        )
    reason = "; ".join(problems)[:_MAX_TEXT]
    entry = f"ledger:{failed_seq}"
    filing: dict[str, Any] = {
        "dispute_type": "policy_conflict",
        "severity": original.severity.value,
        "complainant": others[0],
        "respondents": [respondent],
        "subject": {
            "description": (
                f"Non-compliance with resolution {action.resolution_id} of "
                f"{original.dispute_id}: {action.agent_id} did not show it did "
                f"'{action.action[:1000]}' by {action.due_at.isoformat()} ({reason})"
            )[:_MAX_TEXT],
            "related_audit_entries": [entry],
        },
        "evidence": [
            {
                "evidence_type": "audit_entry",
                "reference": entry,
                "description": "The signed dispute_compliance_failed entry (R20, R21)",
                "content": {
                    "dispute_id": original.dispute_id,
                    "resolution_id": action.resolution_id,
                    "action_id": action.action_id,
                    "agent_id": action.agent_id,
                    "problems": list(problems)[:64],
                    "ledger_seq": failed_seq,
                },
            }
        ],
    }
    opened = disputes.open_within(conn, filing)
    dispute_id = opened.record.dispute_id
    level = opened.record.current_escalation_level
    if level is not Tier.HUMAN_APPEAL:
        disputes.move_within(
            conn,
            dispute_id,
            "appealing",
            event_type="dispute_escalated",
            actor=COMPLIANCE_ACTOR,
            details={
                "from_level": level.value,
                "to_level": Tier.HUMAN_APPEAL.value,
                "by": "accord",
                "reason": "R21: non-compliance goes straight to human appeal",
                "noncompliance_of": original.dispute_id,
                "resolution_id": action.resolution_id,
            },
            tier=Tier.HUMAN_APPEAL.value,
            rearm=True,
        )
    return dispute_id
