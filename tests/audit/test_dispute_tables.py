"""The DCP-07 dispute tables under ``verify``: a dispute's stored §4 record rewritten
consistently (document and every column rebuilt the way the store writes them), a field at a
time, fails naming the dispute; evidence content, a vote's reasoning and a stored resolution
are checked against what was signed; nominations before a panel is seated are accepted, but
only for a signed dispute; the report counts the dispute rows."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import Connection, insert, update

from accord.audit.disputes import DISPUTE_TABLES
from accord.dcp07.dispute_record import DisputeRecord
from accord.errors import VerificationFailed
from accord.store.tables import (
    compliance_actions,
    dcp_disputes,
    dcp_evidence_contents,
    dispute_nominations,
    dispute_panel_votes,
    dispute_panels,
)

from .conftest import Populated
from .test_descriptions import leaf_paths
from .test_tamper_matrix import NoRewrite, _rewrite, _thaw

#: §4 fields no single-field rewrite of the populated database can alter while the record
#: stays valid (its own invariants tie them to other fields), and why. Each test proves its
#: entries still hold, so a field that becomes rewritable is tampered with.
NO_SINGLE_FIELD_REWRITE = {
    "dcp_version": "a literal: 2.0 is the only version a record may carry",
    "record_type": "a literal: dispute_record",
    "complainant.agent_id": "every populated dispute is between billing and audit: a mutated "
    "id is not an identifier, and the other party's makes the complainant a respondent (R5)",
    "subject.resource_identifiers": "no populated filing names resource identifiers",
    "subject.related_intent_ids": "no populated filing names related intents",
    "subject.related_policy_ids": "no populated filing names related policies",
    "evidence.submitted_by": "each dispute's first evidence item is its complainant's "
    "(billing's); a mutated id is not an identifier, and an outsider's is refused (R5)",
    "signature.alg": "a literal: ed25519",
    "signature.domain_sep": "a literal: DCP-DISPUTE-SIG-v2",
}


def _failure(populated: Populated) -> VerificationFailed:
    with pytest.raises(VerificationFailed) as caught:
        populated.accord.verify(workers=1)
    return caught.value


def _rows(populated: Populated, table: str) -> list[dict[str, Any]]:
    return populated.rows[table]


def _row_of(record: DisputeRecord, stored: dict[str, Any]) -> dict[str, Any]:
    """The dispute row rebuilt from ``record`` the way ``protocol/rows.py`` writes it."""
    return {
        **stored,
        "dispute_type": record.dispute_type.value,
        "severity": record.severity.value,
        "status": record.status.value,
        "tier": record.current_escalation_level.value,
        "complainant_id": record.complainant.agent_id,
        "opened_at": record.opened_at,
        "escalation_deadline": record.escalation_deadline,
        "document": json.dumps(record.model_dump(mode="json"), sort_keys=True),
    }


@pytest.mark.parametrize("path", list(leaf_paths(DisputeRecord)))
def test_every_field_of_a_dispute_record_rewritten_consistently_fails_verification(
    populated: Populated, path: str
) -> None:
    stored = _rows(populated, "dcp_disputes")
    dumped = [_thaw(json.loads(r["document"])) for r in stored]
    if path in NO_SINGLE_FIELD_REWRITE:
        with pytest.raises(NoRewrite):
            _rewrite(dumped, path, DisputeRecord.model_validate)
        return
    index, forged = _rewrite(dumped, path, DisputeRecord.model_validate)
    row = stored[index]
    try:
        with populated.accord.db.write() as conn:
            conn.execute(
                update(dcp_disputes)
                .where(dcp_disputes.c.dispute_id == row["dispute_id"])
                .values(_row_of(forged, row))
            )
        error = _failure(populated)
    finally:
        populated.restore({"dcp_disputes"})
    assert error.context["table"] == "dcp_disputes"
    assert error.context["key"] == row["dispute_id"]


def _rewrite_rows(
    populated: Populated, table: str, change: Any, values: dict[str, Any]
) -> VerificationFailed:
    try:
        with populated.accord.db.write() as conn:
            conn.execute(update(DISPUTE_TABLES[table].table).where(change).values(values))
        return _failure(populated)
    finally:
        populated.restore({table})


def test_evidence_content_that_no_longer_hashes_to_its_signed_hash_is_named(
    populated: Populated,
) -> None:
    row = _rows(populated, "dcp_evidence_contents")[0]
    error = _rewrite_rows(
        populated,
        "dcp_evidence_contents",
        dcp_evidence_contents.c.content_hash == row["content_hash"],
        {"content": b'{"booked":99}', "size": len(b'{"booked":99}')},
    )
    assert error.code == "dcp_evidence_contents.mismatch"
    assert (error.context["key"], error.context["column"]) == (row["content_hash"], "content")


def test_a_vote_whose_reasoning_was_rewritten_is_named_against_its_signed_hash(
    populated: Populated,
) -> None:
    vote = _rows(populated, "dispute_panel_votes")[0]
    error = _rewrite_rows(
        populated,
        "dispute_panel_votes",
        (dispute_panel_votes.c.panel_id == vote["panel_id"])
        & (dispute_panel_votes.c.agent_id == vote["agent_id"]),
        {"reasoning": "I always agreed with billing"},
    )
    assert error.code == "dispute_panel_votes.mismatch"
    assert error.context["column"] == "reasoning"
    assert error.context["key"] == f"{vote['panel_id']}/{vote['agent_id']}"


def test_a_stored_resolution_rewritten_is_named(populated: Populated) -> None:
    row = next(r for r in _rows(populated, "dcp_disputes") if r["resolution"])
    resolution = json.loads(row["resolution"])
    resolution["outcome"]["description"] = "audit keeps the GPU"
    error = _rewrite_rows(
        populated,
        "dcp_disputes",
        dcp_disputes.c.dispute_id == row["dispute_id"],
        {"resolution": json.dumps(resolution)},
    )
    assert error.code == "dcp_disputes.mismatch"
    assert error.context["column"] == "resolution"


def _insert(conn: Connection, table: Any, row: dict[str, Any]) -> None:
    conn.execute(insert(table).values(row))


def test_nominations_before_the_panel_is_seated_verify_but_only_for_a_signed_dispute(
    populated: Populated,
) -> None:
    waiting = {r["dispute_id"] for r in _rows(populated, "dispute_nominations")} - {
        r["dispute_id"] for r in _rows(populated, "dispute_panels")
    }
    assert waiting, "the populated database has a dispute with nominees and no panel"
    nomination = next(
        r for r in _rows(populated, "dispute_nominations") if r["dispute_id"] in waiting
    )
    try:
        with populated.accord.db.write() as conn:
            _insert(conn, dispute_nominations, {**nomination, "agent_id": "arb:02"})
        populated.accord.verify(workers=1)  # not signed yet by design: accepted
        with populated.accord.db.write() as conn:
            last = "1" if nomination["dispute_id"].endswith("0") else "0"  # another id
            stranger = {**nomination, "dispute_id": nomination["dispute_id"][:-1] + last}
            _insert(conn, dispute_nominations, stranger)
        error = _failure(populated)
    finally:
        populated.restore({"dispute_nominations"})
    assert error.code == "dispute_nominations.unbacked"


def test_the_report_counts_the_dispute_rows_it_checked(populated: Populated) -> None:
    report = populated.accord.verify(workers=1)
    assert report.disputes == len(_rows(populated, "dcp_disputes")) > 0


def test_a_failed_action_passed_off_as_stayed_under_a_new_id_is_caught_by_its_signed_check(
    populated: Populated,
) -> None:
    # its resolution was stayed, so "stayed" is what an action no check names must say
    failed = next(r for r in _rows(populated, "compliance_actions") if r["state"] == "failed")
    reset = {
        "action_id": failed["action_id"][:-1] + ("0" if failed["action_id"][-1] != "0" else "1"),
        "state": "stayed",
        "settled_at": None,
        "ledger_seq": None,
        "failure": None,
    }
    error = _rewrite_rows(
        populated,
        "compliance_actions",
        compliance_actions.c.action_id == failed["action_id"],
        reset,
    )
    assert error.code == "compliance_actions.missing_row"
    assert error.context["key"] == failed["action_id"]


def _proposed_panel(populated: Populated) -> dict[str, Any]:
    return next(
        r
        for r in _rows(populated, "dispute_panels")
        if json.loads(r["question"])["proposal"].get("proposed_by")
    )


def test_a_proposals_actions_rewritten_in_the_panel_row_fail_verification(
    populated: Populated,
) -> None:
    row = _proposed_panel(populated)
    question = json.loads(row["question"])
    question["proposal"]["actions_required"][0]["action"] = "nothing at all"
    error = _rewrite_rows(
        populated,
        "dispute_panels",
        dispute_panels.c.panel_id == row["panel_id"],
        {"question": json.dumps(question)},
    )
    assert error.code == "dispute_panels.mismatch"
    assert (error.context["key"], error.context["column"]) == (row["panel_id"], "question")


def test_a_votes_proposal_hash_rewritten_in_its_row_fails_verification(
    populated: Populated,
) -> None:
    panel = _proposed_panel(populated)
    vote = next(
        r for r in _rows(populated, "dispute_panel_votes") if r["panel_id"] == panel["panel_id"]
    )
    signed = json.loads(vote["vote"])
    signed["resolution_hash"] = "sha256:" + "0" * 64
    error = _rewrite_rows(
        populated,
        "dispute_panel_votes",
        (dispute_panel_votes.c.panel_id == vote["panel_id"])
        & (dispute_panel_votes.c.agent_id == vote["agent_id"]),
        {"vote": json.dumps(signed)},
    )
    assert error.code == "dispute_panel_votes.mismatch"
    assert error.context["column"] == "vote"
