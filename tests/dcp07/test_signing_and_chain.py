"""Signing DCP-07 records under DCP-DISPUTE-SIG-v2 and chaining them (R36, R44, R5/R19/R27)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.crypto import (
    DISPUTE_SIG_TAG,
    GENESIS,
    canonical_bytes,
    sha3_256_prefixed,
    sha256_prefixed,
    verify_ed25519,
)
from accord.crypto.encoding import b64decode
from accord.dcp07 import (
    DisputeRecord,
    ObjectionRecord,
    ResolutionRecord,
    chain_link,
    chain_link_at,
    cosigned,
    read_record,
    record_canonical_bytes,
    record_document,
    signed,
    verify_chain_link,
    verify_resolution,
    verify_signed,
)
from accord.errors import SignatureInvalid, ValidationError
from accord.ledger.entry import ChainHead, seal, splice_signature
from tests.dcp07._records import (
    ARBITRATORS,
    COMPLAINANT,
    PRINCIPALS,
    dispute_document,
    human_appeal_document,
    objection_document,
    resolution_document,
    signer_for,
)


def dispute() -> DisputeRecord:
    return read_record(DisputeRecord, dispute_document())


def resolution() -> ResolutionRecord:
    return read_record(ResolutionRecord, resolution_document())


def test_r36_r44_a_dispute_record_is_signed_over_the_tagged_canonical_record() -> None:
    signer = signer_for(COMPLAINANT)
    record = signed(dispute(), signer)
    assert record.signature is not None
    assert record.signature.domain_sep == DISPUTE_SIG_TAG == "DCP-DISPUTE-SIG-v2"
    assert (record.signature.alg, record.signature.kid) == ("ed25519", signer.kid)
    unsigned = {k: v for k, v in record_document(record).items() if k != "signature"}
    message = DISPUTE_SIG_TAG.encode() + b"\x00" + canonical_bytes(unsigned)
    verify_ed25519(signer.public_key, message, b64decode(record.signature.sig_b64))
    assert verify_signed(record, signer.public_key) is record


def test_r44_an_objection_record_is_signed_by_the_objecting_party() -> None:
    signer = signer_for("agent:procurement-b")
    record = signed(read_record(ObjectionRecord, objection_document()), signer)
    assert verify_signed(record, signer.public_key) is record


def test_r44_a_changed_record_no_longer_verifies_and_the_error_names_it() -> None:
    signer = signer_for(COMPLAINANT)
    record = signed(dispute(), signer)
    tampered = read_record(DisputeRecord, {**record_document(record), "severity": "low"})
    with pytest.raises(SignatureInvalid) as caught:
        verify_signed(tampered, signer.public_key)
    assert caught.value.context["record"] == record.dispute_id
    assert caught.value.context["requirement"] == "R44"


def test_r44_a_signature_under_another_key_names_the_kid_as_what_failed() -> None:
    record = signed(dispute(), signer_for(COMPLAINANT))
    with pytest.raises(SignatureInvalid) as caught:
        verify_signed(record, signer_for("agent:someone-else").public_key)
    assert caught.value.context["field"] == "kid"


def test_r44_an_unsigned_record_does_not_verify_and_a_signed_one_is_not_signed_again() -> None:
    with pytest.raises(SignatureInvalid) as caught:
        verify_signed(dispute(), signer_for(COMPLAINANT).public_key)
    assert caught.value.context["field"] == "signature"
    record = signed(dispute(), signer_for(COMPLAINANT))
    with pytest.raises(SignatureInvalid):
        signed(record, signer_for(COMPLAINANT))


def test_r36_a_record_whose_signature_names_another_domain_is_refused_when_read() -> None:
    document = record_document(signed(dispute(), signer_for(COMPLAINANT)))
    document["signature"]["domain_sep"] = "DCP-AI.v2.Dispute"
    with pytest.raises(ValidationError) as caught:
        read_record(DisputeRecord, document)
    assert caught.value.context["field"] == "signature.domain_sep"
    assert caught.value.context["requirement"] == "R36"  # the tag rule, not an R5 shape error


def test_r19_r44_each_signing_arbitrator_adds_a_signature_over_the_same_bytes() -> None:
    record = resolution()
    for agent in ARBITRATORS[:2]:
        record = cosigned(record, agent, signer_for(agent))
    assert [s.agent_id for s in record.signatures] == list(ARBITRATORS[:2])
    keys = {agent: signer_for(agent).public_key for agent in ARBITRATORS}
    assert verify_resolution(record, keys) is record


def test_r14_an_m_of_n_decision_needs_the_signatures_of_m_approving_members() -> None:
    record = cosigned(resolution(), ARBITRATORS[0], signer_for(ARBITRATORS[0]))
    record = cosigned(record, ARBITRATORS[2], signer_for(ARBITRATORS[2]))  # the dissenter
    keys = {agent: signer_for(agent).public_key for agent in ARBITRATORS}
    with pytest.raises(SignatureInvalid) as caught:
        verify_resolution(record, keys)
    assert (caught.value.context["m"], caught.value.context["signed"]) == (2, 1)


def test_r19_only_panel_members_sign_and_each_once() -> None:
    with pytest.raises(ValidationError) as caught:
        cosigned(resolution(), "agent:outsider", signer_for("agent:outsider"))
    assert caught.value.code == "dcp.signer_not_member"
    once = cosigned(resolution(), ARBITRATORS[0], signer_for(ARBITRATORS[0]))
    with pytest.raises(ValidationError) as caught:
        cosigned(once, ARBITRATORS[0], signer_for(ARBITRATORS[0]))
    assert caught.value.code == "dcp.duplicate_signer"


def test_r44_a_resolution_signature_by_the_wrong_key_names_its_signer() -> None:
    record = cosigned(resolution(), ARBITRATORS[0], signer_for(ARBITRATORS[1]))
    record = cosigned(record, ARBITRATORS[1], signer_for(ARBITRATORS[1]))
    keys = {agent: signer_for(agent).public_key for agent in ARBITRATORS}
    with pytest.raises(SignatureInvalid) as caught:
        verify_resolution(record, keys)
    assert caught.value.context["signer"] == ARBITRATORS[0]


def test_r44_a_resolution_without_signatures_or_with_an_unknown_signer_does_not_verify() -> None:
    with pytest.raises(SignatureInvalid) as caught:
        verify_resolution(resolution(), {})
    assert caught.value.context["field"] == "signatures"
    record = cosigned(resolution(), ARBITRATORS[0], signer_for(ARBITRATORS[0]))
    with pytest.raises(SignatureInvalid) as caught:
        verify_resolution(record, {})
    assert caught.value.context["signer"] == ARBITRATORS[0]


def test_r16_a_human_appeal_decision_carries_the_principals_signatures() -> None:
    record = read_record(ResolutionRecord, human_appeal_document())
    keys = {principal: signer_for(principal).public_key for principal in PRINCIPALS}
    first = cosigned(record, PRINCIPALS[0], signer_for(PRINCIPALS[0]))
    with pytest.raises(SignatureInvalid) as caught:
        verify_resolution(first, keys, required_signers=PRINCIPALS)
    assert caught.value.context["missing"] == [PRINCIPALS[1]]
    both = cosigned(first, PRINCIPALS[1], signer_for(PRINCIPALS[1]))
    verified = verify_resolution(both, keys, required_signers=PRINCIPALS)
    assert verified.resolution_level.value == "human_appeal"


def test_r07_a_negotiated_agreement_is_signed_by_every_party() -> None:
    document = {**resolution_document(), "resolution_level": "direct_negotiation", "panel": None}
    parties = (COMPLAINANT, "agent:procurement-b")
    record = cosigned(read_record(ResolutionRecord, document), COMPLAINANT, signer_for(COMPLAINANT))
    keys = {party: signer_for(party).public_key for party in parties}
    with pytest.raises(SignatureInvalid):
        verify_resolution(record, keys, required_signers=parties)
    record = cosigned(record, parties[1], signer_for(parties[1]))
    assert verify_resolution(record, keys, required_signers=parties) is record


def test_r05_the_first_record_links_to_genesis_and_the_next_to_its_canonical_bytes() -> None:
    first = chain_link(None)
    assert (first.prev_hash, first.prev_hash_secondary) == (GENESIS, GENESIS)
    opened = signed(dispute(), signer_for(COMPLAINANT))
    previous = record_canonical_bytes(opened)
    assert previous == canonical_bytes(record_document(opened))
    link = chain_link(previous)
    assert link.prev_hash == sha256_prefixed(previous)
    assert link.prev_hash_secondary == sha3_256_prefixed(previous)
    document = {**resolution_document(), **link.model_dump()}
    following = read_record(ResolutionRecord, document)
    verify_chain_link(following, previous)
    verify_chain_link(opened, None)


def test_r27_a_record_linked_to_another_entry_is_refused_naming_the_hash() -> None:
    objection = read_record(ObjectionRecord, objection_document())
    with pytest.raises(ValidationError) as caught:
        verify_chain_link(objection, b'{"another":"entry"}')
    assert caught.value.code == "dcp.chain_mismatch"
    assert (caught.value.context["field"], caught.value.context["requirement"]) == (
        "prev_hash",
        "R27",
    )
    primary_only = {**objection_document(), "prev_hash": sha256_prefixed(b"x")}
    with pytest.raises(ValidationError) as caught:
        verify_chain_link(read_record(ObjectionRecord, primary_only), b"x")
    assert caught.value.context["field"] == "prev_hash_secondary"


def test_r05_a_record_linked_at_the_ledger_head_links_to_the_last_entry_bytes() -> None:
    assert chain_link_at(ChainHead.genesis()) == chain_link(None)
    opened = signed(dispute(), signer_for(COMPLAINANT))
    service = signer_for("service")
    entry = seal(
        1,
        "dispute_opened",
        record_canonical_bytes(opened),
        ChainHead.genesis(),
        service,
        "2026-03-01T10:05:00.000000Z",
    )
    entry_bytes = splice_signature(entry.body, entry.signer_kid, entry.signature)
    assert chain_link_at(entry.head()) == chain_link(entry_bytes)
    following = read_record(
        ResolutionRecord, {**resolution_document(), **chain_link_at(entry.head()).model_dump()}
    )
    verify_chain_link(following, entry_bytes)


TEXT_FIELDS = (
    ("subject", "description"),
    ("complainant", "principal_id"),
    ("escalation_deadline",),
    ("severity",),
    ("prev_hash",),
)


@settings(max_examples=25)
@given(
    path=st.sampled_from(TEXT_FIELDS),
    suffix=st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8),
)
def test_r44_changing_any_signed_field_breaks_the_signature(
    path: tuple[str, ...], suffix: str
) -> None:
    signer = signer_for(COMPLAINANT)
    document = record_document(signed(dispute(), signer))
    replacements = {
        "escalation_deadline": "2026-03-01T14:06:00Z",
        "severity": "critical",
        "prev_hash": sha256_prefixed(suffix.encode()),
    }
    target = document
    for key in path[:-1]:
        target = target[key]
    last = path[-1]
    target[last] = replacements.get(last, f"{target[last]} {suffix}".replace(" ", "-"))
    changed = read_record(DisputeRecord, document)
    with pytest.raises(SignatureInvalid):
        verify_signed(changed, signer.public_key)
