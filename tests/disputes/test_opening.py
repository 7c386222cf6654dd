"""Opening a dispute: first tier, deadline, evidence, precedents, flooding rules; a refused
filing writes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from accord.clock import FrozenClock, isoformat
from accord.crypto import sha256_prefixed
from accord.dcp07 import evidence_content_hash, verify_signed
from accord.dcp07.chain import verify_chain_link
from accord.deadlines import armed_for
from accord.deadlines.dispute_tier import DISPUTE_TIER
from accord.disputes import Disputes
from accord.errors import AccordError, ValidationError
from accord.ledger import Ledger
from accord.precedents import BundleDraft, Precedents
from accord.store import Database
from accord.store.tables import dcp_disputes, dcp_evidence_contents, deadlines, ledger_entries
from tests.disputes.conftest import File, evidence
from tests.precedents.conftest import draft_data


def _count(db: Database, table: object) -> int:
    with db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())  # type: ignore[arg-type]


def test_r02_r05_an_opened_dispute_starts_at_its_types_first_tier_signed_and_chained(
    disputes: Disputes, filing: File, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    opened = disputes.open(filing())
    record = opened.record
    assert record.dispute_id.startswith("disp:")
    assert (record.status.value, record.current_escalation_level.value) == (
        "open",
        "direct_negotiation",
    )
    assert [p.agent_id for p in record.parties] == ["agent-a", "agent-b"]
    assert [t.event for t in record.timeline] == ["dispute_opened"]
    verify_signed(record, ledger.signer.public_key)
    verify_chain_link(record, None)  # the first entry of an empty ledger
    entry = ledger.get(opened.ledger_seqs[0])
    assert entry.event_type == "dispute_opened"
    assert entry.record["dispute_record"]["dispute_id"] == record.dispute_id
    directive = disputes.open(filing(dispute_type="directive_conflict"))
    assert directive.tier == "contextual_arbitration"


def test_r03_r42_opening_arms_the_first_tier_deadline_by_severity(
    disputes: Disputes, filing: File, db: Database, frozen_clock: FrozenClock
) -> None:
    for severity, span in (("low", 24 * 60), ("medium", 240), ("high", 60), ("critical", 15)):
        opened = disputes.open(filing(severity=severity))
        due = frozen_clock.now() + timedelta(minutes=span)
        assert opened.record.escalation_deadline == isoformat(due)
        with db.read() as conn:
            armed = armed_for(conn, DISPUTE_TIER, opened.dispute_id)
        assert armed is not None
        assert armed.due_at == due
        assert armed.tier == opened.tier


def test_r18_only_a_critical_dispute_may_start_at_human_appeal(
    disputes: Disputes, filing: File
) -> None:
    critical = disputes.open(filing(severity="critical", start_at_appeal=True))
    assert critical.tier == "human_appeal"
    with pytest.raises(ValidationError) as caught:
        disputes.open(filing(severity="high", start_at_appeal=True))
    assert caught.value.context["requirement"] == "R18"


@pytest.mark.parametrize(
    ("changes", "requirement"),
    [
        ({"dispute_type": "turf_war"}, "R1"),
        ({"severity": "urgent"}, "R3"),
        ({"respondents": []}, "R5"),
        ({"respondents": ["agent-a"]}, "R5"),
        ({"severity": "critical", "evidence": []}, "R34"),
        ({"evidence": [evidence(1, content_hash="sha256:" + "0" * 64)]}, "R33"),
    ],
)
def test_r01_r33_r34_a_refused_filing_names_its_rule_and_writes_nothing(
    disputes: Disputes, filing: File, db: Database, changes: dict[str, object], requirement: str
) -> None:
    with pytest.raises(AccordError) as caught:
        disputes.open(filing(**changes))
    assert caught.value.context["requirement"] == requirement
    for table in (dcp_disputes, ledger_entries, deadlines, dcp_evidence_contents):
        assert _count(db, table) == 0


def test_r33_evidence_is_content_addressed_and_a_matching_hash_is_accepted(
    disputes: Disputes, filing: File, db: Database
) -> None:
    given = evidence(1, content_hash=evidence_content_hash({"booked": 1}))
    first = disputes.open(filing(evidence=[given]))
    disputes.open(filing(evidence=[evidence(1)]))  # same content: stored once
    assert first.record.evidence[0].content_hash == given["content_hash"]
    assert _count(db, dcp_evidence_contents) == 1
    item = first.record.evidence[0]
    assert disputes.evidence_content(first.dispute_id, item.evidence_id) == {"booked": 1}


def test_r34_the_eleventh_filing_in_24_hours_is_refused(
    disputes: Disputes, filing: File, frozen_clock: FrozenClock, db: Database
) -> None:
    disputes.open_many([filing() for _ in range(10)])
    with pytest.raises(ValidationError) as caught:
        disputes.open(filing())
    assert (caught.value.code, caught.value.context["requirement"]) == ("dcp.rate_limited", "R34")
    assert _count(db, dcp_disputes) == 10
    disputes.open(filing(complainant="agent-c"))  # another filer is not limited
    frozen_clock.advance(timedelta(hours=24))
    disputes.open(filing())  # the window moved on


def test_r34_an_eleven_filing_batch_is_refused_whole(
    disputes: Disputes, filing: File, db: Database
) -> None:
    with pytest.raises(ValidationError):
        disputes.open_many([filing() for _ in range(11)])
    assert _count(db, dcp_disputes) == 0


def test_r24_opening_cites_the_matching_precedents(
    disputes: Disputes, filing: File, precedents: Precedents
) -> None:
    bundle = precedents.add(BundleDraft.model_validate(draft_data(conditions=["shared_gpu"])))
    precedents.add(BundleDraft.model_validate(draft_data(dispute_type="policy_conflict")))
    opened = disputes.open(filing(conditions=["shared_gpu"]))
    cited = opened.record.precedents_cited
    assert [c.jurisprudence_id for c in cited] == [bundle.jurisprudence_id]
    assert "Split the GPU by the hour." in cited[0].relevance
    assert disputes.open(filing(conditions=["other"])).record.precedents_cited == ()


def test_r24_a_filing_states_conditions_as_sentences_and_cites_what_matched(
    disputes: Disputes, filing: File, precedents: Precedents
) -> None:
    conditions = ["Two or more agents with equal priority", "No principal directive"]
    bundle = precedents.add(BundleDraft.model_validate(draft_data(conditions=conditions)))
    barred = precedents.add(
        BundleDraft.model_validate(draft_data(conditions=conditions, barred=["Night shift only"]))
    )
    opened = disputes.open(filing(conditions=["two or more agents   WITH equal priority"]))
    cited = opened.record.precedents_cited
    assert {c.jurisprudence_id for c in cited} == {bundle.jurisprudence_id, barred.jurisprudence_id}
    assert '(matches "Two or more agents with equal priority")' in cited[0].relevance
    stated = ["Two or more agents with equal priority", "night shift ONLY"]
    cited = disputes.open(filing(conditions=stated)).record.precedents_cited
    assert [c.jurisprudence_id for c in cited] == [bundle.jurisprudence_id]


@pytest.mark.parametrize("condition", ["   ", "two\nlines", "x" * 257])
def test_r24_a_condition_that_is_blank_multiline_or_too_long_is_refused_naming_the_field(
    disputes: Disputes, filing: File, condition: str
) -> None:
    with pytest.raises(ValidationError) as refused:
        disputes.open(filing(conditions=[condition]))
    assert "conditions" in str(refused.value)


@pytest.mark.parametrize(
    "content", [{"booked": 1}, "plain text", 42, [1, "two", None], {"x": 0.5}, b"\x00raw"]
)
def test_r33_stored_evidence_hashes_by_the_records_one_rule_and_rehashes_to_its_key(
    disputes: Disputes, filing: File, db: Database, content: object
) -> None:
    opened = disputes.open(filing(evidence=[evidence(1, content=content)]))
    item = opened.record.evidence[0]
    assert item.content_hash == evidence_content_hash(content)
    assert disputes.evidence_content(opened.dispute_id, item.evidence_id) == content
    with db.read() as conn:
        stored = conn.execute(select(dcp_evidence_contents.c.content)).scalar_one()
    if not isinstance(content, dict) or "x" not in content:  # float-free: canonical bytes
        assert sha256_prefixed(bytes(stored)) == item.content_hash


def test_a_refused_filing_of_a_batch_names_its_index(disputes: Disputes, filing: File) -> None:
    for bad in ({"subject": ""}, {"dispute_type": "turf_war"}):
        with pytest.raises(ValidationError) as caught:
            disputes.open_many([filing(), filing(**bad)])
        assert caught.value.context["index"] == 1
