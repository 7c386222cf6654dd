"""Opening a database brings its schema to head, and an up-to-date one costs a single query."""

from __future__ import annotations

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from accord.store import open_database
from accord.store.database import Database
from accord.store.migrate import HEAD_REVISION, alembic_config, current_revisions


def test_the_recorded_head_is_the_newest_packaged_migration() -> None:
    assert ScriptDirectory.from_config(alembic_config()).get_current_head() == HEAD_REVISION


def test_a_new_database_is_migrated_to_head(database_url: str) -> None:
    db = open_database(database_url)
    try:
        with db.read() as conn:
            assert current_revisions(conn) == [HEAD_REVISION]
            assert inspect(conn).has_table("cases")
    finally:
        db.dispose()


def test_reopening_a_database_at_head_does_not_run_alembic(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    open_database(database_url).dispose()

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("alembic ran on a database already at head")

    monkeypatch.setattr(command, "upgrade", refuse)
    open_database(database_url).dispose()


def test_a_database_at_an_older_revision_is_upgraded(database_url: str) -> None:
    db = Database(database_url)
    try:
        cfg = alembic_config()
        with db.engine.connect() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0002_cases")
            conn.commit()
            assert current_revisions(conn) == ["0002_cases"]
        db.migrate()
        with db.read() as conn:
            assert current_revisions(conn) == [HEAD_REVISION]
            assert inspect(conn).has_table("boundaries")
    finally:
        db.dispose()
