"""The item and decision models refuse states that cannot happen."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import msgspec
import pytest
from pydantic import ValidationError as PydanticValidationError

from accord.approvals import (
    TIMEOUT_DECIDER,
    ApprovalDecision,
    ApprovalItem,
    ApprovalStatus,
    Principal,
    WaitForever,
)
from accord.approvals.rows import item_document, item_row

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
ITEM_ID = "apr:00000000-0000-4000-8000-000000000000"


def item(**changes: Any) -> ApprovalItem:
    fields: dict[str, Any] = {
        "item_id": ITEM_ID,
        "case_id": "case:1",
        "title": "t",
        "summary": "s",
        "positions": [{"agent": "agent:a"}],
        "analysis": "",
        "options": ("approve", "deny"),
        "risk": "low",
        "policy": WaitForever(),
        "created_at": NOW,
    }
    return ApprovalItem.model_validate({**fields, **changes})


def human(**changes: Any) -> ApprovalDecision:
    fields: dict[str, Any] = {
        "outcome": "approved",
        "decided_by": "user:alice",
        "decided_at": NOW,
        "via": "human",
    }
    return ApprovalDecision.model_validate({**fields, **changes})


def test_a_fresh_item_is_pending_and_frozen() -> None:
    fresh = item()
    assert fresh.is_pending
    assert fresh.version == 1
    assert not fresh.is_due(NOW)
    with pytest.raises(PydanticValidationError):
        fresh.title = "changed"  # type: ignore[misc]


@pytest.mark.parametrize(
    "changes",
    [
        {"item_id": "apr:nope"},
        {"options": ()},
        {"options": ("approve", "approve")},
        {"status": "approved"},  # closed without a decision
        {"decision": human()},  # pending with a decision
        {"status": "denied", "decision": human()},  # outcome differs from status
        {"status": "cancelled", "deadline": NOW},  # only pending items have deadlines
        {"positions": [{"agent": "agent:a", "confidence": 1.5}]},
        {"positions": [{"agent": "agent:a", "mood": "grumpy"}]},
    ],
)
def test_impossible_items_are_refused(changes: dict[str, Any]) -> None:
    with pytest.raises(PydanticValidationError):
        item(**changes)


@pytest.mark.parametrize(
    "changes",
    [
        {"via": "timeout"},  # a timeout must record 'expired' by the system
        {"outcome": "expired"},  # a person never "expires" an item
        {"decided_by": TIMEOUT_DECIDER},  # a person is never the system
        {"outcome": "expired", "via": "timeout", "decided_by": "user:alice"},
    ],
)
def test_timeouts_and_human_decisions_cannot_be_confused(changes: dict[str, Any]) -> None:
    with pytest.raises(PydanticValidationError):
        human(**changes)


def test_a_timeout_decision_is_expired_by_the_system() -> None:
    decision = human(outcome="expired", via="timeout", decided_by=TIMEOUT_DECIDER, choice="deny")
    closed = item(status=ApprovalStatus.EXPIRED, decision=decision)
    assert closed.decision == decision


def test_principals_cannot_claim_to_be_the_system() -> None:
    with pytest.raises(PydanticValidationError, match="reserved"):
        Principal(principal_id="system:timeout")
    assert Principal(principal_id="user:bob", roles=frozenset({"lead"})).holds("lead")


def test_a_stored_document_from_before_a_field_existed_is_answered_with_its_default() -> None:
    stored = item()
    row = item_row(stored)
    assert _as_json(item_document(row)) == stored.model_dump(mode="json")
    legacy = json.loads(row["document"])
    del legacy["option_texts"]  # written before option_texts existed
    answered = item_document({"document": json.dumps(legacy)})
    assert _as_json(answered) == stored.model_dump(mode="json")


def _as_json(document: dict[str, msgspec.Raw]) -> object:
    """What a client receives for the document (its raw fields encoded, then read back)."""
    return json.loads(msgspec.json.encode(document))
