"""Ledger event records for the approval queue: canonical-JSON friendly (ints, strings, ISO times).

The queue hands them to ``on_event`` inside the transaction that made the change, so the
composition root can sign them into the ledger atomically with the state they describe.
"""

from __future__ import annotations

from typing import Any

from accord.approvals.item import ApprovalItem
from accord.clock import isoformat
from accord.crypto.hashing import content_hash, sha256_prefixed
from accord.values import signable

Event = tuple[str, dict[str, Any]]

APPROVAL_REQUESTED = "approval_requested"
APPROVAL_DECIDED = "approval_decided"
APPROVAL_EXPIRED = "approval_expired"
APPROVAL_ESCALATED = "approval_escalated"
APPROVAL_DEADLINE_CLEARED = "approval_deadline_cleared"
APPROVAL_CANCELLED = "approval_cancelled"


def option_text_hashes(item: ApprovalItem) -> list[str]:
    """``sha256:<hex>`` of each option's full text (empty when every option is its own text):
    signed, so the text a reviewer reads in full is proved, not just its short label."""
    return [sha256_prefixed(t.encode("utf-8", "surrogatepass")) for t in item.option_texts]


def _text_hash(text: str) -> str:
    return sha256_prefixed(text.encode("utf-8", "surrogatepass"))


def shown_hashes(item: ApprovalItem) -> dict[str, Any]:
    """``sha256:<hex>`` of each text a reviewer reads before deciding (the summary, the
    analysis, each position's answer and reasoning; the options' texts are in
    ``option_text_hashes``): signed in ``approval_requested``, so a rewrite of any of them
    fails ``verify`` naming the field."""
    return {
        "summary": _text_hash(item.summary),
        "analysis": _text_hash(item.analysis),
        "answers": [content_hash(signable(p.answer)) for p in item.positions],
        "reasoning": [_text_hash(p.reasoning) for p in item.positions],
    }


def shown_digest(item: ApprovalItem) -> str:
    """One hash of everything the reviewer was shown (:func:`shown_hashes` and the option
    texts): the decision record carries it, so the reviewer's signature covers what it saw."""
    return content_hash(
        {
            **shown_hashes(item),
            "options": list(item.options),
            "option_texts": option_text_hashes(item),
        }
    )


def requested(item: ApprovalItem) -> Event:
    return APPROVAL_REQUESTED, {
        **_identity(item),
        "title": item.title,
        "risk": item.risk,
        "options": list(item.options),
        "option_text_hashes": option_text_hashes(item),
        "shown": shown_hashes(item),
        "agents": [p.agent for p in item.positions],
        "policy": item.policy.model_dump(mode="json"),
        "created_at": isoformat(item.created_at),
        **_offer(item),
    }


def transition(before: ApprovalItem, after: ApprovalItem) -> Event:
    """The event for ``before`` → ``after`` as made by the queue or its sweeper."""
    decision = after.decision
    if decision is not None:
        kind = APPROVAL_DECIDED if decision.via == "human" else APPROVAL_EXPIRED
        record = {
            **_identity(after),
            "outcome": decision.outcome,
            "choice": decision.choice,
            "decided_by": decision.decided_by,
            "reason": decision.reason,
            "decided_at": isoformat(decision.decided_at),
            "via": decision.via,
        }
        if decision.written_outcome is not None:  # absent otherwise: choice and deny bytes stay
            record["written_outcome"] = decision.written_outcome
        if decision.via == "human":
            record["shown_digest"] = shown_digest(after)
        if decision.via == "timeout":
            record["escalation_step"] = before.escalation_step
            record["missed_deadline"] = _iso_or_none(before)
        return kind, record
    if after.status.value == "cancelled":
        return APPROVAL_CANCELLED, _identity(after)
    if after.escalation_step != before.escalation_step:
        return APPROVAL_ESCALATED, {
            **_identity(after),
            "from_role": before.current_role,
            "missed_deadline": _iso_or_none(before),
            **_offer(after),
        }
    return APPROVAL_DEADLINE_CLEARED, {
        **_identity(after),
        "missed_deadline": _iso_or_none(before),
        "current_role": after.current_role,
    }


def _identity(item: ApprovalItem) -> dict[str, Any]:
    return {
        "item_id": item.item_id,
        "case_id": item.case_id,
        "status": item.status.value,
        "version": item.version,
    }


def _offer(item: ApprovalItem) -> dict[str, Any]:
    return {
        "escalation_step": item.escalation_step,
        "current_role": item.current_role,
        "deadline": _iso_or_none(item),
    }


def _iso_or_none(item: ApprovalItem) -> str | None:
    return isoformat(item.deadline) if item.deadline else None
