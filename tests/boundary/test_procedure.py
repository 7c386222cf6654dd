"""The decision procedure, step by step, in the note's order."""

from __future__ import annotations

import pytest

from accord.boundary import (
    AMBIGUITY_UNRESOLVED,
    BoundaryInputs,
    ModelTextCrux,
    ProbeRegistry,
    TieBreaker,
    agreed_sub_conclusions,
    decide_boundary,
)
from accord.conflicts import Position, detect
from accord.errors import ValidationError
from accord.llm import ScriptedModel

from ._builders import FixedProbe, currency_split, erp_hint, pos

HINTS = {"invoice.total:total.currency": erp_hint()}


@pytest.fixture
def registry() -> ProbeRegistry:
    return ProbeRegistry({"erp": FixedProbe("erp.currency", "EUR")})


def _inputs(
    *positions: Position, task_type: str = "invoice.total", **extra: object
) -> BoundaryInputs:
    return BoundaryInputs(
        case_id="case:1",
        subject="invoice 4411",
        task_type=task_type,
        positions=positions,
        detection=detect(positions),
        **extra,
    )


def test_fewer_than_two_positions_is_refused(registry: ProbeRegistry) -> None:
    with pytest.raises(ValidationError) as info:
        decide_boundary(_inputs(pos("a", 1)), probes=registry)
    assert info.value.code == "boundary.too_few_positions"


def test_step1_no_conflict_records_the_consensus(registry: ProbeRegistry) -> None:
    draft = decide_boundary(
        _inputs(
            pos("a", {"total": 1200, "cur": "EUR"}, assumptions=["net"]),
            pos("b", {"total": 1200, "cur": "EUR"}, assumptions=["net", "b only"]),
        ),
        probes=registry,
    )
    assert draft is not None
    assert draft.status == "consensus"
    assert draft.consensus == ("cur = EUR", "total = 1200", "assumes: net")
    assert draft.crux is None
    assert draft.tie_breaker is None
    assert draft.marker is None


def test_step1_scalar_consensus(registry: ProbeRegistry) -> None:
    draft = decide_boundary(_inputs(pos("a", 1200), pos("b", 1200)), probes=registry)
    assert draft is not None
    assert draft.consensus == ("answer = 1200",)


def test_disjoint_subsets_are_recorded_separately(registry: ProbeRegistry) -> None:
    a = pos("a", {"lines": 3}, task_subset=["lines"])
    b = pos("b", {"lines": 5}, task_subset=["totals"])
    draft = decide_boundary(_inputs(a, b), probes=registry)
    assert draft is not None
    assert draft.status == "disjoint"
    assert [(e.agent_id, e.answer) for e in draft.positions] == [
        ("a", {"lines": 3}),
        ("b", {"lines": 5}),
    ]
    assert "a: lines; b: totals" in draft.reason
    assert draft.crux is None
    assert draft.consensus == ()


def test_disjoint_fields_are_complementary(registry: ProbeRegistry) -> None:
    draft = decide_boundary(_inputs(pos("a", {"x": 1}), pos("b", {"y": 2})), probes=registry)
    assert draft is not None
    assert draft.status == "disjoint"
    assert "its own fields" in draft.reason


def test_purely_stylistic_differences_are_not_recorded(registry: ProbeRegistry) -> None:
    inputs = _inputs(
        pos("a", "**Refund** the customer in full, then close the ticket"),
        pos("b", "refund the customer in full, then close the ticket"),
    )
    assert inputs.detection.has_conflict
    assert decide_boundary(inputs, probes=registry) is None


def test_step2_no_crux_gives_the_ambiguity_marker(registry: ProbeRegistry) -> None:
    draft = decide_boundary(
        _inputs(
            pos("a", "The migration must run before the deploy because the schema changed."),
            pos("b", "Nobody should deploy on Fridays; wait for the platform team review."),
        ),
        probes=registry,
    )
    assert draft is not None
    assert draft.status == "ambiguous"
    assert draft.marker == AMBIGUITY_UNRESOLVED
    assert draft.crux is None
    assert draft.tie_breaker is None


def test_step2_text_crux_from_the_model_then_a_task_hint(registry: ProbeRegistry) -> None:
    model = ScriptedModel([{"statement": "Whether the schema changed in release 42"}])
    hint = TieBreaker(
        probe="erp.currency",
        arguments={"repo": "core", "release": 42},
        description="Diff the schema between releases 41 and 42",
        winner_by_result={"changed": ("a",), "unchanged": ("b",)},
    )
    draft = decide_boundary(
        _inputs(
            pos("a", "The migration must run before the deploy because the schema changed."),
            pos("b", "Nobody should deploy on Fridays; wait for the platform team review."),
            task_type="deploy.plan",
        ),
        probes=registry,
        hints={"deploy.plan": hint},
        text_crux=ModelTextCrux(model),
    )
    assert draft is not None
    assert draft.status == "pending"
    assert draft.crux is not None
    assert draft.crux.kind == "text"
    assert draft.tie_breaker == hint
    assert len(model.requests) == 1


def test_step3_no_hint_goes_to_people(registry: ProbeRegistry) -> None:
    view = currency_split()
    draft = decide_boundary(
        _inputs(*view.positions, task_type="other.task"), probes=registry, hints=HINTS
    )
    assert draft is not None
    assert draft.status == "human"
    assert draft.crux is not None
    assert draft.crux.path == "total.currency"
    assert "no registered probe settles field 'total.currency'" in draft.reason
    assert draft.consensus == ("total.amount = 1200", "vendor = ACME", "assumes: prices are net")


def test_step3_no_hint_for_a_data_point(registry: ProbeRegistry) -> None:
    draft = decide_boundary(_inputs(pos("a", 1), pos("b", 9)), probes=registry)
    assert draft is not None
    assert draft.status == "human"
    assert "this crux" in draft.reason


def test_step3_unknown_probe_goes_to_people(registry: ProbeRegistry) -> None:
    view = currency_split()
    draft = decide_boundary(
        _inputs(*view.positions),
        probes=registry,
        hints={"invoice.total": erp_hint(probe="crm.lookup")},
    )
    assert draft is not None
    assert draft.status == "human"
    assert "[boundary.unknown_probe]" in draft.reason


def test_step3_restating_tie_breaker_goes_to_people(registry: ProbeRegistry) -> None:
    view = currency_split()
    draft = decide_boundary(
        _inputs(*view.positions),
        probes=registry,
        hints={"invoice.total": erp_hint(description="total.currency")},
    )
    assert draft is not None
    assert draft.status == "human"
    assert "[boundary.tie_breaker_restates_crux]" in draft.reason


def test_step4_executable_tie_breaker_is_sealed(registry: ProbeRegistry) -> None:
    view = currency_split()
    draft = decide_boundary(_inputs(*view.positions), probes=registry, hints=HINTS)
    assert draft is not None
    assert draft.status == "pending"
    assert draft.tie_breaker is not None
    assert draft.tie_breaker.winner_by_result == {
        "EUR": ("agent:billing",),
        "USD": ("agent:audit",),
    }
    assert draft.digest
    assert len(draft.digest) == 64


def test_case_hints_override_service_hints(registry: ProbeRegistry) -> None:
    view = currency_split()
    case_hint = erp_hint(arguments={"invoice": 9999, "field": "currency"})
    draft = decide_boundary(
        _inputs(*view.positions, hints={"invoice.total:total.currency": case_hint}),
        probes=registry,
        hints=HINTS,
    )
    assert draft is not None
    assert draft.tie_breaker is not None
    assert draft.tie_breaker.arguments["invoice"] == 9999


def test_agreed_sub_conclusions_skip_missing_and_differing_fields() -> None:
    lines = agreed_sub_conclusions(
        [pos("a", {"x": 1, "y": {"z": [1, 2]}, "w": 0.5}), pos("b", {"x": 2, "y": {"z": [1, 2]}})]
    )
    assert lines == ("y.z = [1,2]",)
    assert agreed_sub_conclusions([pos("a", 1), pos("b", 2)]) == ()
