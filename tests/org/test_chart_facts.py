from __future__ import annotations

import pytest

from accord.errors import NotFound, ValidationError
from accord.org import LifecycleState, OrgChart

from ._builders import chart, member


def test_rank_of_is_the_members_seniority_rank(acme: OrgChart) -> None:
    assert acme.rank_of("human:ceo") == 7
    assert acme.rank_of("agent:backend-2") == 1


def test_a_more_senior_member_outranks_a_less_senior_one(acme: OrgChart) -> None:
    assert acme.outranks("agent:cto", "agent:backend")
    assert not acme.outranks("agent:backend", "agent:cto")


def test_equal_seniority_outranks_neither_way(acme: OrgChart) -> None:
    assert not acme.outranks("agent:cto", "agent:cfo")
    assert not acme.outranks("agent:cfo", "agent:cto")


def test_outranks_of_an_unknown_member_is_not_found(acme: OrgChart) -> None:
    with pytest.raises(NotFound):
        acme.outranks("agent:cto", "agent:nobody")


def test_an_unrelated_member_with_another_principal_is_independent(acme: OrgChart) -> None:
    assert acme.is_independent_of("agent:lab", ["agent:billing", "agent:audit"])
    assert acme.independence_conflicts("agent:lab", ["agent:billing", "agent:audit"]) == ()


def test_a_party_is_not_independent_of_its_own_case(acme: OrgChart) -> None:
    assert acme.independence_conflicts("agent:billing", ["agent:billing", "agent:audit"]) == (
        "agent:billing is a party",
    )
    assert not acme.is_independent_of("agent:billing", ["agent:billing", "agent:audit"])


def test_a_manager_of_a_party_is_not_independent(acme: OrgChart) -> None:
    assert acme.independence_conflicts("agent:cfo", ["agent:billing", "agent:backend"]) == (
        "agent:cfo manages agent:billing",
    )


def test_a_report_of_a_party_is_not_independent(acme: OrgChart) -> None:
    assert acme.independence_conflicts("agent:backend", ["agent:cto", "agent:billing"]) == (
        "agent:backend reports to agent:cto",
    )


def test_a_shared_principal_breaks_independence_unless_allowed() -> None:
    org = chart(
        [
            member("agent:judge", principal="human:pat"),
            member("agent:a", principal="human:pat"),
            member("agent:b"),
        ]
    )
    assert org.independence_conflicts("agent:judge", ["agent:a", "agent:b"]) == (
        "agent:judge shares principal human:pat with agent:a",
    )
    assert org.is_independent_of(
        "agent:judge", ["agent:a", "agent:b"], shared_principal_forbidden=False
    )


def test_independence_accepts_any_iterable_of_parties_and_ignores_repeats(acme: OrgChart) -> None:
    parties = (party for party in ["agent:billing", "agent:billing"])
    assert acme.independence_conflicts("agent:cfo", parties) == ("agent:cfo manages agent:billing",)


def test_independence_needs_at_least_one_party(acme: OrgChart) -> None:
    with pytest.raises(ValidationError) as caught:
        acme.is_independent_of("agent:lab", [])
    assert caught.value.code == "org.invalid_parties"


def test_a_single_string_is_not_mistaken_for_a_list_of_parties(acme: OrgChart) -> None:
    with pytest.raises(ValidationError) as caught:
        acme.is_independent_of("agent:lab", "agent:billing")
    assert caught.value.code == "org.invalid_parties"


def test_independence_of_or_from_unknown_members_is_not_found(acme: OrgChart) -> None:
    with pytest.raises(NotFound):
        acme.is_independent_of("agent:nobody", ["agent:billing"])
    with pytest.raises(NotFound):
        acme.is_independent_of("agent:lab", ["agent:nobody"])


@pytest.mark.parametrize(
    ("vitality", "state", "eligible"),
    [
        (601, LifecycleState.ACTIVE, True),
        (1000, LifecycleState.ACTIVE, True),
        (600, LifecycleState.ACTIVE, False),
        (0, LifecycleState.ACTIVE, False),
        (900, LifecycleState.COMMISSIONED, False),
        (900, LifecycleState.DECLINING, False),
        (900, LifecycleState.SUSPENDED, False),
        (900, LifecycleState.DECOMMISSIONED, False),
    ],
)
def test_panel_members_are_active_with_vitality_above_600(
    vitality: int, state: LifecycleState, eligible: bool
) -> None:
    org = chart([member("agent:a", vitality=vitality, lifecycle_state=state)])
    assert org.eligible_for_panel("agent:a") is eligible


def test_the_panel_vitality_bar_can_be_raised(acme: OrgChart) -> None:
    org = chart([member("agent:a", vitality=800)])
    assert org.eligible_for_panel("agent:a", min_vitality=799)
    assert not org.eligible_for_panel("agent:a", min_vitality=800)


@pytest.mark.parametrize("bar", [-1, 1001, True, 600.5])
def test_the_panel_vitality_bar_must_lie_on_the_scale(acme: OrgChart, bar: object) -> None:
    with pytest.raises(ValidationError) as caught:
        acme.eligible_for_panel("agent:lab", min_vitality=bar)  # type: ignore[arg-type]
    assert caught.value.code == "org.invalid_min_vitality"


def test_panel_eligibility_of_an_unknown_member_is_not_found(acme: OrgChart) -> None:
    with pytest.raises(NotFound):
        acme.eligible_for_panel("agent:nobody")
