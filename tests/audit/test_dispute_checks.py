"""The pure comparisons the dispute-table audit is built from."""

from __future__ import annotations

from accord.audit.disputes.checks import key_text, same_json
from accord.audit.disputes.dispute_rows import CONTENT_COLUMNS, _rehashes
from accord.audit.disputes.negotiation_rows import _same_instant, _same_model
from accord.audit.disputes.signed import signed_ledger
from accord.audit.disputes.tier_rows import _instant
from accord.crypto import canonical_bytes, sha256_prefixed
from accord.dcp07.evidence_check import evidence_content_hash
from accord.dcp07.negotiation import Acceptance


def test_a_json_column_equals_the_signed_value_once_parsed_and_garbage_never_does() -> None:
    assert same_json('{"b": 1, "a": [2]}', {"a": [2], "b": 1})
    assert not same_json('{"a": 1', {"a": 1})
    assert same_json(None, None)
    assert not same_json(None, {"a": 1})
    assert not same_json(7, 7)


def test_content_rehashes_by_bytes_or_by_the_json_rule_and_nothing_else() -> None:
    data = canonical_bytes({"booked": 1})
    assert _rehashes(data, sha256_prefixed(data))
    floats = b'{"booked":1.5}'
    assert _rehashes(floats, evidence_content_hash({"booked": 1.5}))
    assert not _rehashes(b"not json", evidence_content_hash({"booked": 1.5}))
    assert not _rehashes("text, not bytes", sha256_prefixed(b"text, not bytes"))
    size = CONTENT_COLUMNS["size"]
    assert size.expected("sha256:x", {"content": "not bytes"}) is None  # type: ignore[union-attr]


def test_instants_compare_by_moment_and_a_malformed_one_never_matches() -> None:
    assert _instant("2026-11-29T12:00:00Z", "2026-11-29T12:00:00.000000Z")
    assert not _instant("yesterday", "2026-11-29T12:00:00Z")
    assert _same_instant("2026-11-29T12:00:00.000000Z", "2026-11-29T12:00:00Z")
    assert not _same_instant("soon", "2026-11-29T12:00:00Z")


def test_a_stored_body_must_parse_as_the_model_the_signed_step_makes() -> None:
    fields = {"agent_id": "a", "proposal_id": "p", "accepted_at": "2026-11-29T12:00:00Z"}
    assert _same_model(
        '{"agent_id":"a","proposal_id":"p","accepted_at":"2026-11-29T12:00:00.000000Z"}',
        (Acceptance, fields),
    )
    assert not _same_model('{"agent_id":"b"}', (Acceptance, fields))


def test_records_without_a_dispute_record_or_before_the_opening_back_no_row() -> None:
    found = signed_ledger(
        [
            (1, "dispute_opened", {"protocol": "dcp-07", "dispute_id": "d", "details": {}}),
            (
                2,
                "dispute_escalated",
                {"protocol": "dcp-07", "dispute_id": "d", "dispute_record": {"timeline": [{}]}},
            ),
            (3, "dispute_opened", {"dispute_id": "settle-case", "log": {}}),
        ]
    )
    assert found.disputes["d"].opened_seq is None
    assert "settle-case" not in found.disputes
    assert key_text(("a", 1)) == "a/1"
