"""Who may sign what ``Accord.verify`` vouches for beyond the ledger's entries: a precedent
bundle only under a key the verified ledger trusts (the pinned service key, or a service or
arbitrator key it registered, within the key's registration), never a key that merely signed
it; a stay only under the reviewer key registered for the principal who ordered it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import delete

from accord.app import Accord
from accord.approvals import Principal, Reviewer
from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.disputes.objections import STAY_EVENT, StayOrder
from accord.errors import VerificationFailed
from accord.precedents import JurisprudenceBundle, PrecedentStore
from accord.store.tables import precedent_bundles, precedent_conditions, precedent_types
from tests.disputes._rules import RESPONDENT, resolve

from ._populated import _draft

LEAD = Ed25519Signer.from_seed(b"\x0b" * 32)
CAROL = Ed25519Signer.from_seed(b"\x0c" * 32)


@pytest.fixture
def accord(tmp_path: Path, database_url: str, frozen_clock: FrozenClock) -> Iterator[Accord]:
    opened = Accord.open(db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock)
    yield opened
    opened.close()


def _failure(accord: Accord) -> VerificationFailed:
    with pytest.raises(VerificationFailed) as caught:
        accord.verify(workers=1)
    return caught.value


def _signed_by(accord: Accord, signer: Ed25519Signer) -> JurisprudenceBundle:
    return PrecedentStore(accord.db, accord.clock).add(_draft(), signer)


def test_bundles_signed_by_the_service_key_and_a_registered_arbitrator_key_verify(
    accord: Accord, frozen_clock: FrozenClock
) -> None:
    accord.precedents.add(_draft())
    accord.ledger.register_key(LEAD.public_key, "arbitrator", "agent:lead")
    frozen_clock.advance(timedelta(seconds=1))
    _signed_by(accord, LEAD)
    accord.verify(workers=1)


def test_a_bundle_signed_by_a_key_the_ledger_never_registered_fails_naming_the_bundle(
    accord: Accord,
) -> None:
    accord.precedents.add(_draft())
    bundle = _signed_by(accord, LEAD)  # a valid signature, by a key nobody vouched for
    error = _failure(accord)
    assert error.code == "precedent_bundles.unbacked"
    assert (error.context["table"], error.context["key"], error.context["column"]) == (
        "precedent_bundles",
        bundle.jurisprudence_id,
        "document",
    )
    assert LEAD.kid in error.message
    assert "registered" in error.message


@pytest.mark.parametrize("role", ["reviewer", "agent"])
def test_a_bundle_signed_by_a_registered_key_of_another_role_fails(
    accord: Accord, frozen_clock: FrozenClock, role: str
) -> None:
    accord.ledger.register_key(LEAD.public_key, role, "agent:lead")  # type: ignore[arg-type]
    frozen_clock.advance(timedelta(seconds=1))
    _signed_by(accord, LEAD)
    assert _failure(accord).code == "precedent_bundles.unbacked"


def test_a_bundle_created_before_its_key_was_registered_fails(
    accord: Accord, frozen_clock: FrozenClock
) -> None:
    _signed_by(accord, LEAD)
    frozen_clock.advance(timedelta(seconds=1))
    accord.ledger.register_key(LEAD.public_key, "arbitrator", "agent:lead")
    error = _failure(accord)
    assert error.code == "precedent_bundles.unbacked"
    assert "before its signer" in error.message


def test_a_bundle_created_after_its_key_was_revoked_fails_and_one_before_still_verifies(
    accord: Accord, frozen_clock: FrozenClock
) -> None:
    accord.ledger.register_key(LEAD.public_key, "arbitrator", "agent:lead")
    frozen_clock.advance(timedelta(seconds=1))
    _signed_by(accord, LEAD)
    frozen_clock.advance(timedelta(seconds=1))
    accord.ledger.revoke_key(LEAD.kid, "the lead left the panel")
    accord.verify(workers=1)  # signed while the key was valid
    frozen_clock.advance(timedelta(seconds=1))
    _signed_by(accord, LEAD)
    error = _failure(accord)
    assert error.code == "precedent_bundles.unbacked"
    assert "revoked" in error.message


def _objection(accord: Accord) -> str:
    stored, resolution = resolve(accord.disputes, accord.clock, registered_on=accord.ledger)
    objection = accord.disputes.object(
        stored.dispute_id,
        resolution.resolution_id,
        RESPONDENT,
        "substantive",
        {"summary": "ignored", "detailed_reasoning": "log:1", "evidence_references": []},
        {"type": "rehearing", "description": "again"},
    )
    return objection.objection_id


def test_a_stay_signed_by_the_principals_registered_reviewer_key_verifies(
    accord: Accord,
) -> None:
    accord.ledger.register_key(CAROL.public_key, "reviewer", "human:carol")
    stay = accord.disputes.order_stay(
        _objection(accord), Reviewer(Principal(principal_id="human:carol"), CAROL), "hear it"
    )
    report = accord.verify(workers=1)
    assert report.signed_decisions == 1
    assert stay.ordered_by == "human:carol"


def test_a_stay_signed_by_a_key_no_entry_registered_fails_naming_the_entry(
    accord: Accord,
) -> None:
    stay = accord.disputes.order_stay(
        _objection(accord), Reviewer(Principal(principal_id="human:carol"), CAROL)
    )
    error = _failure(accord)
    assert error.code == "ledger.untrusted_reviewer"
    assert error.context["seq"] == stay.ledger_seq


def test_a_stay_ordered_in_another_principals_name_fails_as_a_forged_decider(
    accord: Accord,
) -> None:
    accord.ledger.register_key(CAROL.public_key, "reviewer", "human:carol")
    stay = accord.disputes.order_stay(
        _objection(accord), Reviewer(Principal(principal_id="human:dan"), CAROL)
    )
    error = _failure(accord)
    assert (error.code, error.context["seq"]) == ("ledger.forged_decider", stay.ledger_seq)
    assert error.context["field"] == "record.ordered_by"


def test_a_stay_entry_without_a_reviewer_signature_fails_even_as_an_os_login(
    accord: Accord,
) -> None:
    objection_id = _objection(accord)
    objection = accord.disputes.objections.get(objection_id)
    order = StayOrder(
        objection_id=objection_id,
        dispute_id=objection.record.dispute_id,
        resolution_id=objection.record.resolution_id,
        ordered_by="human:carol",
        ordered_at="2026-11-29T12:00:00.000000Z",
        reason="",
    )
    entry = accord.ledger.append(
        STAY_EVENT, {**order.model_dump(mode="json"), "credential": "os_login"}
    )
    error = _failure(accord)
    assert (error.code, error.context["seq"]) == ("ledger.unsigned_decision", entry.seq)


def test_a_bundle_removed_between_two_fails_but_the_newest_removed_is_not_detected(
    accord: Accord,
) -> None:
    """The README's stated limit: no ledger entry records a bundle, so the chain shows only
    that none is missing between two stored ones."""
    first, _, newest = accord.precedents.add_many([_draft(), _draft(), _draft()])
    with accord.db.write() as conn:
        conn.execute(delete(precedent_bundles).where(precedent_bundles.c.seq == 3))
        for table in (precedent_types, precedent_conditions):
            conn.execute(delete(table).where(table.c.jurisprudence_id == newest.jurisprudence_id))
    accord.verify(workers=1)  # not detected: a suffix of the registry is gone
    with accord.db.write() as conn:
        conn.execute(delete(precedent_bundles).where(precedent_bundles.c.seq == 1))
    error = _failure(accord)
    assert (error.code, error.context["column"]) == ("precedent_bundles.mismatch", "seq")
    assert first.jurisprudence_id not in error.message
