"""The learning loop's view of a case: winner, losers, and the likely root cause (§9)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from accord.cases.outcome_view import case_outcome, infer_cause
from accord.conflicts import Evidence

from ._builders import NOW, TASK, decide_case, pos


def test_agreement_and_merged_work_have_no_root_cause() -> None:
    assert infer_cause(decide_case([pos("a", 1), pos("b", 1)])) is None
    assert infer_cause(decide_case([pos("a", {"x": 1}), pos("b", {"y": 1})])) is None


def test_a_case_a_source_of_truth_settled_is_a_factual_error() -> None:
    case = decide_case(
        [pos("a", 100, assumptions=["net"]), pos("b", 200, assumptions=["gross"])], truth=200
    )

    assert infer_cause(case) == "factual_error"


def test_sides_declaring_different_assumptions_are_divergent_assumptions() -> None:
    case = decide_case(
        [pos("a", 100, 0.9, assumptions=["net"]), pos("b", 200, 0.2, assumptions=["gross"])]
    )

    assert infer_cause(case) == "divergent_assumptions"


def test_a_losing_side_without_evidence_or_sources_made_an_unsupported_claim() -> None:
    case = decide_case([pos("a", 100, 0.9, sources=["erp"]), pos("b", 200, 0.2)])

    assert infer_cause(case) == "unsupported_claim"


def test_a_losing_side_with_evidence_is_not_unsupported() -> None:
    proof = Evidence.of("log", "line 4")
    case = decide_case([pos("a", 100, 0.9), pos("b", 200, 0.2, evidence=[proof])])

    assert infer_cause(case) == "judgement_call"


def test_structured_outputs_split_on_fields_are_a_field_disagreement() -> None:
    case = decide_case(
        [
            pos("a", {"total": 100, "tax": 5}, 0.9, sources=["erp"]),
            pos("b", {"total": 300, "tax": 5}, 0.2, sources=["scan"]),
        ]
    )

    assert infer_cause(case) == "field_disagreement"


@pytest.mark.parametrize("confidence", [(0.9, 0.2), (0.6, 0.6)])
def test_otherwise_it_was_a_judgement_call(confidence: tuple[float, float]) -> None:
    case = decide_case(
        [pos("a", 100, confidence[0], sources=["erp"]), pos("b", 200, confidence[1], sources=["x"])]
    )

    assert infer_cause(case) == "judgement_call"


def test_the_outcome_of_a_settled_case_names_winner_losers_and_cause() -> None:
    case = decide_case([pos("a", 100, 0.9, sources=["erp"]), pos("b", 200, 0.2), pos("c", 5, 0.1)])

    outcome = case_outcome(case)

    assert outcome.case_id == case.case_id
    assert outcome.task_type == TASK
    assert (outcome.kind, outcome.severity) == ("numerical_inconsistency", "high")
    assert outcome.strategy == "confidence"
    assert outcome.winner == "a"
    assert outcome.losers == ("b", "c")
    assert not outcome.escalated
    assert outcome.cause == "unsupported_claim"
    assert outcome.decided_at == NOW


def test_the_outcome_of_an_escalated_case_has_no_winner() -> None:
    outcome = case_outcome(decide_case([pos("a", 100, 0.6), pos("b", 200, 0.6)]))

    assert outcome.winner is None
    assert outcome.losers == ()
    assert outcome.escalated
    assert outcome.strategy == "escalated"


def test_the_outcome_of_agreement_uses_the_status_for_kind_and_none_for_severity() -> None:
    outcome = case_outcome(decide_case([pos("a", 1), pos("b", 1)]))

    assert (outcome.kind, outcome.severity, outcome.strategy) == (
        "no_conflict",
        "none",
        "consensus",
    )
    assert outcome.winner is None
    assert outcome.cause is None


def test_a_naive_decision_time_is_read_as_utc() -> None:
    naive = datetime(2026, 3, 1, 9, 30)
    case = decide_case([pos("a", 1), pos("b", 1)]).model_copy(
        update={"decided_at": None, "created_at": naive}
    )

    assert case_outcome(case).decided_at == naive.replace(tzinfo=UTC)
