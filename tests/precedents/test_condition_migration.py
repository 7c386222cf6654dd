"""Migration 0020 rebuilds the condition index from the signed bundles as condition keys (R24)."""

from __future__ import annotations

from alembic import command
from sqlalchemy import select

from accord.crypto import Ed25519Signer
from accord.precedents import PrecedentSearch, PrecedentStore, verify_registry
from accord.store.database import Database
from accord.store.migrate import HEAD_REVISION, alembic_config, current_revisions
from accord.store.tables import precedent_conditions
from tests.precedents.conftest import Draft


def _conditions(db: Database) -> set[str]:
    with db.read() as conn:
        return set(conn.execute(select(precedent_conditions.c.condition)).scalars())


def _migrate(db: Database, revision: str, *, up: bool) -> None:
    cfg = alembic_config()
    with db.engine.connect() as conn:
        cfg.attributes["connection"] = conn
        (command.upgrade if up else command.downgrade)(cfg, revision)
        conn.commit()
        assert current_revisions(conn) == [revision]


def test_r24_a_registry_indexed_by_condition_text_is_reindexed_by_key_and_still_verifies(
    db: Database, store: PrecedentStore, draft: Draft, lead: Ed25519Signer
) -> None:
    bundle = store.add(draft(conditions=["Two  Agents", "night"], barred=["One-time Token"]), lead)
    _migrate(db, "0019_panel_resolution", up=False)
    assert _conditions(db) == {"Two  Agents", "night", "One-time Token"}
    _migrate(db, HEAD_REVISION, up=True)
    assert _conditions(db) == {"two agents", "night", "one-time token"}
    assert verify_registry(db, {lead.kid: lead.public_key}) == 1
    found = PrecedentSearch(db).search("resource_conflict", ["TWO agents"])
    assert [p.jurisprudence_id for p in found] == [bundle.jurisprudence_id]
