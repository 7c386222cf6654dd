"""Witness URLs receive every new signed checkpoint as JSON, after the commit; a witness that
fails is logged and undoes nothing."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import httpx
import pytest

from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.ledger import Ledger
from accord.ledger.anchor import read_checkpoint_file
from accord.ledger.witness import witnesses_from_settings
from accord.store import open_database

from .conftest import case_events


def _ledger(tmp_path: Path, clock: FrozenClock, transport: httpx.BaseTransport) -> Ledger:
    publish = witnesses_from_settings(
        ["https://witness.example/checkpoints", "http://127.0.0.1:9/w"],
        base_dir=tmp_path,
        source="accord.yaml",
        transport=transport,
    )
    db = open_database(f"sqlite:///{tmp_path / 'w.db'}")
    signer = Ed25519Signer.from_seed(b"\x05" * 32)
    return Ledger(db, signer, clock, checkpoint_every=2, on_checkpoint=publish)


def test_each_new_checkpoint_is_posted_to_every_witness_url_and_is_a_trusted_checkpoint(
    tmp_path: Path, frozen_clock: FrozenClock
) -> None:
    received: list[tuple[str, bytes]] = []

    def witness(request: httpx.Request) -> httpx.Response:
        received.append((str(request.url), request.content))
        assert request.headers["content-type"] == "application/json"
        return httpx.Response(201)

    ledger = _ledger(tmp_path, frozen_clock, httpx.MockTransport(witness))
    ledger.append_many(case_events(4))

    assert [url for url, _ in received] == [
        "https://witness.example/checkpoints",
        "http://127.0.0.1:9/w",
    ] * 2
    sizes = [json.loads(body)["tree_size"] for _, body in received]
    assert sizes == [2, 2, 4, 4]
    kept = tmp_path / "kept.json"
    kept.write_bytes(received[-1][1])
    anchor = read_checkpoint_file(kept)
    assert anchor.tree_size == 4
    ledger.db.dispose()


def test_a_witness_that_fails_is_logged_and_the_entries_stay_committed(
    tmp_path: Path, frozen_clock: FrozenClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="accord")
    ledger = _ledger(tmp_path, frozen_clock, httpx.MockTransport(lambda _: httpx.Response(503)))
    ledger.append_many(case_events(2))
    assert ledger.size() == 2
    assert "ledger.witness_failed" in caplog.text
    assert "witness.example" in caplog.text
    ledger.db.dispose()
