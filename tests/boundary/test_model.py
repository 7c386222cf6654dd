"""The boundary record: crux, position entries, tie-breakers, digest, size and receipts."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime

import pytest

from accord.boundary import (
    AMBIGUITY_UNRESOLVED,
    Boundary,
    BoundaryDraft,
    Crux,
    PositionEntry,
    ProbeAttempt,
    TieBreaker,
    digest_of,
    evidence_receipt,
)
from accord.boundary._json import encode, render, result_key
from accord.conflicts import Evidence
from accord.errors import ValidationError
from accord.values import from_signable

from ._builders import erp_hint, pos

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def test_digest_is_sha256_over_canonical_crux_sorted_agents_tie_breaker_sorted_consensus() -> None:
    crux = Crux(kind="field", path="total.currency", statement="billing says EUR; audit USD")
    tie = erp_hint(winner_by_result={"EUR": ("agent:b",), "USD": ("agent:a",)})
    consensus = ["vendor = ACME", "total.amount = 1200"]
    payload = {
        "crux": {"kind": "field", "path": "total.currency", "statement": crux.statement},
        "agents": ["agent:a", "agent:b"],
        "tie_breaker": {
            "probe": "erp.currency",
            "arguments": {"invoice": 4411, "field": "currency"},
            "description": tie.description,
            "winner_by_result": {"EUR": ["agent:b"], "USD": ["agent:a"]},
        },
        "consensus": ["total.amount = 1200", "vendor = ACME"],
    }
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    expected = hashlib.sha256(text.encode()).hexdigest()
    assert digest_of(crux, ["agent:b", "agent:a"], tie, consensus) == expected
    # order of agents and consensus does not matter; every part does
    assert digest_of(crux, ["agent:a", "agent:b"], tie, reversed(consensus)) == expected
    assert digest_of(crux, ["agent:a"], tie, consensus) != expected
    assert (
        digest_of(None, ["agent:a", "agent:b"], None, [])
        == hashlib.sha256(
            b'{"agents":["agent:a","agent:b"],"consensus":[],"crux":null,"tie_breaker":null}'
        ).hexdigest()
    )


def test_crux_needs_a_statement() -> None:
    with pytest.raises(ValidationError) as info:
        Crux(kind="field", path="a", statement="   ")
    assert info.value.code == "boundary.empty_crux"


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"arguments": {"rate": 1.5}}, "boundary.invalid_arguments"),
        ({"arguments": {"nested": [1, {"x": 0.25}]}}, "boundary.invalid_arguments"),
        ({"arguments": ["not", "a", "mapping"]}, "boundary.invalid_arguments"),
        ({"description": "  "}, "boundary.empty_description"),
        ({"probe": "Not A Name"}, "boundary.invalid_probe_name"),
        ({"probe": ""}, "boundary.invalid_probe_name"),
        ({"winner_by_result": {"EUR": ()}}, "boundary.invalid_result_mapping"),
        ({"winner_by_result": {"EUR": ("a", "a")}}, "boundary.invalid_result_mapping"),
    ],
)
def test_tie_breaker_validation(fields: dict[str, object], code: str) -> None:
    with pytest.raises(ValidationError) as info:
        erp_hint(**fields)
    assert info.value.code == code


def test_position_entry_encodes_floats_and_receipts_the_evidence() -> None:
    a = pos("agent:a", {"rate": 0.1, "n": 3}, evidence=[Evidence.of("doc", {"k": 1})])
    entry = PositionEntry.of(a)
    assert entry.conclusion == {"rate": {"$decimal": "0.1"}, "n": 3}
    assert entry.answer == {"rate": 0.1, "n": 3}
    assert entry.evidence_receipt.startswith("sha256:")
    other_evidence = pos("agent:a", {"rate": 0.1, "n": 3}, evidence=[Evidence.of("doc", {"k": 2})])
    other_answer = pos("agent:a", {"rate": 0.2, "n": 3}, evidence=[Evidence.of("doc", {"k": 1})])
    assert evidence_receipt(other_evidence) != entry.evidence_receipt
    assert evidence_receipt(other_answer) != entry.evidence_receipt


def test_json_helpers_round_trip_and_render() -> None:
    value = {"a": [1.0, 2, True, None, "x"], "b": {"c": 1e-07}}
    assert from_signable(encode(value)) == value
    with pytest.raises(ValidationError) as info:
        encode(float("nan"))
    assert info.value.code == "boundary.non_finite"
    with pytest.raises(ValidationError) as info:
        encode({1, 2})
    assert info.value.code == "boundary.invalid_value_type"
    assert render(0.5) == "0.5"
    assert render("  two   words ") == "two words"
    assert render("x" * 500).endswith("…")
    assert len(render("x" * 500)) == 120
    assert render({"b": 1, "a": 0.5}, None) == '{"a":{"$decimal":"0.5"},"b":1}'
    assert [result_key(v) for v in ("EUR", True, False, 1450, 0.1, [1])] == [
        "EUR",
        "true",
        "false",
        "1450",
        "0.1",
        "[1]",
    ]


def _draft(**fields: object) -> BoundaryDraft:
    base: dict[str, object] = {
        "case_id": "case:1",
        "subject": "s",
        "task_type": "t",
        "status": "pending",
        "crux": Crux(kind="data_point", statement="a says 1, b says 2"),
        "positions": (PositionEntry.of(pos("a", 1)), PositionEntry.of(pos("b", 2))),
        "tie_breaker": erp_hint(winner_by_result={"1": ("a",), "2": ("b",)}),
        "consensus": ("assumes: x",),
    }
    base.update(fields)
    return BoundaryDraft.model_validate(base)


def test_boundary_build_measures_itself_and_binds_the_digest() -> None:
    draft = _draft()
    boundary = Boundary.build(
        draft,
        boundary_id="bnd:" + "0" * 32,
        session_id="s",
        created_at=NOW,
        transcript_bytes=10_000,
    )
    assert boundary.digest == draft.digest
    from accord.crypto import canonical_bytes

    assert boundary.size_bytes == len(canonical_bytes(boundary.record()))
    assert boundary.budget_ratio == boundary.size_bytes / 10_000
    boundary.verify_digest()
    tampered = boundary.model_copy(update={"consensus": ("assumes: y",)})
    with pytest.raises(ValidationError) as info:
        tampered.verify_digest()
    assert info.value.code == "boundary.digest_mismatch"
    with pytest.raises(ValidationError) as info:
        Boundary.build(
            draft, boundary_id="bnd:" + "0" * 32, session_id="s", created_at=NOW, transcript_bytes=0
        )
    assert info.value.code == "boundary.invalid_transcript_size"


@pytest.mark.parametrize(
    "fields",
    [
        {"status": "ambiguous"},  # no marker, and a crux
        {"status": "pending", "tie_breaker": None},
        {"status": "human", "marker": AMBIGUITY_UNRESOLVED},
    ],
)
def test_draft_invariants(fields: dict[str, object]) -> None:
    with pytest.raises(Exception, match=r"boundary|marker|crux"):
        _draft(**fields)


def test_attempt_receipt_hash_covers_the_record() -> None:
    attempt = ProbeAttempt(
        attempt_id="att:1",
        boundary_id="bnd:1",
        case_id="case:1",
        probe="erp.currency",
        arguments={"invoice": 1},
        outcome="failed",
        error_code="boundary.probe_failed",
        attempted_at=NOW,
    ).sealed()
    from accord.crypto import content_hash

    assert attempt.receipt_hash == content_hash(attempt.record())
    assert attempt.model_copy(update={"outcome": "timeout"}).sealed().receipt_hash != (
        attempt.receipt_hash
    )


def test_tie_breaker_is_frozen_and_its_record_is_canonical() -> None:
    tie: TieBreaker = erp_hint(winner_by_result={"B": ("y", "x"), "A": ("z",)})
    assert list(tie.record()["winner_by_result"]) == ["A", "B"]  # type: ignore[arg-type]
    with pytest.raises(Exception, match="frozen"):
        tie.probe = "other"  # type: ignore[misc]
