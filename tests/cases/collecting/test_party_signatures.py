"""A party signs its own position with its own registered agent key (the key never reaches
the server); the service verifies the signature against the ledger's key before storing the
position, and refuses a bad one or another agent's key with nothing stored."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from accord import Accord, Position
from accord.cases.collecting import (
    CollectingCase,
    UnknownPositionSigner,
    sign_position,
    verify_position_signature,
)
from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.errors import SignatureInvalid, ValidationError

PARTIES = ["agent:billing", "agent:audit"]
BILLING = Ed25519Signer.from_seed(b"\x01" * 32)  # held by agent:billing's own process
AUDIT = Ed25519Signer.from_seed(b"\x02" * 32)


@pytest.fixture
def accord(tmp_path: Path, database_url: str, frozen_clock: FrozenClock) -> Iterator[Accord]:
    instance = Accord.open(db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock)
    instance.ledger.register_key(BILLING.public_key, "agent", "agent:billing")
    instance.ledger.register_key(AUDIT.public_key, "agent", "agent:audit")
    yield instance
    instance.close()


@pytest.fixture
def opened(accord: Accord) -> CollectingCase:
    return accord.collecting.open("Total", PARTIES, within=3600, opened_by="admin")


def _position(agent: str, output: object = 1200) -> Position:
    return Position.model_validate({"agent": agent, "output": output, "confidence": 0.9})


def test_a_signed_position_is_verified_stored_and_matches_the_settled_case(
    accord: Accord, opened: CollectingCase
) -> None:
    cid = opened.collecting_id
    mine = _position("agent:billing")
    after = accord.collecting.submit(
        cid, mine, by="agent:billing", signature=sign_position(cid, mine, BILLING)
    )
    assert after.signed == ("agent:billing",)
    theirs = _position("agent:audit", 1450)
    signature = sign_position(cid, theirs, AUDIT).model_dump()  # as JSON over the wire
    settled = accord.collecting.submit(cid, theirs, by="agent:audit", signature=signature)
    assert settled.signed == ("agent:billing", "agent:audit")
    assert settled.case_id is not None
    case = accord.cases.get(settled.case_id)
    signatures = accord.collecting.signatures(cid)
    registry = accord.ledger.key_registry()
    for position in case.positions:  # each agent vouched for what the case signs about it
        verify_position_signature(registry, cid, position, signatures[position.agent])


def test_a_signature_over_other_content_is_refused_and_nothing_is_stored(
    accord: Accord, opened: CollectingCase
) -> None:
    cid = opened.collecting_id
    signed_for = _position("agent:billing", 1200)
    with pytest.raises(SignatureInvalid) as refused:
        accord.collecting.submit(
            cid,
            _position("agent:billing", 9999),
            by="agent:billing",
            signature=sign_position(cid, signed_for, BILLING),
        )
    assert str(refused.value.context["field"]).startswith("party_signature")
    assert accord.collecting.get(cid).submitted == ()


def test_a_signature_for_another_collecting_case_is_refused(
    accord: Accord, opened: CollectingCase
) -> None:
    mine = _position("agent:billing")
    with pytest.raises(SignatureInvalid):
        accord.collecting.submit(
            opened.collecting_id,
            mine,
            by="agent:billing",
            signature=sign_position("coll:other", mine, BILLING),
        )


@pytest.mark.parametrize(
    "signer",
    [AUDIT, Ed25519Signer.from_seed(b"\x09" * 32)],
    ids=["another agent's key", "an unregistered key"],
)
def test_a_key_that_is_not_the_submitters_registered_agent_key_is_refused(
    accord: Accord, opened: CollectingCase, signer: Ed25519Signer
) -> None:
    mine = _position("agent:billing")
    with pytest.raises(UnknownPositionSigner) as refused:
        accord.collecting.submit(
            opened.collecting_id,
            mine,
            by="agent:billing",
            signature=sign_position(opened.collecting_id, mine, signer),
        )
    assert refused.value.context["field"] == "party_signature.kid"
    assert accord.collecting.get(opened.collecting_id).submitted == ()


def test_a_revoked_key_signs_for_nobody(accord: Accord, opened: CollectingCase) -> None:
    accord.ledger.revoke_key(BILLING.kid)
    mine = _position("agent:billing")
    with pytest.raises(UnknownPositionSigner):
        accord.collecting.submit(
            opened.collecting_id,
            mine,
            by="agent:billing",
            signature=sign_position(opened.collecting_id, mine, BILLING),
        )


def test_a_malformed_signature_is_refused_naming_the_field(
    accord: Accord, opened: CollectingCase
) -> None:
    with pytest.raises(ValidationError) as refused:
        accord.collecting.submit(
            opened.collecting_id, {"output": 1}, by="agent:billing", signature={"kid": "x"}
        )
    assert refused.value.context["field"] == "party_signature"
