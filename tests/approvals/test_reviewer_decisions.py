"""Decisions come from a Reviewer: the queue signs each with the reviewer's key and refuses
a decider who is a party of the item or owns a party agent."""

from __future__ import annotations

import pytest

from accord.approvals import ApprovalQueue, ConflictedDecider, Principal, Reviewer
from accord.clock import FrozenClock
from accord.crypto import RecordSignature, verify_record
from accord.errors import ValidationError
from accord.store import Database
from tests.approvals.conftest import EventLog, ask, reviewer


def test_the_decision_record_carries_the_reviewers_signature_over_everything_else(
    queue: ApprovalQueue, alice: Reviewer, event_log: EventLog
) -> None:
    item = ask(queue)
    queue.decide(item.item_id, alice, outcome="approved", choice="approve", reason="ok")
    [record] = event_log.records("approval_decided")
    assert record["credential"] == "reviewer_key"
    signature = RecordSignature.model_validate(record["signature"])
    assert alice.signer is not None
    assert signature.kid == alice.signer.kid
    verify_record(record, signature, alice.signer.public_key)


def test_an_os_login_decision_says_so_and_carries_no_signature(
    queue: ApprovalQueue, event_log: EventLog
) -> None:
    item = ask(queue)
    login = Reviewer(Principal(principal_id="human:alice"), None)
    queue.decide(item.item_id, login, outcome="denied")
    [record] = event_log.records("approval_decided")
    assert record["credential"] == "os_login"
    assert "signature" not in record


def test_a_bare_principal_is_no_longer_accepted_as_a_decider(
    queue: ApprovalQueue, alice: Reviewer
) -> None:
    item = ask(queue)
    with pytest.raises(ValidationError) as refused:
        queue.decide(item.item_id, alice.principal, outcome="approved")  # type: ignore[arg-type]
    assert refused.value.context["field"] == "reviewer"
    with pytest.raises(ValidationError):
        Reviewer("human:alice", None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("decider", "party"), [("agent:billing", "agent:billing"), ("human:carol", "agent:audit")]
)
def test_a_party_or_the_owner_of_a_party_agent_is_refused_naming_both(
    db: Database, frozen_clock: FrozenClock, event_log: EventLog, decider: str, party: str
) -> None:
    queue = ApprovalQueue(
        db, frozen_clock, on_event=event_log, party_owners={"agent:audit": "human:carol"}
    )
    item = ask(queue)
    with pytest.raises(ConflictedDecider) as refused:
        queue.decide(item.item_id, reviewer(decider), outcome="approved", choice="approve")
    assert refused.value.code == "approvals.conflicted_decider"
    assert (refused.value.context["principal_id"], refused.value.context["party"]) == (
        decider,
        party,
    )
    assert queue.get(item.item_id).is_pending
    assert event_log.kinds == ["approval_requested"]
    queue.decide(item.item_id, reviewer("human:dave"), outcome="approved", choice="approve")
