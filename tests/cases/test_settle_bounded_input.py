"""Bounded settle input: printable ids and subjects, huge integers, positions, outputs and
batches above their limits are refused naming the limit; nothing is written."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.cases import Settler, SettleRequest
from accord.errors import ValidationError
from accord.ledger import Ledger
from accord.limits import LimitExceeded, Limits
from accord.printable import printable_problem
from accord.store import Database

from ._builders import NOTHING_WRITTEN, row_counts

GOOD = [{"agent": "a", "output": 1}, {"agent": "b", "output": 2}]
UNPRINTABLE = ["\x00", "\n", "\r", "\t", "\x1b", "\x7f", "\x85", "\u202e", "\u2066", "\u200b",
               "\u200d", "\ufeff", "\u2028", "\u00a0"]


def refused(settler: Settler, db: Database, bad: SettleRequest) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        settler.settle(bad)
    assert row_counts(db) == NOTHING_WRITTEN
    return caught.value


def limited(settler: Settler, **limits: Any) -> Settler:
    return Settler(
        ledger=settler.ledger,
        store=settler.store,
        clock=settler.clock,
        settings=settler.settings,
        limits=Limits(**limits),
    )


@pytest.mark.parametrize("char", UNPRINTABLE)
def test_an_agent_id_with_a_control_bidi_or_zero_width_character_is_refused(
    settler: Settler, db: Database, char: str
) -> None:
    positions = [{"agent": f"agent:{char}billing", "output": 1}, GOOD[1]]
    error = refused(settler, db, SettleRequest(subject="s", positions=positions))

    assert error.code == "conflicts.invalid_agent"
    assert f"U+{ord(char):04X}" in error.message


@pytest.mark.parametrize("field", ["subject", "task_type", "session_id"])
@pytest.mark.parametrize("char", ["\x00", "\n", "\u202e", "\u200b"])
def test_a_subject_task_type_or_session_with_an_unprintable_character_is_refused(
    settler: Settler, db: Database, field: str, char: str
) -> None:
    fields = {"subject": "s", "positions": GOOD, field: f"x{char}y"}
    error = refused(settler, db, SettleRequest(**fields))

    assert error.code == "settle.bad_request"
    assert error.context["field"] == field


def test_a_nul_in_an_agent_id_is_refused_on_every_engine_instead_of_crashing_postgresql(
    settler: Settler, db: Database
) -> None:
    positions = [{"agent": "agent:a\x00", "output": 1}, GOOD[1]]
    error = refused(settler, db, SettleRequest(subject="nul", positions=positions))

    assert error.code == "conflicts.invalid_agent"
    assert "U+0000" in error.message


@given(st.text(max_size=40))
@settings(max_examples=200)
def test_printable_text_is_exactly_what_str_isprintable_accepts(text: str) -> None:
    assert (printable_problem(text) is None) == text.isprintable()


@pytest.mark.parametrize(
    "output",
    [10**5000, {"total": -(10**4400)}, {"v": [10**9000]}],
    ids=["int", "nested", "in_list"],
)
def test_an_integer_of_more_than_4300_digits_is_refused_with_an_error_not_a_traceback(
    settler: Settler, db: Database, output: Any
) -> None:
    positions = [{"agent": "a", "output": output}, {"agent": "b", "output": output}]
    error = refused(settler, db, SettleRequest(subject="s", positions=positions))

    assert error.code == "canonical.integer_range"


def test_more_positions_than_the_limit_are_refused_naming_the_limit(
    settler: Settler, db: Database
) -> None:
    positions = [{"agent": f"a{i}", "output": 1} for i in range(4)]
    error = refused(limited(settler, positions_per_case=3), db, SettleRequest("s", positions))

    assert isinstance(error, LimitExceeded)
    assert error.context["limit"] == "limits.positions_per_case"
    assert (error.context["value"], error.context["found"]) == (3, 4)


def test_an_output_larger_than_the_limit_is_refused_naming_the_limit_and_its_size(
    settler: Settler, db: Database
) -> None:
    big = {"text": "x" * 2000}
    positions = [{"agent": "a", "output": {"text": "y"}}, {"agent": "b", "output": big}]
    error = refused(limited(settler, output_bytes=1000), db, SettleRequest("s", positions))

    assert error.code == "limits.exceeded"
    assert error.context["field"] == "positions[1].output"
    assert error.context["found"] == len('{"text":""}') + 2000
    assert "limits.output_bytes = 1,000" in error.message


def test_a_batch_larger_than_the_limit_is_refused_before_anything_is_written(
    settler: Settler, db: Database, ledger: Ledger
) -> None:
    requests = [SettleRequest(f"s{i}", GOOD) for i in range(3)]
    with pytest.raises(LimitExceeded) as caught:
        limited(settler, cases_per_batch=2).settle_many(requests)

    assert caught.value.context["limit"] == "limits.cases_per_batch"
    assert row_counts(db) == NOTHING_WRITTEN


def test_outputs_within_the_limits_settle(settler: Settler) -> None:
    positions = [{"agent": "a", "output": {"t": "x" * 900}}, {"agent": "b", "output": {"t": "y"}}]
    case = limited(settler, output_bytes=1000, positions_per_case=2).settle(
        SettleRequest("s", positions)
    )

    assert case.case_id
