"""Cross-chain consistency (R31): two parties' exported ledgers agree about one dispute, or the
one mismatch is named."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from accord.clock import FrozenClock
from accord.dcp07.cross_chain import (
    CrossChainMismatch,
    ExportedEntry,
    cross_check,
    entries_of,
    parse_exported_chain,
)
from accord.errors import ValidationError
from accord.ledger import Ledger
from accord.limits import Limits
from accord.store import Database, open_database
from tests.dcp07._records import (
    DISPUTE_ID,
    RESOLUTION_ID,
    dispute_document,
    resolution_document,
    signer_for,
)


@pytest.fixture
def ledgers(tmp_path: Path, frozen_clock: FrozenClock) -> Iterator[dict[str, Ledger]]:
    opened: list[Database] = []
    made = {}
    for party in ("a", "b"):
        db = open_database(f"sqlite:///{tmp_path / party}.db")
        opened.append(db)
        made[party] = Ledger(db, signer_for(f"service {party}"), frozen_clock)
    yield made
    for db in opened:
        db.dispose()


def export(ledger: Ledger) -> list[dict[str, Any]]:
    return [entry.to_json_dict() for entry in ledger.tail(1000)]


def record_dispute(
    ledger: Ledger,
    *,
    dispute: dict[str, Any] | None = None,
    resolution: dict[str, Any] | None = None,
) -> None:
    ledger.append("unrelated_event", {"note": "before the dispute"})
    ledger.append("dispute_opened", dispute or dispute_document())
    ledger.append("dispute_resolved", resolution or resolution_document())


def test_r31_records_nesting_the_dispute_and_resolution_are_read_too(
    ledgers: dict[str, Ledger],
) -> None:
    """The shape ``Accord.disputes`` signs: the §4 record and the §6 resolution inside."""
    for ledger in ledgers.values():
        event = {"protocol": "dcp-07", "dispute_id": DISPUTE_ID, "actor": "agent:x"}
        ledger.append("dispute_opened", {**event, "dispute_record": dispute_document()})
        ledger.append(
            "dispute_resolved",
            {
                **event,
                "details": {"resolution": resolution_document()},
                "dispute_record": dispute_document(),
            },
        )
    report = cross_check(chains(ledgers), DISPUTE_ID)
    assert report.evidence_compared == ("evd:1", "evd:2")
    assert report.resolution_id == RESOLUTION_ID


def chains(ledgers: dict[str, Ledger]) -> dict[str, list[ExportedEntry]]:
    return {party: entries_of(export(ledger), where=party) for party, ledger in ledgers.items()}


def test_r31_chains_agreeing_on_dispute_evidence_and_resolution_give_a_report(
    ledgers: dict[str, Ledger],
) -> None:
    for ledger in ledgers.values():
        record_dispute(ledger)
    report = cross_check(chains(ledgers))
    assert report.dispute_id == DISPUTE_ID
    assert report.parties == ("a", "b")
    assert report.entries == {"a": 2, "b": 2}
    assert report.evidence_compared == ("evd:1", "evd:2")
    assert report.resolution_id == RESOLUTION_ID
    assert report.resolution_hash.startswith("sha256:")


def test_r31_a_chain_without_the_dispute_is_named(ledgers: dict[str, Ledger]) -> None:
    record_dispute(ledgers["a"])
    ledgers["b"].append("unrelated_event", {"note": "nothing about the dispute"})
    with pytest.raises(CrossChainMismatch) as caught:
        cross_check(chains(ledgers), DISPUTE_ID)
    assert caught.value.context["check"] == "dispute_id"
    assert caught.value.context["party"] == "b"
    assert caught.value.context["requirement"] == "R31"


def test_r31_evidence_timestamps_that_differ_between_chains_are_a_mismatch(
    ledgers: dict[str, Ledger],
) -> None:
    record_dispute(ledgers["a"])
    altered = dispute_document()
    altered["evidence"][1]["submitted_at"] = "2026-03-01T10:02:00Z"
    record_dispute(ledgers["b"], dispute=altered)
    with pytest.raises(CrossChainMismatch) as caught:
        cross_check(chains(ledgers))
    context = caught.value.context
    assert (context["check"], context["party"]) == ("evidence", "b")
    assert context["field"] == "evidence[evd:2].submitted_at"
    assert (context["expected"], context["found"]) == (
        "2026-03-01T10:01:00Z",
        "2026-03-01T10:02:00Z",
    )


def test_r31_a_resolution_missing_from_one_chain_or_differing_is_a_mismatch(
    ledgers: dict[str, Ledger],
) -> None:
    record_dispute(ledgers["a"])
    ledgers["b"].append("dispute_opened", dispute_document())
    with pytest.raises(CrossChainMismatch) as missing:
        cross_check(chains(ledgers))
    assert (missing.value.context["check"], missing.value.context["party"]) == (
        "resolution",
        "b",
    )
    other = resolution_document()
    other["reasoning"] = "A different reasoning in b's copy."
    ledgers["b"].append("dispute_resolved", other)
    with pytest.raises(CrossChainMismatch) as differing:
        cross_check(chains(ledgers))
    assert differing.value.context["field"] == f"resolution[{RESOLUTION_ID}]"


def test_r31_an_export_whose_entries_do_not_link_is_refused(ledgers: dict[str, Ledger]) -> None:
    for ledger in ledgers.values():
        record_dispute(ledger)
    tampered = export(ledgers["b"])
    tampered[1]["record"]["severity"] = "low"  # entry 2 changed after entry 3 linked to it
    with pytest.raises(CrossChainMismatch) as caught:
        cross_check(
            {"a": entries_of(export(ledgers["a"]), where="a"), "b": entries_of(tampered, where="b")}
        )
    assert caught.value.context["check"] == "chain_link"
    assert caught.value.context["field"] == "seq 3.prev_hash"


def test_r31_an_export_that_is_not_an_array_of_entries_is_refused_naming_the_field() -> None:
    with pytest.raises(ValidationError) as not_array:
        parse_exported_chain('{"seq": 1}', Limits(), where="a.json")
    assert not_array.value.code == "dcp.chain_export_invalid"
    with pytest.raises(ValidationError) as bad_entry:
        parse_exported_chain('[{"seq": 0}]', Limits(), where="a.json")
    assert bad_entry.value.context["field"].startswith("a.json[0]")
    with pytest.raises(ValidationError) as one_chain:
        cross_check({"a": []})
    assert one_chain.value.code == "dcp.cross_chain_parties"


def test_r31_accord_disputes_cross_check_reports_agreement_and_names_a_mismatch(
    ledgers: dict[str, Ledger], tmp_path: Path
) -> None:
    from accord.cli.main import app

    for ledger in ledgers.values():
        record_dispute(ledger)
    files = []
    for party, ledger in ledgers.items():
        path = tmp_path / f"{party}.json"
        path.write_text(json.dumps(export(ledger)), encoding="utf-8")
        files.append(str(path))
    runner = CliRunner()
    agreed = runner.invoke(app, ["disputes", "cross-check", *files, "--json"])
    assert agreed.exit_code == 0, agreed.output
    assert json.loads(agreed.output)["resolution_id"] == RESOLUTION_ID
    ledgers["b"].append("dispute_resolved", {**resolution_document(), "reasoning": "Other."})
    Path(files[1]).write_text(json.dumps(export(ledgers["b"])), encoding="utf-8")
    refused = runner.invoke(app, ["disputes", "cross-check", *files])
    assert refused.exit_code == 1
    assert "dcp.cross_chain_mismatch" in refused.output
