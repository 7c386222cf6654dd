"""``Accord.decide_async`` decides as ``decide`` does, from an event loop: the case settles on
the decision, a parked task resumes, one decision per item wins, the same rules refuse the
same calls, and the chain verifies."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from accord.app import Accord
from accord.approvals import AlreadyDecided, ApprovalItem, ApprovalStatus
from accord.cases import Case, SettleStatus
from accord.clock import FrozenClock
from accord.errors import ValidationError

from ..e2e._support import numbers_tied, reviewer_key, write_config


@pytest.fixture
def accord(tmp_path: Path, database_url: str, frozen_clock: FrozenClock) -> Iterator[Accord]:
    config = write_config(
        tmp_path,
        {
            "conflict_resolution": {"strategy": "human"},
            "approvals": {"principals": {"human:alice": [], "human:bob": []}},
        },
    )
    opened = Accord.open(
        config, db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock
    )
    yield opened
    opened.close()


def _escalated(accord: Accord) -> Case:
    case = accord.settle("Total of invoice 4411", numbers_tied("agent:a", "agent:b"))
    assert case.approval_item_id is not None
    return case


def test_a_decision_from_an_event_loop_settles_the_case_and_resumes_its_parked_task(
    accord: Accord,
) -> None:
    case = _escalated(accord)
    handle = accord.park(case, "agent:a", {"step": 3})
    signer = reviewer_key(accord, "human:alice")
    item = asyncio.run(accord.decide_async(str(case.approval_item_id), signer, choice="1450"))
    assert item.status is ApprovalStatus.APPROVED
    assert accord.cases.get(case.case_id).status is SettleStatus.SETTLED
    resumed = handle.poll()
    assert resumed is not None
    assert resumed.context == {"step": 3}
    assert accord.verify().entries > 0


def test_two_reviewers_racing_on_one_loop_decide_the_item_once(accord: Accord) -> None:
    case, other = _escalated(accord), _escalated(accord)
    alice, bob = reviewer_key(accord, "human:alice"), reviewer_key(accord, "human:bob")

    async def race() -> list[ApprovalItem | BaseException]:
        return await asyncio.gather(
            accord.decide_async(str(case.approval_item_id), alice, choice="1450"),
            accord.decide_async(str(case.approval_item_id), bob, deny=True),
            accord.decide_async(str(other.approval_item_id), bob, deny=True, reason="no"),
            return_exceptions=True,
        )

    won, lost, elsewhere = asyncio.run(race())
    assert isinstance(won, ApprovalItem)
    assert isinstance(lost, AlreadyDecided)
    assert isinstance(elsewhere, ApprovalItem)
    assert elsewhere.status is ApprovalStatus.DENIED
    assert accord.approvals.get(str(case.approval_item_id)) == won
    accord.verify()


def test_a_call_without_exactly_one_decision_is_refused_and_nothing_is_written(
    accord: Accord,
) -> None:
    case = _escalated(accord)
    signer = reviewer_key(accord, "human:alice")
    entries = accord.verify().entries
    with pytest.raises(ValidationError):
        asyncio.run(
            accord.decide_async(str(case.approval_item_id), signer, choice="1450", deny=True)
        )
    assert accord.verify().entries == entries  # nothing signed, nothing written
    assert accord.approvals.get(str(case.approval_item_id)).status is ApprovalStatus.PENDING


def test_a_sealed_key_not_unlocked_yet_is_unsealed_off_the_loop_then_kept(
    tmp_path: Path, frozen_clock: FrozenClock
) -> None:
    sealed = Accord.open(
        write_config(tmp_path, {}),
        db_url=f"sqlite:///{tmp_path / 'sealed.db'}",
        keys_dir=tmp_path / "sealed-keys",
        clock=frozen_clock,
        environ={"ACCORD_KEY_PASSPHRASE": "s3cret"},
    )
    sealed.keyring.create("reviewer-human-alice", passphrase="s3cret")

    async def ticks_while_getting() -> int:
        ticks = 0
        done = False

        async def ticker() -> None:
            nonlocal ticks
            while not done:
                ticks += 1
                await asyncio.sleep(0)

        counting = asyncio.create_task(ticker())
        await asyncio.sleep(0)
        before = ticks
        await sealed.key_signer_async("reviewer-human-alice")  # argon2 runs here
        during = ticks - before
        done = True
        await counting
        return during

    try:
        assert not sealed.keyring.is_unlocked("reviewer-human-alice", "s3cret")
        assert asyncio.run(ticks_while_getting()) > 1  # the loop ran on meanwhile
        assert sealed.keyring.is_unlocked("reviewer-human-alice", "s3cret")
    finally:
        sealed.close()
