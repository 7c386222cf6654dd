"""The jurisprudence registry: signed, chained, written once, all or nothing."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.errors import AccordError
from accord.precedents import (
    JurisprudenceBundle,
    PrecedentNotFound,
    PrecedentRefused,
    PrecedentStore,
    verify_bundle,
)
from accord.store import Database, open_database
from accord.store.tables import (
    precedent_bundles,
    precedent_conditions,
    precedent_supersessions,
    precedent_types,
)
from tests.precedents.conftest import Draft

UNKNOWN = "jur:019ad0f4-9999-7000-8000-000000000009"
REGISTRY = (precedent_bundles, precedent_types, precedent_conditions, precedent_supersessions)


def _counts(db: Database) -> list[int]:
    with db.read() as conn:
        return [conn.execute(select(func.count()).select_from(t)).scalar_one() for t in REGISTRY]


def _document(db: Database, jid: str) -> str:
    with db.read() as conn:
        document: str = conn.execute(
            select(precedent_bundles.c.document).where(precedent_bundles.c.jurisprudence_id == jid)
        ).scalar_one()
    return document


def test_r23_stored_bundle_reads_back_signed_and_verifies(
    store: PrecedentStore, draft: Draft, lead: Ed25519Signer
) -> None:
    added = store.add(draft(), lead)
    found = store.get(added.jurisprudence_id)
    assert found.bundle == added
    assert found.superseded_by == ()
    verify_bundle(found.bundle, lead.public_key)


def test_r23_registry_chains_each_bundle_to_the_one_before(
    store: PrecedentStore, draft: Draft, lead: Ed25519Signer
) -> None:
    first = store.add(draft(), lead)
    second, third = store.add_many([draft(), draft()], lead)
    assert (first.prev_hash, first.prev_hash_secondary) == ("GENESIS", "GENESIS")
    assert second.prev_hash == first.next_link().prev_hash
    assert second.prev_hash_secondary == first.next_link().prev_hash_secondary
    assert third.prev_hash == second.next_link().prev_hash
    assert store.count() == 3


def test_r26_superseding_keeps_the_old_bundle_byte_for_byte(
    store: PrecedentStore,
    db: Database,
    draft: Draft,
    lead: Ed25519Signer,
    frozen_clock: FrozenClock,
) -> None:
    old = store.add(draft(), lead)
    before = _document(db, old.jurisprudence_id)
    frozen_clock.advance(timedelta(hours=1))
    new = store.add(draft(supersedes=[old.jurisprudence_id]), lead)
    assert _document(db, old.jurisprudence_id) == before
    found = store.get(old.jurisprudence_id)
    assert found.superseded_by == (new.jurisprudence_id,)
    verify_bundle(found.bundle, lead.public_key)
    assert store.get(new.jurisprudence_id).superseded_by == ()


def test_r26_a_bundle_superseded_twice_lists_both_successors_oldest_first(
    store: PrecedentStore, draft: Draft, lead: Ed25519Signer, frozen_clock: FrozenClock
) -> None:
    old = store.add(draft(), lead)
    frozen_clock.advance(timedelta(minutes=1))
    first = store.add(draft(supersedes=[old.jurisprudence_id]), lead)
    frozen_clock.advance(timedelta(minutes=1))
    second = store.add(draft(supersedes=[old.jurisprudence_id]), lead)
    assert store.get(old.jurisprudence_id).superseded_by == (
        first.jurisprudence_id,
        second.jurisprudence_id,
    )


def test_r26_superseding_an_unknown_bundle_is_refused_and_nothing_is_written(
    store: PrecedentStore, db: Database, draft: Draft, lead: Ed25519Signer
) -> None:
    store.add(draft(), lead)
    before = _counts(db)
    with pytest.raises(PrecedentRefused) as caught:
        store.add_many([draft(), draft(supersedes=[UNKNOWN])], lead)
    error = caught.value
    assert error.code == "precedents.unknown_superseded"
    assert error.context["field"] == "drafts[1].supersedes[0]"
    assert error.context["requirement"] == "R26"
    assert _counts(db) == before


def test_r26_two_bundles_of_one_call_may_supersede_the_same_stored_bundle(
    store: PrecedentStore, draft: Draft, lead: Ed25519Signer
) -> None:
    stored = store.add(draft(), lead)
    newer, newest = store.add_many(
        [draft(supersedes=[stored.jurisprudence_id]), draft(supersedes=[stored.jurisprudence_id])],
        lead,
    )
    assert store.get(stored.jurisprudence_id).superseded_by == tuple(
        sorted([newer.jurisprudence_id, newest.jurisprudence_id])
    )


def test_r26_superseding_a_newer_bundle_is_refused(
    db: Database, draft: Draft, lead: Ed25519Signer, frozen_clock: FrozenClock
) -> None:
    later = FrozenClock(frozen_clock.now() + timedelta(days=1))
    newer = PrecedentStore(db, later).add(draft(), lead)
    with pytest.raises(PrecedentRefused) as caught:
        PrecedentStore(db, frozen_clock).add(draft(supersedes=[newer.jurisprudence_id]), lead)
    assert caught.value.code == "precedents.supersedes_newer"


def test_show_of_an_unknown_id_is_not_found_and_a_malformed_one_is_refused(
    store: PrecedentStore,
) -> None:
    with pytest.raises(PrecedentNotFound) as missing:
        store.get(UNKNOWN)
    assert missing.value.code == "precedents.not_found"
    with pytest.raises(PrecedentRefused) as malformed:
        store.get("jur:../../etc")
    assert malformed.value.context["field"] == "jurisprudence_id"


def test_a_registry_insert_is_one_transaction_on_the_index_tables_too(
    store: PrecedentStore, db: Database, draft: Draft, lead: Ed25519Signer
) -> None:
    store.add(
        draft(
            types=["resource_conflict", "capability_conflict"], conditions=["a", "b"], barred=["c"]
        ),
        lead,
    )
    assert _counts(db) == [1, 2, 6, 0]  # each condition indexed once per dispute type


def test_too_many_drafts_in_one_call_are_refused(
    store: PrecedentStore, draft: Draft, lead: Ed25519Signer
) -> None:
    with pytest.raises(AccordError) as caught:
        store.add_many([draft()] * 10_001, lead)
    assert caught.value.code == "precedents.too_many"


def test_r23_two_writers_racing_keep_one_unbroken_chain(
    database_url: str, draft: Draft, lead: Ed25519Signer, frozen_clock: FrozenClock
) -> None:
    databases = [open_database(database_url) for _ in range(2)]
    try:
        stores = [PrecedentStore(d, frozen_clock) for d in databases]

        def write(store: PrecedentStore) -> None:
            for _ in range(10):
                store.add(draft(), lead)

        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(write, stores))
        with databases[0].read() as conn:
            rows = conn.execute(
                select(
                    precedent_bundles.c.seq,
                    precedent_bundles.c.document,
                    precedent_bundles.c.bundle_hash,
                ).order_by(precedent_bundles.c.seq)
            ).all()
    finally:
        for d in databases:
            d.dispose()
    assert [r.seq for r in rows] == list(range(1, 21))
    previous = "GENESIS"
    for row in rows:
        bundle = JurisprudenceBundle.model_validate_json(row.document)
        assert bundle.prev_hash == previous
        previous = row.bundle_hash


def test_r24_planner_statistics_are_refreshed_each_time_the_registry_doubles(
    db: Database, draft: Draft, lead: Ed25519Signer, frozen_clock: FrozenClock
) -> None:
    store = PrecedentStore(db, frozen_clock, analyze_from=2)
    store.add(draft(), lead)
    assert not _has_statistics(db)
    store.add(draft(), lead)  # reaches 2
    assert _has_statistics(db)


def _has_statistics(db: Database) -> bool:
    with db.read() as conn:
        if db.is_sqlite:
            if not conn.exec_driver_sql(
                "SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'"
            ).first():
                return False
            query = "SELECT 1 FROM sqlite_stat1 WHERE tbl = 'precedent_bundles'"
        else:
            query = (
                "SELECT 1 FROM pg_stat_user_tables WHERE relname = 'precedent_bundles' "
                "AND schemaname = current_schema() AND last_analyze IS NOT NULL"
            )
        return conn.exec_driver_sql(query).first() is not None
