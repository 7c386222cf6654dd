"""Objections (R28, R29): signed, attached to the dispute and its precedent bundle, the
resolution in force unless a human principal orders a stay; rights objections routed to human
appeal — through ``Disputes``, on SQLite and PostgreSQL, with a frozen clock."""

from __future__ import annotations

from typing import Any

import pytest

from accord.approvals import Principal, Reviewer
from accord.clock import FrozenClock
from accord.crypto import RecordSignature, verify_record
from accord.dcp07 import verify_chain_link, verify_signed
from accord.deadlines import armed_for
from accord.disputes import Disputes
from accord.disputes.compliance import DISPUTE_COMPLIANCE, ActionState
from accord.disputes.objections import ObjectionNotFound
from accord.errors import AccordError, ValidationError
from accord.ledger import Ledger
from accord.precedents import (
    BundleDraft,
    Precedents,
    PrecedentSearch,
    PrecedentStore,
    verify_bundle,
)
from accord.store import Database
from tests.disputes._rules import COMPLAINANT, RESPONDENT, filing, key_of, resolve

GROUNDS = {
    "summary": "The panel ignored agent-b's booking log",
    "detailed_reasoning": "Evidence log:1 shows agent-b booked first.",
    "evidence_references": ["log:1"],
}
REMEDY = {"type": "rehearing", "description": "Hear the dispute again with the log"}


def reviewer(name: str = "human:carol", *, keyed: bool = True) -> Reviewer:
    return Reviewer(Principal(principal_id=name), key_of(name) if keyed else None)


def object_to(disputes: Disputes, frozen_clock: FrozenClock, kind: str = "substantive") -> Any:
    stored, resolution = resolve(disputes, frozen_clock)
    objection = disputes.object(
        stored.dispute_id, resolution.resolution_id, RESPONDENT, kind, GROUNDS, REMEDY
    )
    return stored, resolution, objection


def test_r28_an_objection_is_signed_chained_and_attached_to_the_dispute(
    disputes: Disputes, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    stored, resolution, objection = object_to(disputes, frozen_clock)
    record = objection.record
    verify_signed(record, ledger.signer.public_key)
    assert record.objecting_party.agent_id == RESPONDENT
    assert record.status.value == "filed"
    assert objection.routed_to is None
    event = ledger.get(objection.ledger_seq)
    assert event.event_type == "dispute_objection_filed"
    assert event.record["details"]["objection"]["objection_id"] == record.objection_id
    verify_chain_link(record, ledger.get(objection.ledger_seq - 1).canonical())
    assert [o.objection_id for o in disputes.objections.of_dispute(stored.dispute_id)] == [
        record.objection_id
    ]
    assert disputes.show(stored.dispute_id).record.timeline[-1].event == "dispute_objection_filed"
    assert disputes.objections.in_force(resolution.resolution_id)
    (action,) = disputes.compliance.actions(dispute_id=stored.dispute_id)
    assert action.state is ActionState.PENDING


def test_r28_the_precedent_bundle_of_the_resolution_lists_the_objection_without_being_rewritten(
    disputes: Disputes, db: Database, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    stored, resolution = resolve(disputes, frozen_clock)
    precedents = Precedents(PrecedentStore(db, frozen_clock), PrecedentSearch(db), ledger.signer)
    bundle = precedents.add(
        BundleDraft.model_validate(
            {
                "dispute_id": stored.dispute_id,
                "resolution_id": resolution.resolution_id,
                "classification": {
                    "dispute_type": "resource_conflict",
                    "resource_category": "gpu",
                    "resolution_pattern": "first_booking",
                },
                "summary": {
                    "facts": "Two bookings.",
                    "holding": "First wins.",
                    "rationale": "Order.",
                },
                "applicability": {"applicable_dispute_types": ["resource_conflict"]},
                "authority_level": "direct_negotiation",
                "dispute_record_hash": "sha256:" + "a" * 64,
                "resolution_record_hash": "sha256:" + "b" * 64,
            }
        )
    )
    objection = disputes.object(
        stored.dispute_id, resolution.resolution_id, RESPONDENT, "precedent", GROUNDS, REMEDY
    )
    read = precedents.get(bundle.jurisprudence_id)
    assert read.bundle == bundle
    verify_bundle(read.bundle, ledger.signer.public_key)
    (reference,) = read.objections
    assert (reference.objection_id, reference.objection_type, reference.record_hash) == (
        objection.objection_id,
        "precedent",
        objection.record_hash,
    )
    assert read.to_json_dict()["filed_objections"][0]["objection_id"] == objection.objection_id
    (found,) = precedents.search("resource_conflict")
    assert found.filed_objections == (reference,)


def test_r28_a_human_principal_orders_a_stay_signed_with_their_reviewer_key(
    disputes: Disputes, db: Database, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    stored, resolution, objection = object_to(disputes, frozen_clock)
    (action,) = disputes.compliance.actions(dispute_id=stored.dispute_id)
    stay = disputes.order_stay(objection.objection_id, reviewer(), "hear the objection first")
    assert stay.ordered_by == "human:carol"
    entry = ledger.get(stay.ledger_seq)
    assert entry.event_type == "dispute_stay_ordered"
    signed = entry.record
    assert (signed["ordered_by"], signed["credential"]) == ("human:carol", "reviewer_key")
    verify_record(signed, RecordSignature(**signed["signature"]), key_of("human:carol").public_key)
    assert not disputes.objections.in_force(resolution.resolution_id)
    assert disputes.objections.get(objection.objection_id).stay == stay
    (stayed,) = disputes.compliance.actions(dispute_id=stored.dispute_id)
    assert stayed.state is ActionState.STAYED
    with db.read() as conn:
        assert armed_for(conn, DISPUTE_COMPLIANCE, action.action_id) is None
    with pytest.raises(AccordError) as again:
        disputes.order_stay(objection.objection_id, reviewer("human:dan"))
    assert again.value.code == "objections.already_stayed"


def test_r28_a_stay_needs_a_reviewer_key_and_an_objection(
    disputes: Disputes, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    _, resolution, objection = object_to(disputes, frozen_clock)
    size = ledger.size()
    with pytest.raises(AccordError) as unsigned:
        disputes.order_stay(objection.objection_id, reviewer(keyed=False))
    assert unsigned.value.code == "objections.stay_unsigned"
    with pytest.raises(ObjectionNotFound):
        disputes.order_stay("obj:019ad0f6-1111-7111-8111-111111111111", reviewer())
    with pytest.raises(ValidationError) as malformed:
        disputes.order_stay("obj:' OR 1=1 --", reviewer())
    assert malformed.value.code == "objections.invalid"
    assert ledger.size() == size
    assert disputes.objections.in_force(resolution.resolution_id)


def test_r29_a_rights_objection_is_routed_to_human_appeal_until_a_principal_acts(
    disputes: Disputes, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    stored, _, objection = object_to(disputes, frozen_clock, "rights")
    assert objection.record.status.value == "under_review"
    assert objection.routed_to == "human_appeal"
    details = ledger.get(objection.ledger_seq).record["details"]
    assert (details["routed_to"], details["requirement"]) == ("human_appeal", "R29")
    parties = disputes.show(stored.dispute_id).record.parties
    assert details["principals"] == sorted({p.principal_id for p in parties})
    assert [o.objection_id for o in disputes.objections.awaiting_appeal()] == [
        objection.objection_id
    ]
    disputes.order_stay(objection.objection_id, reviewer())
    assert disputes.objections.awaiting_appeal() == []


def test_r29_other_objection_types_are_not_routed_to_human_appeal(
    disputes: Disputes, frozen_clock: FrozenClock
) -> None:
    for kind in ("substantive", "procedural", "precedent"):
        _, _, objection = object_to(disputes, frozen_clock, kind)
        assert objection.routed_to is None
    assert disputes.objections.awaiting_appeal() == []


def test_an_objection_is_refused_from_a_stranger_to_another_resolution_or_malformed(
    disputes: Disputes, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    stored, resolution = resolve(disputes, frozen_clock)
    unresolved = disputes.open(filing()).dispute_id
    size = ledger.size()
    cases = [
        (
            (stored.dispute_id, resolution.resolution_id, "agent-z", "rights"),
            "objections.not_a_party",
        ),
        (
            (stored.dispute_id, "res:019ad0f5-0000-7000-8000-00000000abcd", RESPONDENT, "rights"),
            "objections.not_the_resolution",
        ),
        (
            (unresolved, resolution.resolution_id, RESPONDENT, "rights"),
            "objections.not_the_resolution",
        ),
        ((stored.dispute_id, resolution.resolution_id, RESPONDENT, "vibes"), "dcp.record_invalid"),
    ]
    for args, code in cases:
        with pytest.raises(ValidationError) as caught:
            disputes.object(*args, GROUNDS, REMEDY)
        assert caught.value.code == code
    with pytest.raises(ValidationError) as long_grounds:
        disputes.object(
            stored.dispute_id, resolution.resolution_id, RESPONDENT, "rights",
            {**GROUNDS, "evidence_references": [f"e:{i}" for i in range(65)]}, REMEDY,
        )  # fmt: skip
    assert long_grounds.value.context["field"] == "grounds.evidence_references"
    assert ledger.size() == size
    assert disputes.objections.of_dispute(stored.dispute_id) == []
    # the complainant may object too:
    disputes.object(
        stored.dispute_id, resolution.resolution_id, COMPLAINANT, "procedural", GROUNDS, REMEDY
    )


def test_a_principal_who_owns_a_party_may_not_stay_its_resolution_and_nothing_is_written(
    disputes: Disputes, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    stored, resolution, objection = object_to(disputes, frozen_clock)
    size = ledger.size()
    parties = {p.agent_id: p.principal_id for p in stored.record.parties}
    for principal_id in set(parties.values()):  # here one principal owns both parties
        with pytest.raises(AccordError) as conflicted:
            disputes.order_stay(objection.objection_id, reviewer(principal_id), "mine")
        assert conflicted.value.code == "approvals.conflicted_decider"
        assert parties[conflicted.value.context["party"]] == principal_id
        assert conflicted.value.context["act"] == "order a stay in"
    assert ledger.size() == size
    assert disputes.objections.get(objection.objection_id).stay is None
    assert disputes.objections.in_force(resolution.resolution_id)
