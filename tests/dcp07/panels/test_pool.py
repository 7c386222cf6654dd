"""The pre-approved arbitrator pool (R10, R35) and the M-of-N threshold (R10, R39)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord.dcp07.panels import ArbitratorPool, PanelRefused, PanelThreshold

from ._builders import member, pool, refused


def test_r35_a_pool_from_one_organisation_is_refused() -> None:
    with pytest.raises(PanelRefused) as excinfo:
        ArbitratorPool.of([member(f"arb:{i}") for i in range(4)])
    refused(excinfo, "panels.single_organization_pool", "R35")


def test_r35_a_single_organisation_pool_declared_as_such_is_flagged() -> None:
    flagged = ArbitratorPool.of([member(f"arb:{i}") for i in range(4)], single_organization=True)
    assert flagged.single_organization
    assert not flagged.spans_organizations


def test_r35_a_pool_across_organisations_spans_them() -> None:
    spanning = pool()
    assert spanning.spans_organizations
    assert not spanning.single_organization
    assert [m.agent_id for m in spanning.members] == sorted(m.agent_id for m in spanning.members)


def test_r10_a_pool_too_small_for_a_panel_of_three_is_refused() -> None:
    with pytest.raises(PanelRefused) as excinfo:
        ArbitratorPool.of([member("arb:1"), member("arb:2", organization_id="initech")])
    refused(excinfo, "panels.pool_too_small", "R10")


def test_r10_a_pool_lists_each_arbitrator_once() -> None:
    with pytest.raises(PanelRefused) as excinfo:
        pool(member("arb:00"))
    refused(excinfo, "panels.duplicate_pool_member", "R10")
    assert excinfo.value.context["agent_ids"] == ["arb:00"]


def test_r10_a_candidate_outside_the_pool_is_refused() -> None:
    with pytest.raises(PanelRefused) as excinfo:
        pool().member("arb:stranger")
    refused(excinfo, "panels.not_in_pool", "R10")


def test_r10_the_default_threshold_is_2_of_3() -> None:
    assert (PanelThreshold().m, PanelThreshold().n) == (2, 3)


@pytest.mark.parametrize(
    ("m", "n", "rule"),
    [
        (2, 2, "at least 3 members"),
        (4, 3, "between 1 and n"),
        (0, 3, "between 1 and n"),
        (2, 4, "strict majority"),
        (1, 3, "strict majority"),
    ],
)
def test_r39_an_impossible_or_ambiguous_threshold_is_refused(m: int, n: int, rule: str) -> None:
    with pytest.raises(PanelRefused) as excinfo:
        PanelThreshold.of(m, n)
    refused(excinfo, "panels.bad_threshold", "R10")
    assert rule in excinfo.value.context["rule"]


def test_r39_thresholds_are_configurable() -> None:
    assert PanelThreshold.of(3, 5) == PanelThreshold(m=3, n=5)
    assert PanelThreshold.of(5, 5).m == 5


@given(n=st.integers(3, 30), m=st.integers(-2, 32))
def test_r39_an_accepted_threshold_lets_only_one_side_reach_m(n: int, m: int) -> None:
    try:
        threshold = PanelThreshold.of(m, n)
    except PanelRefused:
        assert n < 3 or m < 1 or m > n or 2 * m <= n
        return
    for approvals in range(n + 1):
        assert not (approvals >= threshold.m and n - approvals >= threshold.m)
