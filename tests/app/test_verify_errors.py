"""Every way ``Accord.verify`` fails names the entry or checkpoint and the check — on both
engines, with a stored checkpoint that is not JSON, an empty one, or a dropped table; and a
read-only Accord runs no application code."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from accord.app import Accord
from accord.clock import FrozenClock
from accord.errors import AccordError, ConfigError, StoreError, VerificationFailed
from accord.ledger.anchor import read_checkpoint_file, write_checkpoint_file
from accord.ledger.witness import witness_file

POSITIONS = [
    {"agent": "agent:a", "output": 100, "confidence": 0.9},
    {"agent": "agent:b", "output": 180, "confidence": 0.2},
]


@pytest.fixture
def accord(tmp_path: Path, database_url: str, frozen_clock: FrozenClock) -> Iterator[Accord]:
    opened = Accord.open(db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock)
    opened.settle("invoice total", POSITIONS)
    opened.settle("invoice total again", POSITIONS)
    yield opened
    opened.close()


def _execute(accord: Accord, *statements: str) -> None:
    """Raw SQL as an attacker would run it (autocommit on SQLite, committed on PostgreSQL)."""
    raw = accord.db.engine.raw_connection()
    try:
        cursor = raw.cursor()
        for statement in statements:
            cursor.execute(statement)
        raw.commit()
    finally:
        raw.close()


@pytest.mark.parametrize(
    ("body", "why"),
    [("not json", "not JSON"), ("{}", "no 'tree_size'"), ('"text"', "not a JSON object")],
)
def test_a_stored_checkpoint_that_is_not_a_record_names_its_tree_size(
    accord: Accord, body: str, why: str
) -> None:
    size = accord.ledger.checkpoint().tree_size
    hex_body = body.encode().hex()
    literal = f"X'{hex_body}'" if accord.db.is_sqlite else f"'\\x{hex_body}'::bytea"
    _execute(accord, f"UPDATE ledger_checkpoints SET body = {literal}")
    with pytest.raises(VerificationFailed) as err:
        accord.verify(workers=1)
    assert err.value.code == "ledger.bad_checkpoint"
    assert err.value.context["tree_size"] == size
    assert err.value.context["field"] == "body"
    assert why in err.value.message


@pytest.mark.parametrize(
    "table", ["ledger_checkpoints", "ledger_entries", "cases", "case_parties", "approval_items"]
)
def test_a_dropped_table_is_a_store_error_naming_it(accord: Accord, table: str) -> None:
    if accord.db.is_sqlite:
        _execute(accord, "PRAGMA foreign_keys=OFF", f"DROP TABLE {table}")
    else:
        _execute(accord, f"DROP TABLE {table} CASCADE")
    with pytest.raises(StoreError) as err:
        accord.verify(workers=1)
    assert err.value.code == "store.missing_table"
    assert err.value.context["table"] == table


def test_truncation_below_a_trusted_checkpoint_is_caught_by_the_library(
    accord: Accord, tmp_path: Path
) -> None:
    anchor = accord.ledger.checkpoint()
    write_checkpoint_file(tmp_path / "anchor.json", anchor)
    accord.settle("later", POSITIONS)
    trusted = read_checkpoint_file(tmp_path / "anchor.json")
    assert accord.verify(workers=1, trusted_checkpoint=trusted).entries > anchor.tree_size
    keep = anchor.tree_size - 2
    _execute(
        accord,
        f"DELETE FROM ledger_checkpoints WHERE tree_size > {keep}",
        f"DELETE FROM ledger_entries WHERE seq > {keep}",
    )
    with pytest.raises(VerificationFailed) as err:
        accord.verify(workers=1, cases=False, trusted_checkpoint=trusted)
    assert err.value.code == "ledger.truncated"
    assert err.value.context["missing_from"] == keep + 1


def test_configured_witness_folders_receive_checkpoints_relative_to_the_config(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock
) -> None:
    config = tmp_path / "accord.yaml"
    config.write_text("ledger:\n  checkpoint_every: 2\n  witnesses: [w1, w2]\n")
    accord = Accord.open(config, db_url=database_url, keys_dir=tmp_path / "k", clock=frozen_clock)
    try:
        accord.settle("invoice total", POSITIONS)
        first = accord.ledger.checkpoints()[0]
        for folder in ("w1", "w2"):
            assert read_checkpoint_file(witness_file(tmp_path / folder, first.tree_size)) == first
    finally:
        accord.close()


def test_a_witness_that_is_neither_a_folder_nor_an_http_url_is_a_config_error(
    tmp_path: Path,
) -> None:
    config = tmp_path / "accord.yaml"
    config.write_text("ledger:\n  witnesses: ['ftp://127.0.0.1/witness']\n")
    with pytest.raises(ConfigError) as err:
        Accord.open(config, db_url=f"sqlite:///{tmp_path / 'x.db'}", keys_dir=tmp_path / "k")
    assert err.value.code == "config.invalid"
    assert err.value.context["key_path"] == "ledger.witnesses[0]"


def test_a_read_only_accord_imports_no_probe_builds_no_model_and_refuses_to_write(
    tmp_path: Path, frozen_clock: FrozenClock
) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    Accord.open(db_url=url, keys_dir=tmp_path / "k", clock=frozen_clock).close()
    config = tmp_path / "accord.yaml"
    config.write_text(
        "boundary:\n  probes: {erp: 'no_such_module_anywhere:Probe'}\n"
        "model:\n  provider: openai_compatible\n  model: m\n"
        "  base_url: http://127.0.0.1:9\n  api_key_env: ACCORD_TEST_UNSET_KEY\n"
    )
    with pytest.raises(AccordError):  # a full open builds the model: its key is missing
        Accord.open(config, db_url=url, keys_dir=tmp_path / "k")
    reader = Accord.open(config, db_url=url, keys_dir=tmp_path / "k", read_only=True)
    try:
        assert reader.model is None
        assert reader.verify(workers=1).entries == 0
        with pytest.raises(AccordError) as probe:
            reader.probes.get("erp")
        assert probe.value.code == "accord.read_only"
        for attempt in (
            lambda: reader.settle("x", POSITIONS),
            reader.sweep,
            lambda: reader.close_session("s"),
            lambda: reader.park("disp:x", "agent:a", {}),
        ):
            with pytest.raises(AccordError) as refused:
                attempt()
            assert refused.value.code == "accord.read_only"
    finally:
        reader.close()
