"""Run Alembic migrations programmatically from the packaged migration scripts."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, inspect, text

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
#: The newest revision in ``migrations/versions`` (a test checks it against Alembic's head).
HEAD_REVISION = "0020_jurisprudence"
_MIGRATION_LOCK_KEY = 0x6163636F7265  # distinct from the writer lock


def alembic_config() -> Config:
    """An Alembic config pointing at the packaged scripts (no alembic.ini needed)."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    return cfg


def current_revisions(conn: Connection) -> list[str]:
    """The schema revisions recorded in ``alembic_version`` (empty for a new database)."""
    if not inspect(conn).has_table("alembic_version"):
        return []
    return sorted(conn.execute(text("SELECT version_num FROM alembic_version")).scalars())


def upgrade_to_head(engine: Engine, *, postgres: bool) -> None:
    """Upgrade the schema to head; on PostgreSQL concurrent callers wait for each other.

    A database already at head is recognized with two catalogue queries, without loading
    Alembic (about a fifth of the Python objects of a process that only settles cases);
    anything else, a branched version table included, is left to Alembic.
    """
    with engine.connect() as conn:
        at_head = current_revisions(conn) == [HEAD_REVISION]
        conn.rollback()
    if at_head:
        return
    from alembic import command

    cfg = alembic_config()
    with engine.connect() as conn:
        if postgres:
            conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _MIGRATION_LOCK_KEY})
            conn.commit()
        try:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
            conn.commit()
        finally:
            if postgres:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _MIGRATION_LOCK_KEY})
                conn.commit()
