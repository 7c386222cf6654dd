"""Appending signs, chains and persists events; reading gives back exactly what was signed."""

from __future__ import annotations

import hashlib

import pytest
from sqlalchemy import func, select

from accord.crypto import GENESIS, canonical_bytes
from accord.errors import CanonicalizationError, NotFound, ValidationError
from accord.ledger import Ledger, PreparedEvent, TrustRoot
from accord.store import Database
from accord.store.tables import ledger_entries

from .conftest import case_events


def row_count(db: Database) -> int:
    with db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(ledger_entries)).scalar_one())


def test_the_first_entry_links_to_genesis_and_the_next_to_its_hashes(ledger: Ledger) -> None:
    first = ledger.append("dispute_opened", {"case_id": "case:1"})
    second = ledger.append("dispute_resolved", {"case_id": "case:1", "winner": "agent:a"})
    assert (first.seq, first.prev_hash, first.prev_hash_secondary) == (1, GENESIS, GENESIS)
    full = first.canonical()
    assert second.prev_hash == "sha256:" + hashlib.sha256(full).hexdigest()
    assert second.prev_hash_secondary == "sha3-256:" + hashlib.sha3_256(full).hexdigest()
    assert first.entry_hash == second.prev_hash


def test_an_entry_reads_back_with_its_record_and_record_hash(ledger: Ledger) -> None:
    record = {"case_id": "case:7", "nested": {"z": [1, None, "ü"], "a": True}}
    ledger.append("dispute_opened", record)
    entry = ledger.get(1)
    assert entry.record == record
    assert entry.record_hash == "sha256:" + hashlib.sha256(canonical_bytes(record)).hexdigest()
    assert entry.signature.domain_sep == "DCP-DISPUTE-SIG-v2"
    assert entry.timestamp == "2026-11-29T12:00:00.000000Z"


def test_append_many_is_atomic_and_ordered(ledger: Ledger, db: Database) -> None:
    sealed = ledger.append_many(case_events(10))
    assert [s.seq for s in sealed] == list(range(1, 11))
    assert row_count(db) == 10
    assert [e.seq for e in ledger.entries()] == list(range(1, 11))
    assert [e.seq for e in ledger.tail(3)] == [8, 9, 10]
    assert ledger.size() == 10
    assert ledger.head().seq == 10
    assert sum(ledger.count_by_event_type().values()) == 10


def test_a_record_with_a_float_cannot_be_signed_and_nothing_is_written(
    ledger: Ledger, db: Database
) -> None:
    events = [("dispute_opened", {"ok": 1}), ("dispute_opened", {"confidence": 0.9})]
    with pytest.raises(CanonicalizationError) as err:
        ledger.append_many(events)
    assert err.value.code == "canonical.float"
    assert err.value.context["field"] == "record"
    assert err.value.context["index"] == 1
    assert row_count(db) == 0


@pytest.mark.parametrize(
    "record",
    [{"x": float("nan")}, {"x": float("inf")}, {"x": "\ud800"}, {1: "non-string key"}],
)
def test_records_that_are_not_canonical_json_are_refused(
    ledger: Ledger, db: Database, record: dict[object, object]
) -> None:
    with pytest.raises(CanonicalizationError):
        ledger.append("dispute_opened", record)  # type: ignore[arg-type]
    assert row_count(db) == 0


@pytest.mark.parametrize("event_type", ["", "Upper", "has space", "9starts", "x" * 65, None])
def test_a_malformed_event_type_is_refused_naming_the_field(
    ledger: Ledger, event_type: object
) -> None:
    with pytest.raises(ValidationError) as err:
        ledger.append(event_type, {"a": 1})  # type: ignore[arg-type]
    assert err.value.context["field"] == "event_type"


def test_a_record_that_is_not_a_mapping_is_refused(ledger: Ledger) -> None:
    with pytest.raises(ValidationError) as err:
        ledger.append("dispute_opened", ["not", "a", "mapping"])  # type: ignore[arg-type]
    assert err.value.code == "ledger.bad_record"


def test_a_missing_entry_is_reported_as_not_found(ledger: Ledger) -> None:
    with pytest.raises(NotFound):
        ledger.get(1)


def test_empty_append_many_writes_nothing(ledger: Ledger, db: Database) -> None:
    assert ledger.append_many([]) == []
    assert row_count(db) == 0


def test_a_bad_checkpoint_interval_is_refused(db: Database, signer, frozen_clock) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValidationError):
        Ledger(db, signer, frozen_clock, checkpoint_every=0)


def test_events_prepared_before_the_transaction_are_sealed_in_order_inside_it(
    ledger: Ledger, db: Database, trusted: TrustRoot
) -> None:
    first = ledger.prepare(case_events(3))
    second = ledger.prepare(case_events(5)[3:])
    assert row_count(db) == 0  # preparing writes nothing
    with db.write() as conn:
        sealed = ledger.append_prepared_within(conn, [*first, *second])
    assert [s.seq for s in sealed] == [1, 2, 3, 4, 5]
    assert [e.record["step"] for e in ledger.entries()] == [0, 1, 2, 3, 4]
    assert ledger.verify(trusted).entries == 5


def test_prepare_names_the_event_it_cannot_sign_and_touches_nothing(
    ledger: Ledger, db: Database
) -> None:
    with pytest.raises(CanonicalizationError) as err:
        ledger.prepare([("dispute_opened", {"ok": 1}), ("dispute_opened", {"gap": 0.5})])
    assert err.value.context["index"] == 1
    assert row_count(db) == 0


def test_only_what_prepare_made_can_be_sealed(ledger: Ledger, db: Database) -> None:
    with pytest.raises(TypeError, match=r"Ledger\.prepare"):
        PreparedEvent("dispute_opened", b'{"a":2.5}')
    with db.write() as conn, pytest.raises(ValidationError) as err:
        ledger.append_prepared_within(conn, [("Not A Type!", b'{"b":1, "a":2.5}')])  # type: ignore[list-item]
    assert err.value.code == "ledger.not_prepared"
    assert row_count(db) == 0
