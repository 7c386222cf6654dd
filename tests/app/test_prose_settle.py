"""Prose answers through `Accord.settle`: paraphrases are agreement with no dissent; a changed
fact is a conflict whose records name it; answers nothing can compare are escalated."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from accord import Accord, Position, SettleStatus
from accord.clock import FrozenClock


@pytest.fixture
def accord(tmp_path: Path, database_url: str, frozen_clock: FrozenClock) -> Iterator[Accord]:
    instance = Accord.open(db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock)
    yield instance
    instance.close()


def test_paraphrases_of_the_same_facts_settle_as_agreement_with_no_dissent(accord: Accord) -> None:
    case = accord.settle(
        "Total of invoice 4411",
        [
            Position(agent="agent:billing", output="The total is 1,200 EUR.", confidence=0.9),
            Position(agent="agent:audit", output="1200 euros in total", confidence=0.6),
            Position(agent="agent:ops", output="Invoice 4411 comes to €1,200.00, VAT included."),
        ],
        task_type="invoicing",
    )
    assert case.status is SettleStatus.NO_CONFLICT
    assert case.dissent == ()
    assert accord.dissent.query(agent="agent:audit") == []


def test_verdict_synonyms_are_one_answer(accord: Accord) -> None:
    case = accord.settle(
        "Merge PR 812?",
        [
            Position(agent="agent:a", output="LGTM"),
            Position(agent="agent:b", output="Approve"),
            Position(agent="agent:c", output="Approved — looks good to me."),
        ],
    )
    assert case.status is SettleStatus.NO_CONFLICT
    assert case.dissent == ()


def test_a_changed_amount_in_otherwise_identical_prose_is_a_conflict_that_names_the_fact(
    accord: Accord,
) -> None:
    case = accord.settle(
        "Total of invoice 4411",
        [
            Position(
                agent="agent:billing",
                output="Invoice 4411 comes to 1,200 EUR including VAT.",
                confidence=0.9,
            ),
            Position(
                agent="agent:audit",
                output="Invoice 4411 comes to 1,450 EUR including VAT.",
                confidence=0.6,
            ),
        ],
        task_type="invoicing",
    )
    assert case.status is SettleStatus.SETTLED
    assert "amount: 1,200 EUR vs 1,450 EUR" in case.detection.description
    stored = accord.cases.get(case.case_id)
    assert "amount: 1,200 EUR vs 1,450 EUR" in stored.detection.description
    assert [d.agent_id for d in case.dissent] == ["agent:audit"]


@pytest.mark.parametrize(
    ("first", "second", "crux"),
    [
        ("The release goes out on May 3, 2024.", "The release goes out on May 10, 2024.",
         "date: May 3, 2024 (2024-05-03) vs May 10, 2024 (2024-05-10)"),
        ("Approve the renewal; terms unchanged.", "Reject the renewal; terms unchanged.",
         "verdict: approve ('Approve') vs reject ('Reject')"),
    ],
)
def test_a_changed_date_or_verdict_is_named_in_the_escalation(
    accord: Accord, first: str, second: str, crux: str
) -> None:
    case = accord.settle(
        "Release plan",
        [Position(agent="agent:a", output=first), Position(agent="agent:b", output=second)],
    )
    assert case.status is SettleStatus.ESCALATED
    assert case.escalation is not None
    assert crux in case.escalation.summary


def test_answers_no_fact_can_compare_are_escalated_as_not_comparable_without_a_dissent(
    accord: Accord,
) -> None:
    case = accord.settle(
        "Why is checkout slow?",
        [
            Position(agent="agent:a", output="A cold cache after every deploy.", confidence=0.9),
            Position(agent="agent:b", output="A lock held by the nightly export.", confidence=0.1),
        ],
    )
    assert case.status is SettleStatus.ESCALATED
    assert case.dissent == ()
    assert case.escalation is not None
    assert "not comparable" in case.escalation.summary
    assert "could not be compared" in case.escalation.reason


def test_settle_embedding_puts_the_local_model_before_escalation(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock
) -> None:
    config = tmp_path / "accord.yaml"
    config.write_text(
        "settle:\n  embedding: {agree_above: 0.75, differ_below: 0.40}\n"
        "  detection: {prose: {locale: en_GB}}\n",
        encoding="utf-8",
    )
    accord = Accord.open(
        config, db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock
    )
    try:
        case = accord.settle(
            "What caused the checkout slowdown?",
            [
                Position(agent="agent:a", output="A cold cache after every deploy slows checkout."),
                Position(
                    agent="agent:b",
                    output="Checkout is slow because the cache starts cold after each deploy.",
                ),
            ],
        )
    finally:
        accord.close()
    assert case.status is SettleStatus.NO_CONFLICT
    assert case.dissent == ()


def test_settle_reads_relative_dates_from_the_clocks_day(accord: Accord) -> None:
    # the frozen clock stands on Sunday 2026-11-29: "tomorrow" is 30 November
    case = accord.settle(
        "When does the migration window open?",
        [
            Position(agent="agent:ops", output="It opens tomorrow."),
            Position(agent="agent:dba", output="The window opens on 30 November 2026."),
        ],
    )
    assert case.status is SettleStatus.NO_CONFLICT
    moved = accord.settle(
        "When does the migration window open?",
        [
            Position(agent="agent:ops", output="It opens tomorrow."),
            Position(agent="agent:dba", output="The window opens on 2 December 2026."),
        ],
    )
    assert moved.status is not SettleStatus.NO_CONFLICT


def test_settle_reads_a_bare_no_against_the_question(accord: Accord) -> None:
    # "No" to "any reason to block?" is an approval, the same answer as "LGTM, merge it."
    case = accord.settle(
        "Is there any reason to block this release?",
        [
            Position(agent="agent:qa", output="No."),
            Position(agent="agent:sec", output="LGTM, merge it."),
        ],
    )
    assert case.status is SettleStatus.NO_CONFLICT
