"""``POST /api/v1/settle`` with a semantic comparator configured: its model is asked (off the
event loop) and paraphrased text answers settle as one answer, on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from litestar.testing import TestClient

from accord.api import ApiKeyStore, create_app
from accord.app import Accord
from accord.clock import FrozenClock
from tests.api.conftest import bearer
from tests.app.test_settle_api import PARAPHRASES, SEMANTIC_CONFIG


def test_paraphrased_answers_settle_as_one_over_http(
    database_url: str, tmp_path: Path, frozen_clock: FrozenClock
) -> None:
    config = tmp_path / "accord.yaml"
    config.write_text(SEMANTIC_CONFIG)
    accord = Accord.open(
        config, db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock
    )
    try:
        _, admin = ApiKeyStore(accord.ledger, accord.clock).create("admin")
        body = {"subject": "root cause", "positions": PARAPHRASES}
        with TestClient(create_app(accord, sweep_every=None)) as client:
            answer = client.post("/api/v1/settle", json=body, headers=bearer(admin))
        assert answer.status_code == 200, answer.text
        assert answer.json()["status"] == "no_conflict"
    finally:
        accord.close()
