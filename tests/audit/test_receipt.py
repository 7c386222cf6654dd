"""Decision receipts: a decided item's receipt verifies offline with the service's public
key alone, binds to the ledger entry that recorded the decision, and a receipt tampered in
any field fails naming that field; an undecided item has no receipt."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from accord.app import Accord
from accord.audit import DecisionReceipt
from accord.clock import FrozenClock
from accord.errors import AccordError, VerificationFailed

from ..e2e._support import reviewer_key, write_config

PROPOSAL = {"tool": "refund", "arguments": {"order": 991, "amount": 18000}}


@pytest.fixture
def accord(tmp_path: Path, database_url: str, frozen_clock: FrozenClock) -> Iterator[Accord]:
    config = write_config(
        tmp_path,
        {
            "approvals": {
                "principals": {"human:alice": []},
                "timeout_policy": {"kind": "deny", "timeout_minutes": 60},
            }
        },
    )
    opened = Accord.open(
        config, db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock
    )
    yield opened
    opened.close()


def _item(accord: Accord) -> str:
    case = accord.request_approval(
        "refund(order=991)", agent_id="agent:support", proposal=PROPOSAL, gate="refunds"
    )
    assert case.approval_item_id is not None
    return case.approval_item_id


def _keys(accord: Accord) -> dict[str, bytes]:
    root = accord.trust_root()
    return {root.kid: root.public_key}


def test_a_chosen_decision_has_a_receipt_bound_to_the_entry_that_recorded_it(
    accord: Accord,
) -> None:
    item_id = _item(accord)
    accord.decide(item_id, reviewer_key(accord, "human:alice"), choice="reject", reason="too much")
    receipt = accord.receipt(item_id)
    assert (receipt.verdict, receipt.choice, receipt.reason) == ("chosen", "reject", "too much")
    assert receipt.decided_by == "human:alice"
    entry = accord.ledger.get(receipt.ledger_seq)
    assert entry.event_type == "approval_decided"
    assert entry.record["item_id"] == item_id
    assert receipt.entry_hash == entry.entry_hash
    assert receipt.kid == entry.signer_kid
    checkpoint = receipt.verify(_keys(accord))
    assert checkpoint.tree_size >= receipt.ledger_seq
    # what `accord ledger proof SEQ` prints checks the same entry
    assert accord.ledger.inclusion_proof(receipt.ledger_seq).entry == receipt.proof.entry


def test_a_written_outcome_and_a_denial_have_receipts_too(accord: Accord) -> None:
    signer = reviewer_key(accord, "human:alice")
    written, denied = _item(accord), _item(accord)
    accord.decide(written, signer, outcome="refund half", reason="partial")
    accord.decide(denied, signer, deny=True, reason="fraud")
    first, second = accord.receipt(written), accord.receipt(denied)
    assert (first.verdict, first.written_outcome) == ("written", "refund half")
    assert (second.verdict, second.outcome, second.reason) == ("denied", "denied", "fraud")
    first.verify(_keys(accord))
    second.verify(_keys(accord))


def test_an_expired_item_has_a_receipt_saying_expired_by_its_timeout(
    accord: Accord, frozen_clock: FrozenClock
) -> None:
    item_id = _item(accord)
    frozen_clock.advance(timedelta(hours=2))
    accord.sweep()
    receipt = accord.receipt(item_id)
    assert (receipt.verdict, receipt.via) == ("expired", "timeout")
    receipt.verify(_keys(accord))


def test_an_undecided_item_has_no_receipt(accord: Accord) -> None:
    item_id = _item(accord)
    with pytest.raises(AccordError) as refused:
        accord.receipt(item_id)
    assert refused.value.code == "approvals.pending"
    with pytest.raises(AccordError) as unknown:
        accord.receipt("apr:nope")
    assert unknown.value.code.endswith("not_found")


TAMPERED: list[tuple[str, Any]] = [
    ("item_id", "apr:other"),
    ("case_id", "disp:other"),
    ("outcome", "denied"),
    ("verdict", "written"),
    ("choice", "approve"),
    ("written_outcome", "refund all"),
    ("reason", "fine by me"),
    ("decided_by", "human:mallory"),
    ("decided_at", "2020-01-01T00:00:00Z"),
    ("via", "timeout"),
    ("ledger_seq", 1),
    ("entry_hash", "sha256:" + "0" * 64),
    ("kid", "0" * 32),
]


@pytest.mark.parametrize(("field", "value"), TAMPERED, ids=[f for f, _ in TAMPERED])
def test_a_receipt_tampered_in_any_field_fails_naming_the_field(
    accord: Accord, field: str, value: Any
) -> None:
    item_id = _item(accord)
    accord.decide(item_id, reviewer_key(accord, "human:alice"), choice="reject", reason="no")
    document = json.loads(accord.receipt(item_id).model_dump_json())
    document[field] = value
    with pytest.raises(VerificationFailed) as failed:
        DecisionReceipt.model_validate(document).verify(_keys(accord))
    assert failed.value.context["field"] == field


def test_a_receipt_whose_signed_entry_was_edited_fails_on_the_entry_signature(
    accord: Accord,
) -> None:
    item_id = _item(accord)
    accord.decide(item_id, reviewer_key(accord, "human:alice"), choice="reject", reason="no")
    document = json.loads(accord.receipt(item_id).model_dump_json())
    document["proof"]["entry"]["record"]["choice"] = "approve"
    document["choice"] = "approve"
    with pytest.raises(VerificationFailed) as failed:
        DecisionReceipt.model_validate(document).verify(_keys(accord))
    assert failed.value.context["field"] == "proof.entry.signature"


def test_a_receipt_checked_against_another_key_fails(accord: Accord) -> None:
    item_id = _item(accord)
    accord.decide(item_id, reviewer_key(accord, "human:alice"), choice="reject", reason="no")
    receipt = accord.receipt(item_id)
    with pytest.raises(VerificationFailed):
        receipt.verify({receipt.kid: b"\x01" * 32})
