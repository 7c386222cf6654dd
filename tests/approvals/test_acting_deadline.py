"""The one rule for which deadline acts on a waiting item, and the one decision vocabulary."""

from __future__ import annotations

from datetime import timedelta

from accord.approvals import (
    TIMEOUT_DECIDER,
    ApprovalStatus,
    DenyAfter,
    acting_deadline,
    verdict_of,
    verdict_of_decision,
    verdict_words,
)
from tests.approvals.test_item_models import NOW, human, item

SOON = NOW + timedelta(minutes=15)
LATER = NOW + timedelta(minutes=30)


def test_an_undated_item_is_acted_on_by_its_case_tier_deadline() -> None:
    acting = acting_deadline(item(), SOON)
    assert acting is not None
    assert (acting.due_at, acting.source, acting.action) == (SOON, "case_tier", "abandon")
    assert "case expires" in acting.then


def test_the_sooner_deadline_acts_and_the_items_own_wins_a_tie() -> None:
    dated = item(deadline=LATER, policy=DenyAfter(timeout_minutes=30))
    acting = acting_deadline(dated, SOON, "escalate")
    assert acting is not None
    assert (acting.source, acting.action) == ("case_tier", "escalate")
    own = acting_deadline(dated, LATER)
    assert own is not None
    assert (own.due_at, own.source, own.action) == (LATER, "item", "deny")
    alone = acting_deadline(dated)
    assert alone is not None
    assert alone.source == "item"
    assert "§12.4" in alone.then


def test_no_deadline_when_none_is_armed_or_the_item_is_decided() -> None:
    assert acting_deadline(item()) is None
    decided = item(status=ApprovalStatus.APPROVED, decision=human(choice="deny"))
    assert acting_deadline(decided, SOON) is None


def test_a_chosen_reject_is_chosen_not_approved() -> None:
    decided = item(status=ApprovalStatus.APPROVED, decision=human(choice="deny"))
    assert decided.decision is not None
    assert verdict_of(decided) == "chosen"
    assert verdict_words("chosen", decided.decision) == "chosen 'deny'"


def test_every_way_an_item_ends_has_its_own_verdict() -> None:
    assert verdict_of(item()) is None
    written = human(written_outcome="split it")
    assert verdict_of_decision(written) == "written"
    assert verdict_of_decision(human(outcome="denied")) == "denied"
    timeout = human(outcome="expired", via="timeout", decided_by=TIMEOUT_DECIDER, choice="deny")
    assert verdict_of_decision(timeout) == "expired"
    assert verdict_of(item(status=ApprovalStatus.CANCELLED)) == "cancelled"
