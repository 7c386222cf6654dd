"""`Accord.open` wires database, keys and ledger with the documented precedence."""

from __future__ import annotations

from pathlib import Path

import pytest

from accord.app import Accord
from accord.clock import FrozenClock
from accord.errors import ConfigError, CryptoError, StoreError


def test_open_creates_a_service_key_and_a_working_ledger(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock
) -> None:
    accord = Accord.open(db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock)
    try:
        accord.ledger.append("dispute_opened", {"case": 1})
        report = accord.verify(workers=1)
        assert report.entries == 1
        assert accord.org is None
        assert [k.name for k in accord.keyring.list()] == ["service"]
    finally:
        accord.close()


def test_environment_variables_supply_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ACCORD_DB", f"sqlite:///{tmp_path / 'env.db'}")
    monkeypatch.setenv("ACCORD_KEYS", str(tmp_path / "env-keys"))
    accord = Accord.open()
    accord.close()
    assert (tmp_path / "env.db").exists()
    assert len(list((tmp_path / "env-keys").glob("service-*.pub.json"))) == 1


def test_an_encrypted_service_key_needs_the_passphrase(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ACCORD_KEY_PASSPHRASE", "s3cret passphrase")
    db = f"sqlite:///{tmp_path / 'a.db'}"
    Accord.open(db_url=db, keys_dir=tmp_path / "k").close()
    monkeypatch.delenv("ACCORD_KEY_PASSPHRASE")
    with pytest.raises(CryptoError):
        Accord.open(db_url=db, keys_dir=tmp_path / "k")


def test_an_unsupported_database_url_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as err:
        Accord.open(db_url="mysql://root@localhost/x", keys_dir=tmp_path / "k")
    assert err.value.code == "store.unsupported_dialect"
    with pytest.raises(StoreError) as bad:
        Accord.open(db_url="::not a url::", keys_dir=tmp_path / "k")
    assert bad.value.code == "store.bad_url"


def test_a_typo_in_a_strategy_setting_stops_open_instead_of_failing_each_escalation(
    tmp_path: Path,
) -> None:
    config = tmp_path / "accord.yaml"
    config.write_text(
        "conflict_resolution:\n  strategy: hybrid\n  hybrid: {escalate_on_ambiguity: maybe}\n"
    )
    with pytest.raises(ConfigError) as err:
        Accord.open(config, db_url=f"sqlite:///{tmp_path / 'a.db'}", keys_dir=tmp_path / "k")
    assert err.value.context["key_path"] == "conflict_resolution.hybrid.escalate_on_ambiguity"


def test_a_relative_sqlite_path_in_the_config_file_is_read_from_the_config_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "accord.yaml").write_text(
        "database: {url: 'sqlite:///data/accord.db'}\nkeys: {directory: keys}\n"
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.delenv("ACCORD_DB", raising=False)
    monkeypatch.delenv("ACCORD_KEYS", raising=False)
    accord = Accord.open(folder / "accord.yaml")
    accord.close()
    assert (folder / "data" / "accord.db").exists()
    assert (folder / "keys").is_dir()
    assert not (elsewhere / "data").exists()


def test_an_unreachable_postgresql_server_is_a_store_error_naming_the_url(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as err:
        Accord.open(
            db_url="postgresql+psycopg://postgres@127.0.0.1:9/none?connect_timeout=2",
            keys_dir=tmp_path / "k",
        )
    assert err.value.code == "store.unreachable"
    assert "127.0.0.1:9" in err.value.message
