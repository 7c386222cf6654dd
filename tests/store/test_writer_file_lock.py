"""SQLite writers of different processes queue on a file lock beside the database: none
waits in SQLite's busy handler, and every write lands."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from sqlalchemy import func, select

from accord.store import open_database
from accord.store.tables import api_keys
from accord.store.writer_file_lock import WriterFileLock, writer_lock_path


def _key(key_id: str) -> dict[str, object]:
    return {
        "key_id": key_id,
        "token_hash": f"hash:{key_id}",
        "role": "auditor",
        "agent_id": None,
        "principal_id": None,
        "label": "",
        "created_at": "2026-01-01T00:00:00Z",
        "expires_at": None,
        "revoked_at": None,
    }


def test_two_handles_on_one_file_write_in_turn_and_every_write_lands(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    first, second = open_database(url), open_database(url)  # as two processes would
    failures: list[BaseException] = []

    def writes(db_index: int) -> None:
        db = (first, second)[db_index]
        try:
            for i in range(40):
                with db.write() as conn:
                    db.insert_rows(conn, api_keys, [_key(f"key:{db_index}:{i}")])
        except BaseException as exc:  # reported below
            failures.append(exc)

    threads = [threading.Thread(target=writes, args=(i,)) for i in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with first.read() as conn:
        stored = conn.execute(select(func.count()).select_from(api_keys)).scalar_one()
    first.dispose()
    second.dispose()
    assert failures == []
    assert stored == 80
    assert writer_lock_path(tmp_path / "shared.db").exists()


def test_a_second_file_lock_waits_until_the_first_is_released(tmp_path: Path) -> None:
    holder, waiter = WriterFileLock(tmp_path / "a.db"), WriterFileLock(tmp_path / "a.db")
    entered = threading.Event()

    def take() -> None:
        with waiter:
            entered.set()

    with holder:
        thread = threading.Thread(target=take)
        thread.start()
        assert not entered.wait(0.3)  # held: the other waits
    assert entered.wait(5)
    thread.join()
    holder.close()
    waiter.close()


def test_a_nested_entry_keeps_the_lock_until_the_outer_one_ends(tmp_path: Path) -> None:
    lock, other = WriterFileLock(tmp_path / "b.db"), WriterFileLock(tmp_path / "b.db")
    entered = threading.Event()
    with lock:
        with lock:
            pass
        thread = threading.Thread(target=lambda: (other.__enter__(), entered.set()))
        thread.start()
        assert not entered.wait(0.3)  # still held after the inner exit
    assert entered.wait(5)
    thread.join()
    other.__exit__(None, None, None)
    lock.close()
    other.close()


def test_a_folder_where_the_lock_file_cannot_be_made_still_lets_the_holder_in(
    tmp_path: Path,
) -> None:
    lock = WriterFileLock(tmp_path / "missing-folder" / "c.db")
    with lock:
        entered = True
    assert entered
    assert not writer_lock_path(tmp_path / "missing-folder" / "c.db").exists()


def test_a_writer_waits_only_so_long_for_a_lock_that_is_never_released(tmp_path: Path) -> None:
    holder = WriterFileLock(tmp_path / "d.db")
    waiter = WriterFileLock(tmp_path / "d.db", wait_seconds=0.2)
    with holder:
        began = time.monotonic()
        with waiter:  # goes on to SQLite's own lock instead of hanging
            waited = time.monotonic() - began
            assert not waiter.held
        assert holder.held
    assert 0.2 <= waited < 5
    with waiter:
        assert waiter.held  # released by the holder: taken again
    holder.close()
    waiter.close()


def test_try_enter_takes_the_lock_only_while_no_other_handle_holds_it(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    mine, theirs = WriterFileLock(db), WriterFileLock(db)
    with theirs:
        assert not mine.try_enter()
        assert not mine.held  # nothing held, nothing to leave
        assert theirs.try_enter()  # the holder enters again without waiting
        theirs.__exit__(None, None, None)
        assert theirs.held
    assert mine.try_enter()
    assert mine.held
    assert not theirs.try_enter()
    mine.__exit__(None, None, None)
    assert not mine.held
    with theirs:  # released on leaving: the other handle takes it
        assert theirs.held
    mine.close()
    theirs.close()
