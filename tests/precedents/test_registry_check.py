"""verify_registry: the stored registry is what its signed bundles say, or it names the break."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import delete, insert, update

from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.crypto.record_signature import sign_record
from accord.errors import VerificationFailed
from accord.precedents import (
    GENESIS_LINK,
    JurisprudenceBundle,
    PrecedentSearch,
    PrecedentStore,
    build_bundle,
    verify_registry,
)
from accord.precedents.rows import RegistryRows
from accord.store import Database
from accord.store.tables import (
    precedent_bundles,
    precedent_conditions,
    precedent_supersessions,
    precedent_types,
)
from tests.precedents.conftest import Draft


@pytest.fixture
def registry(
    store: PrecedentStore, draft: Draft, lead: Ed25519Signer, frozen_clock: FrozenClock
) -> list[JurisprudenceBundle]:
    first = store.add(draft(barred=["night"]), lead)
    frozen_clock.advance(timedelta(minutes=1))
    return [first, *store.add_many([draft(supersedes=[first.jurisprudence_id]), draft()], lead)]


def _keys(lead: Ed25519Signer) -> dict[str, bytes]:
    return {lead.kid: lead.public_key}


def _broken(db: Database, lead: Ed25519Signer) -> VerificationFailed:
    with pytest.raises(VerificationFailed) as caught:
        verify_registry(db, _keys(lead))
    assert caught.value.code == "precedents.registry_broken"
    return caught.value


def test_r23_an_intact_registry_verifies(
    db: Database, registry: list[JurisprudenceBundle], lead: Ed25519Signer
) -> None:
    assert verify_registry(db, _keys(lead)) == 3


def test_r23_an_altered_holding_is_named_by_position(
    db: Database, registry: list[JurisprudenceBundle], lead: Ed25519Signer
) -> None:
    target = registry[1]
    altered = target.canonical().decode().replace("Split the GPU", "Give the GPU")
    with db.write() as conn:
        conn.execute(
            update(precedent_bundles)
            .where(precedent_bundles.c.jurisprudence_id == target.jurisprudence_id)
            .values(document=altered)
        )
    error = _broken(db, lead)
    assert error.context["seq"] == 2
    assert "signature does not verify" in error.message


def test_r23_a_bundle_stripped_of_its_record_type_no_longer_verifies(
    db: Database, registry: list[JurisprudenceBundle], lead: Ed25519Signer
) -> None:
    target = registry[0]
    stripped = target.model_validate({**target.document(), "record_type": None})
    assert "record_type" not in stripped.canonical().decode()
    with db.write() as conn:
        conn.execute(
            update(precedent_bundles)
            .where(precedent_bundles.c.jurisprudence_id == target.jurisprudence_id)
            .values(document=stripped.canonical().decode())
        )
    error = _broken(db, lead)
    assert error.context["seq"] == 1
    assert "signature does not verify" in error.message


def test_r23_a_stored_bundle_signed_before_record_type_existed_verifies_and_is_found(
    db: Database, draft: Draft, lead: Ed25519Signer
) -> None:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    built = build_bundle(draft(), signer=lead, at=at, link=GENESIS_LINK)
    body = built.signed_body()
    del body["record_type"], body["dcp_version"]
    legacy = JurisprudenceBundle.model_validate(
        {**body, "signature": sign_record(body, lead).model_dump()}
    )
    rows = RegistryRows()
    rows.add(legacy, 1)
    with db.write() as conn:
        for table, values in (
            (precedent_bundles, rows.bundles),
            (precedent_types, rows.types),
            (precedent_conditions, rows.conditions),
        ):
            conn.execute(insert(table), values)
    assert verify_registry(db, _keys(lead)) == 1
    (found,) = PrecedentSearch(db).search("resource_conflict", ["Shared_GPU"])
    assert found.bundle == legacy
    assert "record_type" not in found.to_json_dict()


def test_r23_a_bundle_signed_by_an_untrusted_key_is_named(
    db: Database, registry: list[JurisprudenceBundle], lead: Ed25519Signer
) -> None:
    with pytest.raises(VerificationFailed, match="not a trusted key"):
        verify_registry(db, {})


def test_r23_a_removed_bundle_breaks_the_chain(
    db: Database, registry: list[JurisprudenceBundle], lead: Ed25519Signer
) -> None:
    with db.write() as conn:
        conn.execute(delete(precedent_bundles).where(precedent_bundles.c.seq == 3))
        conn.execute(update(precedent_bundles).where(precedent_bundles.c.seq == 2).values(seq=3))
    error = _broken(db, lead)
    assert error.context["seq"] == 3


def test_r23_an_altered_ranking_column_is_named(
    db: Database, registry: list[JurisprudenceBundle], lead: Ed25519Signer
) -> None:
    with db.write() as conn:
        conn.execute(
            update(precedent_bundles).where(precedent_bundles.c.seq == 1).values(authority_rank=3)
        )
    assert "authority_rank" in _broken(db, lead).message


def test_r26_a_removed_supersession_edge_is_named(
    db: Database, registry: list[JurisprudenceBundle], lead: Ed25519Signer
) -> None:
    with db.write() as conn:
        conn.execute(delete(precedent_supersessions))
    error = _broken(db, lead)
    assert error.context["table"] == "precedent_supersessions"
    assert "missing" in error.message


def test_r24_a_planted_or_dropped_condition_row_is_named(
    db: Database, registry: list[JurisprudenceBundle], lead: Ed25519Signer
) -> None:
    first = registry[0]
    with db.write() as conn:
        conn.execute(
            delete(precedent_conditions).where(precedent_conditions.c.condition == "night")
        )
    assert "missing" in _broken(db, lead).message
    with db.write() as conn:
        conn.execute(
            insert(precedent_conditions).values(
                dispute_type="resource_conflict",
                applicability="inapplicable",
                condition="night",
                jurisprudence_id=first.jurisprudence_id,
                authority_rank=1,
                created_at=first.created_at,
                seq=1,
            )
        )
        conn.execute(
            insert(precedent_conditions).values(
                dispute_type="resource_conflict",
                applicability="applicable",
                condition="weekend",
                jurisprudence_id=first.jurisprudence_id,
                authority_rank=1,
                created_at=first.created_at,
                seq=1,
            )
        )
    assert "not derived from any bundle" in _broken(db, lead).message
