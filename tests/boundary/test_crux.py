"""Crux extraction: structured fields, scalars, free text (model or marker), and style."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from accord.boundary import (
    Crux,
    ModelTextCrux,
    crux_sides,
    differing_assumptions,
    extract_crux,
    is_stylistic,
    shared_assumptions,
    style_key,
)
from accord.conflicts import Position, detect
from accord.llm import ModelTimeout, ScriptedModel

from ._builders import RECORDED_BEFORE_PROSE, pos

LONG_A = (
    "The outage began when the primary database failed over to the replica in us-east-2, "
    "and the application kept writing to the old primary for eleven minutes."
)
LONG_B = (
    "The outage was caused by an expired TLS certificate on the load balancer, which made "
    "every health check fail; the database was never involved in the incident at all."
)


def _crux(*positions: Position, **kwargs: object) -> Crux | None:
    return extract_crux(positions, detect(positions), **kwargs)  # type: ignore[arg-type]


def test_structured_crux_is_the_first_diverging_nested_path_with_differing_assumptions() -> None:
    a = pos(
        "agent:a",
        {"order": {"lines": {"qty": 2, "sku": "X"}, "ship": {"mode": "air"}}, "zeta": 1},
        assumptions=["stock is live", "air is default"],
    )
    b = pos(
        "agent:b",
        {"order": {"lines": {"qty": 3, "sku": "X"}, "ship": {"mode": "sea"}}, "zeta": 1},
        assumptions=["stock is live", "sea is default"],
    )
    crux = _crux(a, b)
    assert crux is not None
    assert crux.kind == "field"
    assert crux.path == "order.lines.qty"
    assert "agent:a says 2; agent:b says 3" in crux.statement
    assert "also diverging: order.ship.mode" in crux.statement
    assert "agent:a assumes air is default; agent:b assumes sea is default" in crux.statement
    assert "stock is live" not in crux.statement
    sides = crux_sides(crux, detect([a, b]))
    assert [(s.answer, s.agents) for s in sides] == [(2, ("agent:a",)), (3, ("agent:b",))]


def test_assumption_helpers() -> None:
    a = pos("a", 1, assumptions=["x", "y", "y"])
    b = pos("b", 2, assumptions=["y", "z"])
    assert shared_assumptions([a, b]) == ("y",)
    assert differing_assumptions([a, b]) == (("a", ("x",)), ("b", ("z",)))
    assert shared_assumptions([]) == ()


@pytest.mark.parametrize(
    ("outputs", "rendered"),
    [
        ((1200, 1450), "agent:a says 1200; agent:b says 1450"),
        ((True, False), "agent:a says true; agent:b says false"),
        (("approve", "reject"), "agent:a says approve; agent:b says reject"),
        ((0.5, 0.9), "agent:a says 0.5; agent:b says 0.9"),
    ],
)
def test_scalar_crux_is_a_data_point_on_the_output(
    outputs: Sequence[object], rendered: str
) -> None:
    a = pos("agent:a", outputs[0], assumptions=["tax included"])
    b = pos("agent:b", outputs[1])
    crux = _crux(a, b)
    assert crux is not None
    assert crux.kind == "data_point"
    assert crux.path is None
    assert (
        crux.statement
        == f"the answer — {rendered} | assumptions differ — agent:a assumes tax included"
    )


def test_several_agents_on_one_side_are_listed_together() -> None:
    crux = _crux(pos("a", 1), pos("b", 1), pos("c", 5))
    assert crux is not None
    assert "a, b say 1; c says 5" in crux.statement


def test_free_text_without_model_or_assumptions_has_no_crux() -> None:
    assert _crux(pos("a", LONG_A), pos("b", LONG_B)) is None


def test_free_text_with_differing_assumptions_names_them_without_a_model() -> None:
    model = ScriptedModel([])
    crux = _crux(
        pos("a", LONG_A, assumptions=["failover logs are complete"]),
        pos("b", LONG_B, assumptions=["the certificate expired at 09:00"]),
        text_crux=ModelTextCrux(model),
    )
    assert crux is not None
    assert crux.kind == "assumption"
    assert crux.statement.startswith("assumptions differ — a assumes failover logs are complete")
    assert model.requests == []


def test_free_text_crux_through_a_scripted_model() -> None:
    model = ScriptedModel([{"statement": "  Whether the database failed over before 09:02. "}])
    port = ModelTextCrux(model, max_tokens=100)
    crux = _crux(pos("a", LONG_A), pos("b", LONG_B), text_crux=port)
    assert crux == Crux(kind="text", statement="Whether the database failed over before 09:02.")
    (request,) = model.requests
    assert request.max_tokens == 100
    assert request.json_schema is not None
    assert request.json_schema["required"] == ["statement"]
    assert request.purpose == "boundary_crux"
    assert LONG_A in request.messages[1].content
    assert LONG_B in request.messages[1].content


@pytest.mark.parametrize(
    "step",
    [{"statement": "   "}, ModelTimeout("slow", code="llm.timeout"), {"other": "x"}],
)
def test_model_failure_or_empty_statement_means_no_crux(step: object) -> None:
    port = ModelTextCrux(ScriptedModel([step]))  # type: ignore[list-item]
    assert _crux(pos("a", LONG_A), pos("b", LONG_B), text_crux=port) is None


def test_model_port_inside_an_event_loop_gives_no_crux() -> None:
    import asyncio

    async def inside() -> Crux | None:
        return ModelTextCrux(ScriptedModel([{"statement": "x"}]))(
            [pos("a", LONG_A), pos("b", LONG_B)]
        )

    assert asyncio.run(inside()) is None


def test_style_key_ignores_case_space_emphasis_and_edge_punctuation() -> None:
    assert style_key("**Approve** the   refund.") == style_key("approve the refund")
    assert style_key("1,200") != style_key("1.200")


@pytest.mark.parametrize(
    ("a", "b", "stylistic"),
    [
        (
            "**Ship it** to the *EU* warehouse now please.",
            "ship it to the EU warehouse now please",
            True,
        ),
        (LONG_A, LONG_B, False),
        (
            {"note": "**Paid** in full by the customer today", "n": 1},
            {"note": "paid in full by the customer today", "n": 1},
            True,
        ),
        (
            {"note": "Paid in full by the customer", "n": 1},
            {"note": "Refused by the customer", "n": 1},
            False,
        ),
        ({"tags": ["a", "b"]}, {"tags": ["b", "a"]}, False),
        ({"n": 1, "m": "**x**"}, {"n": 2, "m": "x"}, False),
    ],
)
def test_is_stylistic(a: object, b: object, stylistic: bool) -> None:
    positions = [pos("a", a), pos("b", b)]
    detection = detect(positions, RECORDED_BEFORE_PROSE)
    assert detection.has_conflict
    assert is_stylistic(positions, detection) is stylistic


def test_is_stylistic_values_helper() -> None:
    from accord.boundary.crux import _stylistic_equal

    assert _stylistic_equal(1200, 1200.0000000001, 1e-9)
    assert not _stylistic_equal(1200, 1201, 1e-9)
    assert not _stylistic_equal(True, 1, 1e-9)
    assert _stylistic_equal(None, None, 1e-9)
    assert _stylistic_equal([" A", {"k": "B."}], ["a", {"k": "b"}], 1e-9)
    assert not _stylistic_equal([1], [1, 2], 1e-9)
    assert not _stylistic_equal("1", 1, 1e-9)


def test_no_conflict_is_not_stylistic() -> None:
    positions = [pos("a", 1), pos("b", 1)]
    assert not is_stylistic(positions, detect(positions))
