"""Invalid settle input is refused with a ValidationError naming the field; nothing is written."""

from __future__ import annotations

import math
from typing import Any

import pytest

from accord.cases import Settler, SettleRequest
from accord.errors import ValidationError
from accord.store import Database

from ._builders import NOTHING_WRITTEN, SUBJECT, request, row_counts
from ._builders import pos as p

GOOD = [{"agent": "a", "output": 1}, {"agent": "b", "output": 2}]


def refused(settler: Settler, db: Database, bad: SettleRequest) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        settler.settle(bad)
    assert row_counts(db) == NOTHING_WRITTEN
    return caught.value


@pytest.mark.parametrize("subject", ["", "   ", None, 42])
def test_the_subject_must_be_a_non_empty_string(
    settler: Settler, db: Database, subject: Any
) -> None:
    error = refused(settler, db, SettleRequest(subject=subject, positions=GOOD))

    assert error.code == "settle.bad_request"
    assert error.context["field"] == "subject"


@pytest.mark.parametrize("task_type", ["", "\t"])
def test_the_task_type_must_be_a_non_empty_string(
    settler: Settler, db: Database, task_type: str
) -> None:
    error = refused(settler, db, SettleRequest(SUBJECT, GOOD, task_type=task_type))

    assert error.context["field"] == "task_type"


@pytest.mark.parametrize("session_id", ["", "  ", 7])
def test_a_session_id_is_a_non_empty_string_when_given(
    settler: Settler, db: Database, session_id: Any
) -> None:
    error = refused(settler, db, SettleRequest(SUBJECT, GOOD, session_id=session_id))

    assert error.context["field"] == "session_id"


def test_the_same_agent_may_not_take_two_positions(settler: Settler, db: Database) -> None:
    error = refused(settler, db, request(p("a", 1), p("b", 2), p("a", 3)))

    assert error.code == "conflicts.duplicate_agent"
    assert error.context["field"] == "agent"
    assert error.context["position"] == 2


def test_outputs_of_different_types_are_refused(settler: Settler, db: Database) -> None:
    error = refused(settler, db, request(p("a", 1), p("b", "one")))

    assert error.code == "conflicts.mixed_output_types"
    assert error.context["field"] == "output"


def test_a_nan_confidence_is_refused_and_names_the_position(settler: Settler, db: Database) -> None:
    bad = {"agent": "b", "output": 2, "confidence": math.nan}

    error = refused(settler, db, request({"agent": "a", "output": 1}, bad))

    assert error.message.startswith("positions[1]: ")
    assert error.context["field"] == "confidence"
    assert error.context["position"] == 1


def test_a_confidence_outside_zero_to_one_is_refused(settler: Settler, db: Database) -> None:
    error = refused(settler, db, request({"agent": "a", "output": 1, "confidence": 1.5}))

    assert error.code == "conflicts.confidence_range"
    assert error.context["field"] == "confidence"


@pytest.mark.parametrize("positions", [{"agent": "a", "output": 1}, "a,b", b"ab", 3, None])
def test_positions_must_be_a_list(settler: Settler, db: Database, positions: Any) -> None:
    error = refused(settler, db, SettleRequest(SUBJECT, positions))

    assert error.code == "settle.bad_positions"
    assert error.context["field"] == "positions"


@pytest.mark.parametrize("item", [42, "agent a says 1", None, ["a", 1]])
def test_each_position_must_be_a_position_or_a_mapping(
    settler: Settler, db: Database, item: Any
) -> None:
    error = refused(settler, db, SettleRequest(SUBJECT, [GOOD[0], item]))

    assert error.code == "settle.bad_positions"
    assert error.context["field"] == "positions[1]"


def test_an_empty_list_of_positions_is_refused(settler: Settler, db: Database) -> None:
    error = refused(settler, db, SettleRequest(SUBJECT, []))

    assert error.code == "conflicts.no_positions"


def test_an_unknown_position_field_is_refused(settler: Settler, db: Database) -> None:
    error = refused(settler, db, request({"agent": "a", "output": 1, "mood": "sure"}))

    assert error.code == "conflicts.unknown_field"
    assert error.context["field"] == "mood"
    assert error.context["position"] == 0


def test_positions_may_be_given_as_mappings_or_positions(settler: Settler) -> None:
    case = settler.settle(request(p("a", 1, 0.9), {"agent": "b", "output": 5, "confidence": 0.1}))

    assert [x.agent for x in case.positions] == ["a", "b"]
    assert case.positions[1].confidence == 0.1


@pytest.mark.parametrize(
    ("fine", "huge", "field"),
    [
        (1, 2**60, "positions[1].output"),
        ({"total": [1]}, {"total": [1, -(2**53)]}, "positions[1].output.total[1]"),
    ],
)
def test_an_integer_a_signed_record_cannot_carry_is_refused_up_front(
    settler: Settler, db: Database, fine: Any, huge: Any, field: str
) -> None:
    error = refused(settler, db, request(p("a", fine), p("b", huge)))

    assert error.code == "canonical.integer_range"
    assert error.context["field"] == field
    assert error.context["position"] == 1


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        (SettleRequest("total \ud800", GOOD), "subject"),
        (SettleRequest(SUBJECT, GOOD, session_id="s-\udfff"), "session_id"),
        (request(p("a", "x\ud800y")), "positions[0].output"),
        (request(p("a", 1, reasoning="because \ud800")), "positions[0].reasoning"),
        (request(p("a", 1, sources=["ok", "\ud800"])), "positions[0].sources[1]"),
    ],
)
def test_text_a_signed_record_cannot_carry_is_refused_up_front(
    settler: Settler, db: Database, bad: SettleRequest, field: str
) -> None:
    error = refused(settler, db, bad)

    assert error.code == "canonical.surrogate"
    assert error.context["field"] == field


def test_floats_and_evidence_content_do_not_count_against_signability(settler: Settler) -> None:
    evidence = {"kind": "table", "content": {"rate": 0.2, "id": 2**60}}

    case = settler.settle(request(p("a", 1.5, 0.3, evidence=[evidence]), p("b", 1.5)))

    assert case.positions[0].evidence[0].content == {"rate": 0.2, "id": 2**60}
