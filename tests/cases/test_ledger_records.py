"""The signed records a case writes: event types, the playbook's log fields (§8), signability."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.cases import Case
from accord.cases.ledger_records import case_events
from accord.cases.signable import answer_hash
from accord.conflicts import Evidence, Position
from accord.crypto import canonical_bytes

from ..org._builders import chart, member
from ._builders import decide_case, pos

LOG_FIELDS = {
    "case_id",
    "time",
    "agents",
    "kind",
    "severity",
    "strategy",
    "winner",
    "confidence_bp",
    "escalated",
    "duration_ms",
}


def settled() -> Case:
    return decide_case([pos("a", 1200.5, 0.9), pos("b", 800, 0.2)], duration_ms=7)


def escalated() -> Case:
    return decide_case([pos("a", 1200.5, 0.6), pos("b", 800, 0.6)], duration_ms=9)


def merged() -> Case:
    return decide_case([pos("a", {"total": 10.25}), pos("b", {"currency": "EUR"})])


def agreed() -> Case:
    return decide_case([pos("a", 0.5, 0.8), pos("b", 0.5)])


def events(case: Case, org: Any = None) -> dict[str, dict[str, Any]]:
    return dict(case_events(case, org))


@pytest.mark.parametrize(
    ("make", "types"),
    [
        (settled, ["dispute_opened", "dispute_resolved"]),
        (escalated, ["dispute_opened", "dispute_escalated"]),
        (merged, ["outputs_merged"]),
        (agreed, ["consensus_recorded"]),
    ],
)
def test_each_outcome_writes_its_event_types_in_order(make: Any, types: list[str]) -> None:
    assert [event for event, _ in case_events(make(), None)] == types


@pytest.mark.parametrize("make", [settled, escalated, merged, agreed])
def test_every_record_carries_the_playbook_log_fields(make: Any) -> None:
    case = make()

    for _, record in case_events(case, None):
        log = record["log"]
        assert set(log) == LOG_FIELDS
        assert log["case_id"] == record["dispute_id"] == case.case_id
        assert log["time"] == "2026-11-29T12:00:00.000000Z"
        assert log["agents"] == ["a", "b"]
        assert log["duration_ms"] == case.duration_ms
        if case.decision is not None and case.decision.rung == "consensus":
            assert log["confidence_bp"] is None  # agreement: nobody decided, none invented
        else:
            assert isinstance(log["confidence_bp"], int)


def test_a_settled_records_log_names_the_winner_strategy_and_confidence() -> None:
    log = events(settled())["dispute_resolved"]["log"]

    assert log["kind"] == "numerical_inconsistency"
    assert log["severity"] == "high"
    assert log["strategy"] == "confidence"
    assert log["winner"] == "a"
    assert log["confidence_bp"] == 9000
    assert log["escalated"] is False


def test_an_escalated_records_log_has_no_winner_and_says_escalated() -> None:
    log = events(escalated())["dispute_escalated"]["log"]

    assert log["strategy"] is None
    assert log["winner"] is None
    assert log["confidence_bp"] == 0
    assert log["escalated"] is True


def test_agreement_logs_no_conflict_kind() -> None:
    log = events(agreed())["consensus_recorded"]["log"]

    assert (log["kind"], log["severity"], log["strategy"]) == (None, None, "consensus")


def test_the_opened_record_has_the_dcp_dispute_fields() -> None:
    case = settled()
    opened = events(case)["dispute_opened"]

    assert opened["dispute_type"] == "capability_conflict"
    assert opened["severity"] == "high"
    assert opened["status"] == "open"
    assert opened["current_escalation_level"] == "direct_negotiation"
    assert opened["subject"] == {"description": case.subject, "task_type": case.task_type}
    assert opened["complainant"]["agent_id"] == "a"
    assert [r["agent_id"] for r in opened["respondents"]] == ["b"]
    assert opened["conflict"]["kind"] == "numerical_inconsistency"
    assert opened["conflict"]["output_kind"] == "number"
    assert opened["conflict"]["strategy_chain"][0] == "source_verification"
    assert opened["opened_at"] == "2026-11-29T12:00:00.000000Z"


def test_parties_carry_their_principal_and_organization_from_the_org_chart() -> None:
    org = chart([member("a", principal="human:alice")])

    opened = events(settled(), org)["dispute_opened"]

    assert opened["complainant"] == {
        "agent_id": "a",
        "principal_id": "human:alice",
        "organization_id": "acme",
    }
    assert opened["respondents"] == [
        {"agent_id": "b", "principal_id": "unknown", "organization_id": "unknown"}
    ]


def test_the_resolved_record_names_the_decision_and_each_dissent() -> None:
    case = settled()
    resolved = events(case)["dispute_resolved"]

    assert case.decision is not None
    assert resolved["resolution_id"] == case.decision.resolution_id
    assert resolved["resolution_level"] == "direct_negotiation"
    assert resolved["rung"] == "confidence"
    assert resolved["winner"] == "a"
    assert resolved["winners"] == ["a"]
    assert resolved["answer_hash"] == answer_hash(1200.5)
    [dissent] = resolved["dissent"]
    assert dissent["dissent_id"] == case.dissent[0].dissent_id
    assert dissent["agent_id"] == "b"
    assert dissent["reasoning"] == case.dissent[0].reasoning
    assert dissent["strategy"] == "confidence"
    assert dissent["created_at"] == "2026-11-29T12:00:00.000000Z"
    assert [a["rung"] for a in resolved["attempts"]] == ["source_verification", "confidence"]


def test_the_escalated_record_says_from_where_to_where_and_why() -> None:
    escalation = events(escalated())["dispute_escalated"]

    assert escalation["from_level"] == "direct_negotiation"
    assert escalation["to_level"] == "contextual_arbitration"
    assert escalation["next_step"] == "arbitration"
    assert escalation["reason"] == "no tier-1 rung could decide"
    assert len(escalation["strategies_tried"]) == 4


def test_the_merged_record_carries_the_merged_output_and_its_provenance() -> None:
    record = events(merged())["outputs_merged"]

    assert record["merged"] == {"total": {"$decimal": "10.25"}, "currency": "EUR"}
    assert record["provenance"] == {"total": "a", "currency": "b"}


def test_floats_in_outputs_appear_as_decimal_strings_and_confidences_as_basis_points() -> None:
    opened = events(settled())["dispute_opened"]
    consensus = events(agreed())["consensus_recorded"]

    assert opened["positions"][0]["answer"] == {"$decimal": "1200.5"}
    assert opened["positions"][0]["confidence_bp"] == 9000
    assert opened["positions"][1]["answer"] == 800
    assert consensus["answer"] == {"$decimal": "0.5"}
    assert consensus["positions"][1]["confidence_bp"] is None


def test_positions_list_their_evidence_hashes_sources_and_assumptions() -> None:
    proof = Evidence.of("log", {"line": 12})
    case = decide_case(
        [
            pos("a", 1, 0.9, evidence=[proof], sources=["erp"], assumptions=["gross"]),
            pos("b", 2, 0.1),
        ]
    )

    first = events(case)["dispute_opened"]["positions"][0]

    assert first["evidence"] == [proof.content_hash]
    assert first["sources"] == ["erp"]
    assert first["assumptions"] == ["gross"]


@pytest.mark.parametrize("make", [settled, escalated, merged, agreed])
def test_every_record_is_canonical_json_signable(make: Any) -> None:
    for _, record in case_events(make(), None):
        assert canonical_bytes(record)


finite = st.floats(allow_nan=False, allow_infinity=False, width=64)
leaf = st.one_of(st.integers(-(2**53) + 1, 2**53 - 1), finite, st.text(max_size=8), st.booleans())
structured = st.dictionaries(
    st.sampled_from(["total", "tax", "lines", "note"]),
    st.one_of(leaf, st.lists(leaf, max_size=3), st.dictionaries(st.sampled_from("xy"), leaf)),
    min_size=1,
    max_size=3,
)


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.lists(st.one_of(finite, st.integers(-(10**9), 10**9)), min_size=1, max_size=4),
        st.lists(structured, min_size=1, max_size=4),
    ),
    st.lists(st.none() | st.floats(0, 1), min_size=4, max_size=4),
)
def test_records_of_any_outputs_are_canonical_json_signable(
    outputs: list[Any], confidences: list[float | None]
) -> None:
    positions = [
        Position(agent=f"a{i}", output=output, confidence=c)
        for i, (output, c) in enumerate(zip(outputs, confidences, strict=False))
    ]

    for _, record in case_events(decide_case(positions), None):
        assert canonical_bytes(record)
