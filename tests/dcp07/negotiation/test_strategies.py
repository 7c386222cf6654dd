"""R8's negotiation strategies: time-sharing, priority and capability."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord.dcp07.negotiation import (
    NegotiationRefused,
    by_capability,
    by_priority,
    relevance,
    time_sharing,
)

START = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def test_r08_time_sharing_gives_round_robin_slots_in_agent_id_order() -> None:
    share = time_sharing(
        ["agent:c", "agent:a", "agent:b"], starts_at=START, slot=timedelta(hours=1), rounds=2
    )
    assert share.order.order == ("agent:a", "agent:b", "agent:c")
    assert share.order.decided
    assert [s.agent_id for s in share.slots] == ["agent:a", "agent:b", "agent:c"] * 2
    assert share.slots[0].starts_at == START
    assert all(a.ends_at == b.starts_at for a, b in zip(share.slots, share.slots[1:], strict=False))
    assert share.slots[-1].ends_at == START + timedelta(hours=6)


def test_r08_time_sharing_rotates_who_goes_first() -> None:
    parties = ["agent:a", "agent:b", "agent:c"]
    firsts = [
        time_sharing(parties, starts_at=START, slot=timedelta(minutes=5), rotation=r).order.first
        for r in range(4)
    ]
    assert firsts == ["agent:a", "agent:b", "agent:c", "agent:a"]


def test_r08_time_sharing_refuses_empty_slots_and_single_parties() -> None:
    with pytest.raises(NegotiationRefused) as excinfo:
        time_sharing(["agent:a", "agent:b"], starts_at=START, slot=timedelta(0))
    assert excinfo.value.context == {
        "requirement": "R8",
        "field": "slot",
        "rule": "slot > 0 and rounds >= 1",
    }
    with pytest.raises(NegotiationRefused):
        time_sharing(["agent:a"], starts_at=START, slot=timedelta(minutes=1))


def test_r08_priority_follows_a_principal_directive_over_policy() -> None:
    order = by_priority(
        ["agent:a", "agent:b", "agent:c"],
        policy={"agent:a": 9, "agent:b": 1},
        directive=["agent:b"],
    )
    assert order.order == ("agent:b", "agent:a", "agent:c")
    assert order.first == "agent:b"
    assert "directive" in order.rationale


def test_r08_priority_falls_back_to_policy_rank() -> None:
    order = by_priority(["agent:a", "agent:b"], policy={"agent:a": 1, "agent:b": 5})
    assert order.first == "agent:b"
    assert "policy" in order.rationale


def test_r08_priority_without_a_separating_rank_is_a_tie_not_a_decision() -> None:
    tied = by_priority(["agent:b", "agent:a"], policy={"agent:a": 3, "agent:b": 3})
    assert not tied.decided
    assert tied.first is None
    assert tied.order == ("agent:a", "agent:b")
    assert not by_priority(["agent:a", "agent:b"]).decided


def test_r08_a_directive_naming_a_non_party_is_refused() -> None:
    with pytest.raises(NegotiationRefused) as excinfo:
        by_priority(["agent:a", "agent:b"], directive=["agent:z"])
    assert excinfo.value.code == "negotiation.bad_priority"
    assert excinfo.value.context["outsiders"] == ["agent:z"]


def test_r08_capability_puts_the_most_relevant_capability_first() -> None:
    order = by_capability(
        {
            "agent:a": ["python"],
            "agent:b": ["sql"],
            "agent:c": ["python", "docs"],
        },
        required=["sql", "python", "docs"],
    )
    assert order.order == ("agent:b", "agent:c", "agent:a")
    assert order.decided
    assert "sql" in order.rationale


def test_r08_capability_weights_earlier_requirements_above_any_later_ones() -> None:
    required = ["a", "b", "c", "d"]
    assert relevance(["a"], required) > relevance(["b", "c", "d"], required)
    assert relevance([], required) == 0


def test_r08_equally_relevant_capabilities_are_a_tie() -> None:
    order = by_capability({"agent:b": ["sql"], "agent:a": ["sql"]}, required=["sql"])
    assert not order.decided
    assert order.order == ("agent:a", "agent:b")


def test_r08_capability_needs_named_requirements() -> None:
    with pytest.raises(NegotiationRefused) as excinfo:
        by_capability({"agent:a": [], "agent:b": []}, required=[])
    assert excinfo.value.code == "negotiation.bad_required_capabilities"


AGENTS = ["agent:a", "agent:b", "agent:c", "agent:d"]


@given(
    ranks=st.dictionaries(st.sampled_from(AGENTS), st.integers(-3, 3)),
    directive=st.lists(st.sampled_from(AGENTS), unique=True, max_size=2),
)
def test_r08_priority_decides_for_the_directive_else_a_unique_top_rank(
    ranks: dict[str, int], directive: list[str]
) -> None:
    order = by_priority(AGENTS, policy=ranks, directive=directive)
    assert sorted(order.order) == AGENTS
    if directive:
        assert order.first == directive[0]
        return
    top = max(ranks.values(), default=None)
    leaders = [a for a, r in ranks.items() if r == top]
    assert order.first == (leaders[0] if len(leaders) == 1 else None)


@given(
    holdings=st.fixed_dictionaries(
        {a: st.lists(st.sampled_from(["sql", "python", "docs", "ops"]), max_size=3) for a in AGENTS}
    )
)
def test_r08_capability_decides_exactly_when_one_party_is_most_relevant(
    holdings: dict[str, list[str]],
) -> None:
    required = ["sql", "python", "docs"]
    order = by_capability(holdings, required=required)
    scores = {a: relevance(c, required) for a, c in holdings.items()}
    best = max(scores.values())
    leaders = [a for a, s in scores.items() if s == best]
    assert order.first == (leaders[0] if len(leaders) == 1 else None)
    assert [scores[a] for a in order.order] == sorted(scores.values(), reverse=True)
