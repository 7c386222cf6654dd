"""The model-backed semantic comparator: capped, schema-checked, and failing closed."""

from __future__ import annotations

from accord.conflicts import DetectionSettings, Position, detect
from accord.ladder.model_comparator import ModelSemanticComparator
from accord.llm import ModelTimeout, ScriptedModel


def test_texts_the_model_calls_equivalent_are_one_answer() -> None:
    model = ScriptedModel([{"equivalent": True}])
    comparator = ModelSemanticComparator(model)
    positions = [
        Position(
            agent="a",
            output="The outage was caused by an expired TLS certificate on the edge proxy.",
        ),
        Position(
            agent="b", output="An expired certificate on the load balancer caused the outage."
        ),
    ]
    detection = detect(positions, DetectionSettings(), comparator)
    assert not detection.has_conflict
    assert model.requests[0].max_tokens == 16
    assert model.requests[0].json_schema is not None


def test_answers_are_memoized_regardless_of_order() -> None:
    model = ScriptedModel([{"equivalent": False}])
    comparator = ModelSemanticComparator(model)
    assert comparator.equivalent("x is true", "y is false") is False
    assert comparator.equivalent("y is false", "x is true") is False
    assert len(model.requests) == 1


def test_a_failing_model_cannot_tell_so_the_texts_stay_not_comparable() -> None:
    comparator = ModelSemanticComparator(ScriptedModel([ModelTimeout("slow")]))
    assert comparator.equivalent("one long answer here", "another long answer") is None
    detection = detect(
        [
            Position(agent="a", output="The slowdown comes from a cold cache after deploys."),
            Position(agent="b", output="A lock held by the nightly export stalls the queue."),
        ],
        DetectionSettings(),
        ModelSemanticComparator(ScriptedModel([ModelTimeout("slow")])),
    )
    assert detection.has_conflict
    assert not detection.comparable


def test_the_model_is_given_the_question() -> None:
    model = ScriptedModel([{"equivalent": True}])
    comparator = ModelSemanticComparator(model)
    assert comparator.equivalent("No.", "LGTM, merge it.", question="Any reason to block?")
    assert "Any reason to block?" in model.requests[0].messages[-1].content
