"""Flooding rules on filing (R33, R34): content-addressed evidence, a per-agent rate limit, a
filing score that raises the filer's bar, and evidence required for critical disputes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from accord.crypto import canonical_bytes, sha256_prefixed
from accord.dcp07 import (
    DisputeRecord,
    EvidenceItem,
    FilingPolicy,
    PastFiling,
    check_filing,
    evidence_bar,
    evidence_content_hash,
    filing_policy,
    filing_score,
    read_record,
    verified_evidence,
)
from accord.dcp07.vocabulary import Severity
from accord.errors import ValidationError
from tests.dcp07._records import dispute_document

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def item(content_hash: str) -> EvidenceItem:
    document: dict[str, Any] = {**dispute_document()["evidence"][0], "content_hash": content_hash}
    return EvidenceItem.model_validate(document)


def filing(severity: str = "medium", evidence: int = 2) -> DisputeRecord:
    document = dispute_document()
    document.update(severity=severity, evidence=document["evidence"][:evidence])
    return read_record(DisputeRecord, document)


def filed(hours_ago: float, *, lost: bool = False) -> PastFiling:
    return PastFiling(filed_at=NOW - timedelta(hours=hours_ago), resolved_against_filer=lost)


def test_r33_evidence_whose_content_matches_its_hash_is_accepted() -> None:
    content = {"intent": "write-lock", "window": [0, 12]}
    accepted = item(sha256_prefixed(canonical_bytes(content)))
    assert verified_evidence(accepted, content) is accepted
    document = b"%PDF-1.7 the signed contract"
    assert verified_evidence(item(sha256_prefixed(document)), document).content_hash == (
        evidence_content_hash(document)
    )


def test_r33_evidence_whose_content_does_not_match_its_hash_is_refused() -> None:
    claimed = item(sha256_prefixed(b"what was hashed"))
    with pytest.raises(ValidationError) as caught:
        verified_evidence(claimed, b"what was sent instead")
    error = caught.value
    assert (error.code, error.context["requirement"]) == ("dcp.evidence_hash_mismatch", "R33")
    assert error.context["evidence_id"] == claimed.evidence_id
    assert error.context["computed"] == sha256_prefixed(b"what was sent instead")


def test_r33_json_evidence_is_hashed_as_the_conflicts_room_hashes_it() -> None:
    assert evidence_content_hash({"b": 1, "a": [True, None]}) == sha256_prefixed(
        b'{"a":[true,null],"b":1}'
    )


def test_r34_ten_disputes_in_24_hours_are_allowed_and_the_eleventh_is_refused() -> None:
    nine = [filed(hours) for hours in range(1, 10)]
    check_filing(filing(), nine, now=NOW)
    ten = [*nine, filed(0.5)]
    with pytest.raises(ValidationError) as caught:
        check_filing(filing(), ten, now=NOW)
    error = caught.value
    assert (error.code, error.context["requirement"]) == ("dcp.rate_limited", "R34")
    assert error.context["filings_in_window"] == 10
    assert "10 disputes per 24 h" in error.message


def test_r34_filings_older_than_the_window_do_not_count() -> None:
    old = [filed(24 + hours) for hours in range(20)]
    check_filing(filing(), old, now=NOW)
    check_filing(filing(), [*old, *[filed(h) for h in range(1, 10)]], now=NOW)


def test_r34_the_rate_limit_is_configurable() -> None:
    policy = FilingPolicy(max_filings=2, window=timedelta(hours=1))
    check_filing(filing(), [filed(0.2), filed(2)], now=NOW, policy=policy)
    with pytest.raises(ValidationError, match="2 disputes per 1 h"):
        check_filing(filing(), [filed(0.2), filed(0.9)], now=NOW, policy=policy)


def test_r34_a_critical_dispute_needs_evidence_at_filing() -> None:
    check_filing(filing("critical", evidence=1), [], now=NOW)
    with pytest.raises(ValidationError) as caught:
        check_filing(filing("critical", evidence=0), [], now=NOW)
    assert (caught.value.code, caught.value.context["requirement"]) == (
        "dcp.critical_without_evidence",
        "R34",
    )
    check_filing(filing("high", evidence=0), [], now=NOW)


def test_r34_each_dispute_resolved_against_the_filer_raises_its_bar() -> None:
    history = [filed(100, lost=True), filed(200, lost=True), filed(300, lost=False)]
    assert filing_score(history) == 2
    check_filing(filing(evidence=2), history, now=NOW)
    with pytest.raises(ValidationError) as caught:
        check_filing(filing(evidence=1), history, now=NOW)
    error = caught.value
    assert (error.code, error.context["score"], error.context["required"]) == (
        "dcp.filing_bar",
        2,
        2,
    )
    with pytest.raises(ValidationError):
        check_filing(filing(evidence=2), [*history, filed(400, lost=True)], now=NOW)


def test_r34_the_bar_is_capped_and_a_critical_dispute_needs_at_least_its_minimum() -> None:
    policy = FilingPolicy(evidence_per_point=2, max_evidence_bar=3)
    assert [evidence_bar(score, Severity.LOW, policy) for score in range(4)] == [0, 2, 3, 3]
    assert evidence_bar(0, Severity.CRITICAL, policy) == 1
    assert evidence_bar(0, Severity.CRITICAL, FilingPolicy(critical_min_evidence=2)) == 2


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"max_filings": 0}, "max_filings"),
        ({"window": "PT0S"}, "window"),
        ({"max_filings": 2.0}, "max_filings"),
        ({"evidence_per_point": -1}, "evidence_per_point"),
        ({"max_filing": 3}, "max_filing"),
    ],
)
def test_r34_a_filing_policy_with_impossible_figures_is_refused_naming_the_field(
    settings: dict[str, Any], field: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        filing_policy(settings)
    assert (caught.value.context["requirement"], caught.value.context["field"]) == ("R34", field)


def test_r34_a_filing_policy_reads_from_configuration_values() -> None:
    policy = filing_policy({"max_filings": 3, "window": "PT6H"})
    assert (policy.max_filings, policy.window) == (3, timedelta(hours=6))
    assert filing_policy({}) == FilingPolicy()
