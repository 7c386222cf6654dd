"""``DriverQuery``: a Core statement rendered once per dialect and run on the driver's
cursor, answering as ``Connection.execute`` would, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Column, MetaData, String, Table, bindparam, event, select, update
from sqlalchemy.exc import IntegrityError

from accord.errors import StoreError
from accord.store import Database, open_database
from accord.store.driver_query import DriverQuery
from accord.store.tables import api_keys, cases

_BY_ROLE = DriverQuery(
    select(api_keys.c.key_id, api_keys.c.label)
    .where(api_keys.c.role == bindparam("role"))
    .where(api_keys.c.revoked_at.is_(None))
    .order_by(api_keys.c.key_id)
)
_LABEL = DriverQuery(select(api_keys.c.label).where(api_keys.c.key_id == bindparam("key")))
_RELABEL = DriverQuery(
    update(api_keys)
    .where(api_keys.c.key_id == bindparam("key"))
    .where(api_keys.c.role == "auditor")  # a value the statement fixes itself
    .values(label=bindparam("label"))
)
_SET_EVERY = DriverQuery(
    update(api_keys).where(api_keys.c.key_id == bindparam("key")),
    set_columns=["label", "role"],
)


_MISSING = Table("no_such_table", MetaData(), Column("name", String))
#: A statement the driver refuses on both engines (its table does not exist).
_FROM_A_MISSING_TABLE = DriverQuery(
    select(_MISSING.c.name).where(_MISSING.c.name == bindparam("name"))
)


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = open_database(database_url)
    with database.write() as conn:
        database.insert_rows(
            conn, api_keys, [_key("key:a", "auditor"), _key("key:b", "admin"), _key("key:c")]
        )
    yield database
    database.dispose()


def _key(key_id: str, role: str = "auditor", label: str = "") -> dict[str, object]:
    return {
        "key_id": key_id, "token_hash": f"hash:{key_id}", "role": role, "agent_id": None,
        "principal_id": None, "label": label or key_id, "created_at": "2026-01-01T00:00:00Z",
        "expires_at": None, "revoked_at": None,
    }


def test_rows_answer_every_matching_row_by_column_name_in_order(db: Database) -> None:
    with db.read() as conn:
        assert _BY_ROLE.rows(conn, {"role": "auditor"}) == [
            {"key_id": "key:a", "label": "key:a"},
            {"key_id": "key:c", "label": "key:c"},
        ]
        assert _BY_ROLE.rows(conn, {"role": "reviewer"}) == []


def test_rows_alone_answer_as_rows_do_without_a_transaction_of_the_callers(
    db: Database,
) -> None:
    assert _BY_ROLE.rows_alone(db, {"role": "auditor"}) == [
        {"key_id": "key:a", "label": "key:a"},
        {"key_id": "key:c", "label": "key:c"},
    ]
    assert _BY_ROLE.rows_alone(db, {"role": "reviewer"}) == []


def test_a_statement_read_alone_returns_its_connection_to_the_pool_even_when_it_fails(
    db: Database,
) -> None:
    moves: list[str] = []
    event.listen(db.engine, "checkout", lambda *_: moves.append("out"))
    event.listen(db.engine, "checkin", lambda *_: moves.append("in"))
    _BY_ROLE.rows_alone(db, {"role": "auditor"})
    with pytest.raises(StoreError):
        _FROM_A_MISSING_TABLE.rows_alone(db, {"name": "x"})
    assert moves == ["out", "in", "out", "in"]


def test_a_driver_error_of_a_statement_read_alone_is_a_store_error(db: Database) -> None:
    with pytest.raises(StoreError) as caught:
        _FROM_A_MISSING_TABLE.rows_alone(db, {"name": "x"})
    assert caught.value.code == "store.read_failed"
    assert _BY_ROLE.rows_alone(db, {"role": "admin"}) == [{"key_id": "key:b", "label": "key:b"}]


def test_first_scalar_and_scalars_answer_none_or_empty_when_nothing_matches(
    db: Database,
) -> None:
    with db.read() as conn:
        assert _BY_ROLE.first(conn, {"role": "admin"}) == {"key_id": "key:b", "label": "key:b"}
        assert _BY_ROLE.first(conn, {"role": "reviewer"}) is None
        assert _LABEL.scalar(conn, {"key": "key:c"}) == "key:c"
        assert _LABEL.scalar(conn, {"key": "key:z"}) is None
        assert _BY_ROLE.scalars(conn, {"role": "auditor"}) == ["key:a", "key:c"]


def test_an_update_answers_the_rows_it_matched_and_keeps_the_values_it_fixes(
    db: Database,
) -> None:
    with db.write() as conn:
        assert _RELABEL.execute(conn, {"key": "key:a", "label": "renamed"}) == 1
        assert _RELABEL.execute(conn, {"key": "key:b", "label": "not an auditor"}) == 0
    with db.read() as conn:
        assert _LABEL.scalar(conn, {"key": "key:a"}) == "renamed"
        assert _LABEL.scalar(conn, {"key": "key:b"}) == "key:b"


def test_an_update_sets_exactly_the_named_set_columns(db: Database) -> None:
    with db.write() as conn:
        assert _SET_EVERY.execute(conn, {"key": "key:c", "label": "x", "role": "admin"}) == 1
    with db.read() as conn:
        assert _BY_ROLE.rows(conn, {"role": "admin"}) == [
            {"key_id": "key:b", "label": "key:b"},
            {"key_id": "key:c", "label": "x"},
        ]


def test_a_missing_parameter_is_refused_before_the_driver_sees_it(db: Database) -> None:
    with db.read() as conn, pytest.raises(ValueError, match="no value for"):
        _RELABEL.execute(conn, {"key": "key:a"})


def test_a_driver_error_is_sqlalchemys_exception_and_the_write_rolls_back(db: Database) -> None:
    renaming_to_a_taken_key = DriverQuery(
        update(api_keys).where(api_keys.c.key_id == "key:a").values(key_id=bindparam("to"))
    )

    def rename() -> None:
        with db.write() as conn:
            _RELABEL.execute(conn, {"key": "key:c", "label": "lost"})
            renaming_to_a_taken_key.execute(conn, {"to": "key:b"})

    with pytest.raises(IntegrityError):
        rename()
    with db.read() as conn:
        assert _LABEL.scalar(conn, {"key": "key:c"}) == "key:c"


def test_a_column_the_driver_would_hand_over_unconverted_wrongly_is_refused_at_build() -> None:
    with pytest.raises(TypeError, match="escalated"):
        DriverQuery(select(cases.c.case_id, cases.c.escalated))
    with pytest.raises(TypeError, match="escalated"):
        DriverQuery(select(cases.c.case_id).where(cases.c.escalated == bindparam("e")))
