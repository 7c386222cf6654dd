"""The §4 dispute, §6 resolution and §8 objection records: shapes and invariants (R5, R19, R27,
R40), each refusal naming its requirement."""

from __future__ import annotations

from typing import Any

import pytest

from accord.dcp07 import (
    DisputeRecord,
    ObjectionRecord,
    ResolutionRecord,
    read_any_record,
    read_record,
    record_document,
)
from accord.errors import ValidationError
from tests.dcp07._records import (
    ARBITRATORS,
    dispute_document,
    human_appeal_document,
    objection_document,
    resolution_document,
)


def refusal(model: Any, document: dict[str, Any]) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        read_record(model, document)
    return caught.value


def test_r05_r40_the_section_4_example_reads_and_writes_back_unchanged() -> None:
    document = dispute_document()
    record = read_record(DisputeRecord, document)
    assert record_document(record) == document
    assert list(record_document(record)) == list(document)  # the fields, in the text's order


def test_r19_r40_the_section_6_example_reads_and_writes_back_unchanged() -> None:
    document = resolution_document()
    assert record_document(read_record(ResolutionRecord, document)) == document


def test_r27_r40_the_section_8_example_reads_and_writes_back_unchanged() -> None:
    document = objection_document()
    assert record_document(read_record(ObjectionRecord, document)) == document


def test_r40_a_record_is_read_by_its_record_type() -> None:
    assert isinstance(read_any_record(resolution_document()), ResolutionRecord)
    assert isinstance(read_any_record(objection_document()), ObjectionRecord)
    with pytest.raises(ValidationError) as caught:
        read_any_record({**dispute_document(), "record_type": "jurisprudence_bundle"})
    assert caught.value.context["requirement"] == "R40"
    assert caught.value.context["field"] == "record_type"


def test_r40_a_record_read_from_json_text_refuses_malformed_text() -> None:
    with pytest.raises(ValidationError) as caught:
        read_any_record("{not json")
    assert caught.value.code == "dcp.record_invalid"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("dispute_id", "dispute:42"),
        ("dispute_id", "disp:not-a-uuid"),
        ("opened_at", "2026-13-01T10:05:00Z"),
        ("opened_at", "2026-03-01 10:05:00"),
        ("prev_hash", "sha3-256:" + "0" * 64),
        ("prev_hash_secondary", "sha256:" + "0" * 64),
        ("surprise", "an extra field"),
    ],
)
def test_r05_a_malformed_dispute_record_is_refused_naming_the_field(field: str, value: str) -> None:
    error = refusal(DisputeRecord, {**dispute_document(), field: value})
    assert error.code == "dcp.record_invalid"
    assert error.context["requirement"] == "R5"
    assert error.context["field"] == field


def test_r01_r37_a_dispute_record_has_one_of_the_four_types() -> None:
    kinds = ("resource_conflict", "directive_conflict", "capability_conflict", "policy_conflict")
    for kind in kinds:
        read_record(DisputeRecord, {**dispute_document(), "dispute_type": kind})
    error = refusal(DisputeRecord, {**dispute_document(), "dispute_type": "budget_conflict"})
    assert error.context["field"] == "dispute_type"


def test_r03_a_dispute_record_has_one_of_the_four_severities() -> None:
    for severity in ("low", "medium", "high", "critical"):
        read_record(DisputeRecord, {**dispute_document(), "severity": severity})
    error = refusal(DisputeRecord, {**dispute_document(), "severity": "urgent"})
    assert error.context["field"] == "severity"


def test_r06_a_dispute_record_has_one_of_the_eight_statuses() -> None:
    statuses = "open negotiating escalated arbitrating appealing resolved withdrawn abandoned"
    for status in statuses.split():
        read_record(DisputeRecord, {**dispute_document(), "status": status})
    error = refusal(DisputeRecord, {**dispute_document(), "status": "in_negotiation"})
    assert error.context["field"] == "status"


@pytest.mark.parametrize("bad", ["sha256:ABC", "sha256:" + "g" * 64, "0" * 64, "sha1:" + "0" * 40])
def test_r33_an_evidence_content_hash_is_sha256_hex(bad: str) -> None:
    document = dispute_document()
    document["evidence"][0]["content_hash"] = bad
    error = refusal(DisputeRecord, document)
    assert error.context["field"] == "evidence.0.content_hash"


def test_r05_evidence_comes_from_a_party_to_the_dispute() -> None:
    document = dispute_document()
    document["evidence"][1]["submitted_by"] = "agent:bystander"
    error = refusal(DisputeRecord, document)
    assert (error.code, error.context["requirement"]) == ("dcp.evidence_from_outsider", "R5")


def test_r05_the_complainant_is_not_also_a_respondent() -> None:
    document = dispute_document()
    document["respondents"].append(dict(document["complainant"]))
    assert refusal(DisputeRecord, document).code == "dcp.duplicate_party"


def test_r05_a_dispute_has_at_least_one_respondent() -> None:
    error = refusal(DisputeRecord, {**dispute_document(), "respondents": []})
    assert error.context["field"] == "respondents"


def test_r05_evidence_ids_are_unique() -> None:
    document = dispute_document()
    document["evidence"][1]["evidence_id"] = document["evidence"][0]["evidence_id"]
    assert refusal(DisputeRecord, document).code == "dcp.duplicate_evidence"


def test_r40_a_float_is_refused_where_a_signed_record_counts() -> None:
    document = resolution_document()
    document["panel"]["threshold"]["m"] = 2.0
    error = refusal(ResolutionRecord, document)
    assert error.context["field"] == "panel.threshold.m"
    document = resolution_document()
    document["panel"]["votes_for"] = 2.0
    assert refusal(ResolutionRecord, document).context["field"] == "panel.votes_for"


def test_r10_a_panel_has_at_least_three_members() -> None:
    document = resolution_document()
    panel = document["panel"]
    panel["members"] = panel["members"][:2]
    panel.update(threshold={"m": 2, "n": 2}, votes_for=2, votes_against=0)
    error = refusal(ResolutionRecord, document)
    assert (error.code, error.context["requirement"]) == ("dcp.panel_too_small", "R10")


@pytest.mark.parametrize("m", [0, 4])
def test_r39_the_threshold_m_lies_between_one_and_n(m: int) -> None:
    document = resolution_document()
    document["panel"]["threshold"]["m"] = m
    error = refusal(ResolutionRecord, document)
    assert (error.code, error.context["requirement"]) == ("dcp.threshold_invalid", "R39")


def test_r19_n_is_the_number_of_panel_members() -> None:
    document = resolution_document()
    document["panel"]["threshold"]["n"] = 5
    assert refusal(ResolutionRecord, document).code == "dcp.panel_count_mismatch"


@pytest.mark.parametrize(("votes_for", "votes_against"), [(3, 0), (2, 0), (1, 2)])
def test_r19_the_vote_counts_are_the_members_votes(votes_for: int, votes_against: int) -> None:
    document = resolution_document()
    document["panel"].update(votes_for=votes_for, votes_against=votes_against)
    error = refusal(ResolutionRecord, document)
    assert (error.code, error.context["requirement"]) == ("dcp.vote_count_mismatch", "R19")


def test_r14_a_member_sits_once_on_a_panel() -> None:
    document = resolution_document()
    document["panel"]["members"][2]["agent_id"] = ARBITRATORS[0]
    assert refusal(ResolutionRecord, document).code == "dcp.duplicate_member"


def test_r15_a_split_decision_is_exactly_a_panel_without_m_of_n_agreement() -> None:
    split = resolution_document()
    split["resolution_type"] = "split_decision"
    error = refusal(ResolutionRecord, split)
    assert (error.code, error.context["requirement"]) == ("dcp.decision_type_mismatch", "R15")
    split["panel"]["members"][1]["vote"] = "dissent"
    split["panel"].update(votes_for=1, votes_against=2)
    assert read_record(ResolutionRecord, split).panel is not None
    split["resolution_type"] = "binding_resolution"
    assert refusal(ResolutionRecord, split).code == "dcp.decision_type_mismatch"


def test_r19_a_panel_is_recorded_exactly_at_contextual_arbitration() -> None:
    negotiated = {**resolution_document(), "resolution_level": "direct_negotiation"}
    assert refusal(ResolutionRecord, negotiated).code == "dcp.panel_level_mismatch"
    arbitrated = {**resolution_document(), "panel": None}
    assert refusal(ResolutionRecord, arbitrated).code == "dcp.panel_level_mismatch"


def test_r16_a_human_appeal_decision_is_final_and_binding() -> None:
    assert read_record(ResolutionRecord, human_appeal_document()).panel is None
    recommended = {**human_appeal_document(), "resolution_type": "recommended_resolution"}
    error = refusal(ResolutionRecord, recommended)
    assert (error.code, error.context["requirement"]) == ("dcp.decision_type_mismatch", "R16")


def test_r19_resolution_ids_are_res_uuid() -> None:
    error = refusal(ResolutionRecord, {**resolution_document(), "resolution_id": "resolution:1"})
    assert (error.context["requirement"], error.context["field"]) == ("R19", "resolution_id")


def test_r27_an_objection_has_one_of_the_four_types() -> None:
    for kind in ("substantive", "procedural", "precedent", "rights"):
        read_record(ObjectionRecord, {**objection_document(), "objection_type": kind})
    error = refusal(ObjectionRecord, {**objection_document(), "objection_type": "ethical"})
    assert (error.context["requirement"], error.context["field"]) == ("R27", "objection_type")


def test_r27_objection_ids_are_obj_uuid_and_precedent_references_are_jur_ids() -> None:
    error = refusal(ObjectionRecord, {**objection_document(), "objection_id": "objection:1"})
    assert error.context["field"] == "objection_id"
    document = objection_document()
    document["grounds"]["precedent_references"] = ["juris:old-style"]
    assert refusal(ObjectionRecord, document).context["field"] == ("grounds.precedent_references.0")


def test_r05_records_are_frozen() -> None:
    record = read_record(DisputeRecord, dispute_document())
    with pytest.raises(Exception, match="frozen"):
        record.status = "resolved"  # type: ignore[misc, assignment]


def test_r19_reasoning_hashes_are_sha256() -> None:
    document = resolution_document()
    document["panel"]["members"][0]["reasoning_hash"] = "plain reasoning"
    assert refusal(ResolutionRecord, document).context["field"] == (
        "panel.members.0.reasoning_hash"
    )


_WRONG_TAG = {
    "alg": "ed25519",
    "kid": "0" * 32,
    "sig_b64": "AAAA",
    "domain_sep": "DCP-AI.v2.Dispute",
}


@pytest.mark.parametrize(
    ("model", "document", "where"),
    [
        (DisputeRecord, dispute_document, "signature"),
        (ObjectionRecord, objection_document, "signature"),
    ],
)
def test_r36_a_signature_under_another_tag_is_refused_citing_r36_not_as_a_shape_error(
    model: Any, document: Any, where: str
) -> None:
    error = refusal(model, {**document(), where: _WRONG_TAG, "surprise": "listed first or not"})
    assert error.context["requirement"] == "R36"
    assert error.context["field"] == f"{where}.domain_sep"
    assert "R36" in error.message


def test_r36_each_resolution_signature_under_another_tag_is_refused_citing_r36() -> None:
    signature = {**_WRONG_TAG, "agent_id": ARBITRATORS[0]}
    error = refusal(ResolutionRecord, {**resolution_document(), "signatures": [signature]})
    assert error.context["requirement"] == "R36"
    assert error.context["field"] == "signatures.0.domain_sep"
