"""``ProcessRefits``: a due reliability refit runs in a worker process that reads the history
from the database itself, and fits what the loop would have fitted."""

from __future__ import annotations

import asyncio
import signal
import threading
from pathlib import Path

from accord import Accord
from accord.app import wire
from accord.cases import CaseStore
from accord.cases.refit_process import ProcessRefits, refit_from_database
from accord.cases.reliability_cache import fitted_weights
from accord.config import load_config


def _history(url: str, keys: Path) -> None:
    """Three-agent conflicts where ``agent:odd`` is always the one who dissents."""
    accord = Accord.open(db_url=url, keys_dir=keys)
    try:
        for i in range(8):
            accord.settle(
                f"ticket {i}",
                [
                    {"agent": "agent:a", "output": "bug"},
                    {"agent": "agent:b", "output": "bug"},
                    {"agent": "agent:odd", "output": f"feature {i}"},
                ],
                task_type="triage",
            )
    finally:
        accord.close()


def _here(url: str) -> dict[str, float]:
    accord = Accord.open(db_url=url, must_exist=True, read_only=True)
    try:
        return fitted_weights(CaseStore(accord.db).votes(), 3).weights
    finally:
        accord.close()


def test_a_worker_process_fits_the_weights_the_loop_would_fit_over_the_stored_votes(
    database_url: str, tmp_path: Path
) -> None:
    _history(database_url, tmp_path / "keys")
    refits = ProcessRefits(database_url, min_answers=3)
    assert not refits.started
    try:
        fitted = asyncio.run(refits.fit())
        assert refits.started
    finally:
        refits.close()

    assert not refits.started
    assert fitted.cases == 8
    assert fitted.weights == _here(database_url)
    assert fitted.weights["agent:a"] > fitted.weights["agent:odd"]


def test_what_the_worker_runs_reads_the_votes_through_its_own_connection(
    database_url: str, tmp_path: Path
) -> None:
    _history(database_url, tmp_path / "keys")
    fitted = refit_from_database(database_url, 3)
    assert fitted.cases == 8
    assert fitted.weights == _here(database_url)


def test_a_worker_started_ahead_is_the_one_that_fits(database_url: str, tmp_path: Path) -> None:
    _history(database_url, tmp_path / "keys")
    refits = ProcessRefits(database_url, min_answers=3)
    try:
        refits.start()  # at a server's start, not under load at the first refit
        assert refits.started
        assert asyncio.run(refits.fit()).cases == 8
    finally:
        refits.close()


def test_starting_the_worker_leaves_this_process_s_ctrl_c_handler_as_it_was(
    tmp_path: Path,
) -> None:
    before = signal.getsignal(signal.SIGINT)
    refits = ProcessRefits(f"sqlite:///{tmp_path / 'a.db'}", min_answers=3)
    try:
        refits.start()
        assert signal.getsignal(signal.SIGINT) is before
    finally:
        refits.close()


def test_a_worker_started_from_another_thread_fits_too(database_url: str, tmp_path: Path) -> None:
    _history(database_url, tmp_path / "keys")
    refits = ProcessRefits(database_url, min_answers=3)
    starter = threading.Thread(target=refits.start)
    starter.start()
    starter.join()
    try:
        assert refits.started
        assert asyncio.run(refits.fit()).cases == 8
    finally:
        refits.close()


def test_closing_refits_that_never_started_starts_nothing() -> None:
    refits = ProcessRefits("sqlite:///never.db", min_answers=3)
    refits.close()
    assert not refits.started


def test_background_refits_are_wired_for_a_database_other_processes_can_open(
    tmp_path: Path,
) -> None:
    config = load_config(None)
    on_file = wire(
        config,
        db_url=f"sqlite:///{tmp_path / 'a.db'}",
        keys_dir=tmp_path / "k",
        background_refits=True,
    )
    in_memory = wire(config, db_url="sqlite://", keys_dir=tmp_path / "k", background_refits=True)
    by_default = wire(config, db_url=f"sqlite:///{tmp_path / 'b.db'}", keys_dir=tmp_path / "k")
    try:
        assert isinstance(on_file.reliability.refits, ProcessRefits)
        assert on_file.reliability.refits.started  # ahead of the first refit
        assert in_memory.reliability.refits is None  # no other process could read it
        assert by_default.reliability.refits is None
    finally:
        for parts in (on_file, in_memory, by_default):
            Accord(parts).close()
