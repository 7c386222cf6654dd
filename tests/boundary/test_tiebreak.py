"""Tie-breakers: hints, registered probes only, no restating the crux, result mappings."""

from __future__ import annotations

import pytest

from accord.boundary import (
    Crux,
    ProbeRegistry,
    Side,
    TieBreaker,
    find_hint,
    hint_keys,
    propose_tie_breaker,
    restates_crux,
    validate_tie_breaker,
    winner_by_answer,
)
from accord.errors import ValidationError

from ._builders import FixedProbe, erp_hint

CRUX = Crux(
    kind="field",
    path="total.currency",
    statement="total.currency — agent:billing says EUR; agent:audit says USD",
)
SIDES = (Side(answer="EUR", agents=("agent:billing",)), Side(answer="USD", agents=("agent:audit",)))


@pytest.fixture
def registry() -> ProbeRegistry:
    registry = ProbeRegistry()
    registry.register(FixedProbe("erp.currency", "EUR"))
    return registry


def test_hint_keys_go_from_most_to_least_specific() -> None:
    assert hint_keys(CRUX, "invoice.total") == (
        "invoice.total:total.currency",
        "*:total.currency",
        "invoice.total",
        "*",
    )
    assert hint_keys(Crux(kind="data_point", statement="x"), "t") == ("t", "*")


def test_find_hint_prefers_the_most_specific() -> None:
    specific, by_path, by_task, anything = (
        erp_hint(description=f"Read the booked currency ({n})") for n in range(4)
    )
    hints = {"*": anything, "invoice.total": by_task, "*:total.currency": by_path}
    assert find_hint(hints, CRUX, "invoice.total") is by_path
    assert (
        find_hint({**hints, "invoice.total:total.currency": specific}, CRUX, "invoice.total")
        is specific
    )
    assert find_hint({"*": anything, "invoice.total": by_task}, CRUX, "invoice.total") is by_task
    assert find_hint({"*": anything}, CRUX, "other") is anything
    assert find_hint({}, CRUX, "other") is None


def test_proposal_fills_the_result_mapping_from_the_sides(registry: ProbeRegistry) -> None:
    tie = propose_tie_breaker(
        CRUX, SIDES, registry, {"invoice.total": erp_hint()}, task_type="invoice.total"
    )
    assert tie is not None
    assert tie.winner_by_result == {"EUR": ("agent:billing",), "USD": ("agent:audit",)}
    assert tie.arguments == {"invoice": 4411, "field": "currency"}


def test_an_explicit_mapping_is_kept(registry: ProbeRegistry) -> None:
    hint = erp_hint(winner_by_result={"booked-in-euro": ("agent:billing",)})
    tie = propose_tie_breaker(CRUX, SIDES, registry, {"*": hint})
    assert tie is hint


def test_no_hint_means_no_tie_breaker(registry: ProbeRegistry) -> None:
    assert propose_tie_breaker(CRUX, SIDES, registry, {}, task_type="invoice.total") is None


def test_unknown_probe_is_refused_listing_the_registered_ones(registry: ProbeRegistry) -> None:
    with pytest.raises(ValidationError) as info:
        propose_tie_breaker(CRUX, SIDES, registry, {"*": erp_hint(probe="crm.lookup")})
    assert info.value.code == "boundary.unknown_probe"
    assert info.value.context["registered"] == ["erp.currency"]


@pytest.mark.parametrize(
    ("fields", "rule"),
    [
        ({"arguments": {}}, "no arguments"),
        ({"description": "Total.Currency"}, "description"),
        ({"description": "**agent:billing says EUR**"}, "description"),
        ({"description": CRUX.statement + "."}, "description"),
        ({"arguments": {"question": CRUX.statement}}, "arguments"),
        ({"arguments": {"about": "total.currency", "what": ["TOTAL.CURRENCY"]}}, "arguments"),
    ],
)
def test_a_tie_breaker_that_only_restates_the_crux_is_refused(
    registry: ProbeRegistry, fields: dict[str, object], rule: str
) -> None:
    hint = erp_hint(**fields)
    assert rule in (restates_crux(hint, CRUX) or "")
    with pytest.raises(ValidationError) as info:
        validate_tie_breaker(hint, CRUX, registry)
    assert info.value.code == "boundary.tie_breaker_restates_crux"


def test_a_real_probe_does_not_restate(registry: ProbeRegistry) -> None:
    hint = erp_hint(arguments={"invoice": "INV-4411", "path": "total.currency"})
    assert restates_crux(hint, CRUX) is None
    validate_tie_breaker(hint, CRUX, registry)


def test_float_arguments_are_refused_when_the_hint_is_built() -> None:
    with pytest.raises(ValidationError) as info:
        TieBreaker(probe="erp.currency", arguments={"tolerance": 0.01}, description="check")
    assert info.value.code == "boundary.invalid_arguments"
    assert info.value.context["path"] == "$.tolerance"


def test_sides_a_result_cannot_tell_apart_are_refused() -> None:
    with pytest.raises(ValidationError) as info:
        winner_by_answer([Side(answer="1", agents=("a",)), Side(answer=1, agents=("b",))])
    assert info.value.code == "boundary.ambiguous_result_mapping"
    assert winner_by_answer(
        [Side(answer=True, agents=("a",)), Side(answer=False, agents=("b", "c"))]
    ) == {
        "true": ("a",),
        "false": ("b", "c"),
    }
