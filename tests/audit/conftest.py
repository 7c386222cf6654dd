"""One populated database per engine for the whole module; each test tampers with it and
the rows it touched are put back afterwards (much faster than populating per test)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import Table, delete, insert, select

from accord.app import Accord
from accord.audit.tables import AUDITED_COLUMNS
from accord.clock import FrozenClock
from accord.store.tables import metadata
from tests.conftest import fresh_database_url

from ._populated import populate

AUDITED_TABLES: dict[str, Table] = {name: metadata.tables[name] for name in AUDITED_COLUMNS}


@dataclass
class Populated:
    """The populated database, the rows it started with, and how to put them back."""

    accord: Accord
    rows: dict[str, list[dict[str, Any]]]

    def restore(self, tables: set[str]) -> None:
        with self.accord.db.write() as conn:
            for name in tables:
                table = AUDITED_TABLES[name]
                conn.execute(delete(table))
                if self.rows[name]:
                    conn.execute(insert(table), self.rows[name])


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def populated(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Populated]:
    directory = tmp_path_factory.mktemp("populated")
    with fresh_database_url(request.param, directory, request) as url:
        clock = FrozenClock(datetime(2026, 11, 29, 12, 0, tzinfo=UTC))
        accord = populate(directory, url, clock)
        try:
            accord.verify(workers=1)
            with accord.db.read() as conn:
                rows = {
                    name: [
                        dict(r._mapping)
                        for r in conn.execute(select(table).order_by(*table.primary_key.columns))
                    ]
                    for name, table in AUDITED_TABLES.items()
                }
            yield Populated(accord, rows)
        finally:
            accord.close()
