"""Run Alembic migrations programmatically from the packaged migration scripts."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, text

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_MIGRATION_LOCK_KEY = 0x6163636F7265  # distinct from the writer lock


def alembic_config() -> Config:
    """An Alembic config pointing at the packaged scripts (no alembic.ini needed)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    return cfg


def upgrade_to_head(engine: Engine, *, postgres: bool) -> None:
    """Upgrade the schema to head; on PostgreSQL concurrent callers wait for each other."""
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
