"""Any change to a stored entry — any field, any byte, order, deletion, a foreign signer — is
caught by verification, which names the first bad entry."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, select, update

from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.errors import VerificationFailed
from accord.ledger import Ledger, TrustRoot
from accord.ledger.verify import check_rows
from accord.store import Database
from accord.store.tables import ledger_checkpoints, ledger_entries

from .conftest import case_events

ENTRY_FIELDS = [
    "seq",
    "event_type",
    "timestamp",
    "signer_kid",
    "body",
    "signature",
    "entry_hash",
    "entry_hash_secondary",
]
SIZE = 6


def altered(value: object) -> object:
    if isinstance(value, (bytes, memoryview)):
        data = bytearray(bytes(value))
        data[len(data) // 2] ^= 0x01
        return bytes(data)
    if isinstance(value, int):
        return value + 100
    text = str(value)
    return text[:-1] + ("0" if text[-1] != "0" else "1")


def first_bad_seq(ledger: Ledger, trusted: TrustRoot) -> int:
    with pytest.raises(VerificationFailed) as err:
        ledger.verify(trusted, workers=1)
    return int(err.value.context["seq"])


def test_an_untouched_ledger_verifies(ledger: Ledger, trusted: TrustRoot) -> None:
    ledger.append_many(case_events(SIZE))
    report = ledger.verify(trusted, workers=1)
    assert report.entries == SIZE
    assert report.checkpoints == 1
    assert report.signer_kids == [trusted.kid]


@pytest.mark.parametrize("column", ENTRY_FIELDS)
def test_changing_any_field_of_any_entry_is_caught_at_that_entry(
    ledger: Ledger, db: Database, trusted: TrustRoot, column: str
) -> None:
    ledger.append_many(case_events(SIZE))
    for seq in range(1, SIZE + 1):
        with db.read() as conn:
            original = conn.execute(
                select(ledger_entries.c[column]).where(ledger_entries.c.seq == seq)
            ).scalar_one()
        if column == "seq" and seq == SIZE:
            new_value: object = SIZE + 50  # moving the last entry away truncates the ledger
        else:
            new_value = altered(original)
        with db.write() as conn:
            conn.execute(
                update(ledger_entries)
                .where(ledger_entries.c.seq == seq)
                .values({column: new_value})
            )
        assert first_bad_seq(ledger, trusted) == seq, (column, seq)
        restore_seq = new_value if column == "seq" else seq
        with db.write() as conn:
            conn.execute(
                update(ledger_entries)
                .where(ledger_entries.c.seq == restore_seq)
                .values({column: original})
            )
        ledger.verify(trusted, workers=1)


def test_swapping_two_entries_is_caught(
    ledger: Ledger, db: Database, trusted: TrustRoot
) -> None:
    ledger.append_many(case_events(SIZE))
    with db.write() as conn:
        conn.execute(update(ledger_entries).where(ledger_entries.c.seq == 2).values(seq=-2))
        conn.execute(update(ledger_entries).where(ledger_entries.c.seq == 4).values(seq=2))
        conn.execute(update(ledger_entries).where(ledger_entries.c.seq == -2).values(seq=4))
    assert first_bad_seq(ledger, trusted) == 2


@pytest.mark.parametrize("dropped", [1, 3, SIZE])
def test_dropping_an_entry_is_caught(
    ledger: Ledger, db: Database, trusted: TrustRoot, dropped: int
) -> None:
    ledger.append_many(case_events(SIZE))
    ledger.checkpoint()
    with db.write() as conn:
        conn.execute(delete(ledger_entries).where(ledger_entries.c.seq == dropped))
    assert first_bad_seq(ledger, trusted) == dropped


def test_an_entry_spliced_in_by_an_unknown_key_is_caught(
    db: Database, ledger: Ledger, trusted: TrustRoot, frozen_clock: FrozenClock
) -> None:
    ledger.append_many(case_events(3))
    intruder = Ledger(
        db, Ed25519Signer.from_seed(b"\x66" * 32), frozen_clock, checkpoint_every=None
    )
    intruder.append("dispute_resolved", {"case_id": "case:0", "winner": "agent:mallory"})
    ledger.append_many(case_events(2))
    assert first_bad_seq(ledger, trusted) == 4


def test_a_checkpoint_with_an_altered_root_or_frontier_is_caught(
    ledger: Ledger, db: Database, trusted: TrustRoot
) -> None:
    ledger.append_many(case_events(SIZE))
    with db.write() as conn:
        conn.execute(update(ledger_checkpoints).values(frontier='["' + "00" * 32 + '"]'))
    with pytest.raises(VerificationFailed) as err:
        ledger.verify(trusted, workers=1)
    assert err.value.context["field"] == "frontier"
    with db.write() as conn:
        body = conn.execute(select(ledger_checkpoints.c.body)).scalar_one()
        conn.execute(
            update(ledger_checkpoints).values(body=body.replace(b'"tree_size":4', b'"tree_size":3'))
        )
    with pytest.raises(VerificationFailed):
        ledger.verify(trusted, workers=1)


def test_a_checkpoint_whose_columns_disagree_with_its_body_is_caught(
    ledger: Ledger, db: Database, trusted: TrustRoot
) -> None:
    ledger.append_many(case_events(SIZE))
    with db.write() as conn:
        conn.execute(update(ledger_checkpoints).values(tree_size=5))
    with pytest.raises(VerificationFailed):
        ledger.verify(trusted, workers=1)


def test_a_checkpoint_signature_by_a_stranger_is_caught(
    ledger: Ledger, db: Database, trusted: TrustRoot
) -> None:
    ledger.append_many(case_events(SIZE))
    with db.write() as conn:
        sig = conn.execute(select(ledger_checkpoints.c.signature)).scalar_one()
        conn.execute(update(ledger_checkpoints).values(signature=altered(sig)))
    with pytest.raises(VerificationFailed) as err:
        ledger.verify(trusted, workers=1)
    assert err.value.code == "ledger.bad_signature"


def stored_rows(db: Database) -> list[tuple[object, ...]]:
    with db.read() as conn:
        return [
            tuple(r) for r in conn.execute(select(ledger_entries).order_by(ledger_entries.c.seq))
        ]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_flipping_any_single_bit_of_any_stored_byte_is_caught(
    ledger: Ledger, db: Database, trusted: TrustRoot
) -> None:
    ledger.append_many(case_events(3))
    rows = stored_rows(db)
    assert check_rows(iter(rows), 1, 4, trusted.windows()).problem is None
    for index, row in enumerate(rows):
        for column in (4, 5):  # body, signature: every byte of both
            data = bytes(row[column])  # type: ignore[arg-type]
            for position in range(len(data)):
                mutated = bytearray(data)
                mutated[position] ^= 0x01
                bad = list(rows)
                bad[index] = (*row[:column], bytes(mutated), *row[column + 1 :])
                problem = check_rows(iter(bad), 1, 4, trusted.windows()).problem
                assert problem is not None, (index, column, position)
                assert problem.seq == index + 1, (index, column, position)
        for column in (1, 2, 3, 6, 7):  # the text columns: every character
            text = str(row[column])
            for position in range(len(text)):
                changed = text[:position] + chr(ord(text[position]) ^ 0x01) + text[position + 1 :]
                bad = list(rows)
                bad[index] = (*row[:column], changed, *row[column + 1 :])
                problem = check_rows(iter(bad), 1, 4, trusted.windows()).problem
                assert problem is not None, (index, column, position)
                assert problem.seq == index + 1, (index, column, position)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@settings(
    max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None
)
@given(data=st.data())
def test_random_corruption_of_the_stored_ledger_is_always_caught(
    ledger: Ledger, db: Database, trusted: TrustRoot, data: st.DataObject
) -> None:
    if ledger.size() == 0:
        ledger.append_many(case_events(5))
    rows = stored_rows(db)
    index = data.draw(st.integers(0, len(rows) - 1))
    column = data.draw(st.sampled_from([4, 5]))
    blob = bytearray(bytes(rows[index][column]))  # type: ignore[arg-type]
    position = data.draw(st.integers(0, len(blob) - 1))
    blob[position] = data.draw(st.integers(0, 255).filter(lambda b: b != blob[position]))
    bad = list(rows)
    bad[index] = (*rows[index][:column], bytes(blob), *rows[index][column + 1 :])
    problem = check_rows(iter(bad), 1, len(rows) + 1, trusted.windows()).problem
    assert problem is not None
    assert problem.seq == index + 1
