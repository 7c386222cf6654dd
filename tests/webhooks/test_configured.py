"""``webhooks:`` in ``accord.yaml``: subscriptions synced when Accord opens, secrets read from
an environment variable or a file (never stored in the file), limits checked."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from accord.app import Accord
from accord.clock import FrozenClock
from accord.errors import ConfigError
from tests.e2e._support import write_config

TARGET = {"name": "ops", "url": "https://hooks.example/ops", "events": ["item.waiting"]}


def _open(
    tmp_path: Path,
    target: dict[str, Any],
    environ: dict[str, str],
    clock: FrozenClock | None = None,
) -> Accord:
    config = write_config(tmp_path, {"webhooks": {"subscriptions": [target]}})
    return Accord.open(
        config,
        db_url=f"sqlite:///{tmp_path / 'a.db'}",
        keys_dir=tmp_path / "keys",
        clock=clock or FrozenClock(),
        environ=environ,
    )


def test_a_configured_subscription_is_synced_with_its_secret_from_the_environment(
    tmp_path: Path,
) -> None:
    accord = _open(tmp_path, {**TARGET, "secret_env": "OPS_HOOK"}, {"OPS_HOOK": "s" * 32})
    try:
        (sub,) = accord.webhooks.subscriptions()
        assert (sub.subscription_id, sub.source, sub.events) == (
            "config:ops",
            "config",
            ("item.waiting",),
        )
    finally:
        accord.close()
    later = FrozenClock(datetime(2027, 1, 1, tzinfo=UTC))
    accord = _open(tmp_path, {**TARGET, "secret_env": "OPS_HOOK"}, {"OPS_HOOK": "s" * 32}, later)
    try:  # opened again unchanged: the row is kept as it was
        assert accord.webhooks.subscriptions() == [sub]
    finally:
        accord.close()
    (tmp_path / "hook.secret").write_text("f" * 32 + "\n", encoding="utf-8")
    accord = _open(tmp_path, {**TARGET, "name": "ops2", "secret_file": "hook.secret"}, {})
    try:
        assert [s.subscription_id for s in accord.webhooks.subscriptions()] == ["config:ops2"]
    finally:
        accord.close()


def test_a_missing_secret_is_a_config_error_naming_the_key_not_the_value(
    tmp_path: Path,
) -> None:
    with pytest.raises(ConfigError) as err:
        _open(tmp_path, {**TARGET, "secret_env": "OPS_HOOK"}, {})
    assert err.value.context["key_path"] == "webhooks.subscriptions[0].secret_env"


@pytest.mark.parametrize(
    ("change", "key"),
    [
        ({"url": "file:///etc/passwd", "secret_env": "X"}, "url"),
        ({"secret_env": "X", "secret_file": "y"}, ""),
        ({}, ""),
        ({"secret_env": "X", "events": ["item.later"]}, "events"),
    ],
)
def test_a_bad_subscription_is_refused_when_the_config_loads(
    tmp_path: Path, change: dict[str, Any], key: str
) -> None:
    with pytest.raises(ConfigError) as err:
        _open(tmp_path, {**TARGET, **change}, {"X": "x" * 32})
    expected = "webhooks.subscriptions[0]" + (f".{key}" if key else "")
    assert err.value.context["key_path"].startswith(expected)
