"""Witness URLs receive every new signed checkpoint as JSON, after the commit; a witness that
fails is logged and undoes nothing."""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path

import httpx
import pytest

from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.ledger import Ledger
from accord.ledger.anchor import read_checkpoint_file
from accord.ledger.witness import Witnesses, witnesses_from_settings
from accord.store import open_database

from .conftest import case_events


def _ledger(
    tmp_path: Path, clock: FrozenClock, transport: httpx.BaseTransport
) -> tuple[Ledger, Witnesses]:
    publish = witnesses_from_settings(
        ["https://witness.example/checkpoints", "http://127.0.0.1:9/w"],
        base_dir=tmp_path,
        source="accord.yaml",
        transport=transport,
    )
    db = open_database(f"sqlite:///{tmp_path / 'w.db'}")
    signer = Ed25519Signer.from_seed(b"\x05" * 32)
    assert publish is not None
    return Ledger(db, signer, clock, checkpoint_every=2, on_checkpoint=publish), publish


def test_each_new_checkpoint_is_posted_to_every_witness_url_and_is_a_trusted_checkpoint(
    tmp_path: Path, frozen_clock: FrozenClock
) -> None:
    received: list[tuple[str, bytes]] = []

    def witness(request: httpx.Request) -> httpx.Response:
        received.append((str(request.url), request.content))
        assert request.headers["content-type"] == "application/json"
        return httpx.Response(201)

    ledger, witnesses = _ledger(tmp_path, frozen_clock, httpx.MockTransport(witness))
    ledger.append_many(case_events(4))
    witnesses.flush()

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
    ledger, witnesses = _ledger(
        tmp_path, frozen_clock, httpx.MockTransport(lambda _: httpx.Response(503))
    )
    ledger.append_many(case_events(2))
    witnesses.close()
    assert ledger.size() == 2
    assert "ledger.witness_failed" in caplog.text
    assert "witness.example" in caplog.text
    ledger.db.dispose()


def test_a_slow_witness_holds_no_commit_and_close_waits_for_its_post(
    tmp_path: Path, frozen_clock: FrozenClock
) -> None:
    answer = threading.Event()
    posted: list[int] = []

    def slow(request: httpx.Request) -> httpx.Response:
        assert answer.wait(10), "the test never let the witness answer"
        posted.append(json.loads(request.content)["tree_size"])
        return httpx.Response(201)

    ledger, witnesses = _ledger(tmp_path, frozen_clock, httpx.MockTransport(slow))
    ledger.append_many(case_events(2))  # signs checkpoint 2; its post waits on the witness

    assert ledger.size() == 2
    assert posted == []
    answer.set()
    witnesses.close()
    assert posted == [2, 2]  # both URLs, before close returned
    ledger.append_many(case_events(2))  # after close, a new checkpoint starts a new thread
    witnesses.close()
    assert posted == [2, 2, 4, 4]
    ledger.db.dispose()
