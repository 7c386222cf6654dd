from __future__ import annotations

from typing import Any

import pydantic
import pytest

from accord.org import Agent, LifecycleState, MemberKind

REQUIRED: dict[str, Any] = {
    "agent_id": "agent:billing",
    "principal_id": "human:controller",
    "organization_id": "acme",
    "department": "billing",
    "seniority": "senior",
}


def error_fields(exc: pydantic.ValidationError) -> list[tuple[str | int, ...]]:
    return [error["loc"] for error in exc.errors()]


def test_an_agent_defaults_to_an_active_full_vitality_agent_without_a_manager() -> None:
    agent = Agent(**REQUIRED)
    assert agent.kind is MemberKind.AGENT
    assert agent.lifecycle_state is LifecycleState.ACTIVE
    assert agent.vitality == 1000
    assert agent.manager is None
    assert agent.capabilities == ()
    assert not agent.is_human


def test_a_human_member_says_so() -> None:
    assert Agent(**{**REQUIRED, "kind": "human"}).is_human


def test_lifecycle_states_and_member_kinds_are_the_dcp_names() -> None:
    assert [state.value for state in LifecycleState] == [
        "commissioned",
        "active",
        "declining",
        "suspended",
        "decommissioned",
    ]
    assert [kind.value for kind in MemberKind] == ["agent", "human"]


@pytest.mark.parametrize("field", sorted(REQUIRED))
def test_every_required_field_is_named_when_missing(field: str) -> None:
    data = {key: value for key, value in REQUIRED.items() if key != field}
    with pytest.raises(pydantic.ValidationError) as caught:
        Agent(**data)
    assert error_fields(caught.value) == [(field,)]


@pytest.mark.parametrize("field", ["agent_id", "principal_id", "department", "manager"])
@pytest.mark.parametrize("bad", ["", "agent billing", " agent:x", "\t"])
def test_names_must_be_non_empty_and_free_of_whitespace(field: str, bad: str) -> None:
    with pytest.raises(
        pydantic.ValidationError, match="non-empty name without whitespace"
    ) as caught:
        Agent(**{**REQUIRED, field: bad})
    assert error_fields(caught.value) == [(field,)]


def test_a_name_must_be_a_string_not_a_number() -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        Agent(**{**REQUIRED, "agent_id": 42})
    assert error_fields(caught.value) == [("agent_id",)]


@pytest.mark.parametrize("vitality", [-1, 1001])
def test_vitality_lies_on_the_dcp_scale_from_0_to_1000(vitality: int) -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        Agent(**REQUIRED, vitality=vitality)
    assert error_fields(caught.value) == [("vitality",)]


@pytest.mark.parametrize("vitality", [0, 600, 1000])
def test_vitality_accepts_the_scale_ends(vitality: int) -> None:
    assert Agent(**REQUIRED, vitality=vitality).vitality == vitality


@pytest.mark.parametrize("vitality", ["900", 900.0, True])
def test_vitality_must_be_a_real_integer(vitality: object) -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        Agent(**REQUIRED, vitality=vitality)  # type: ignore[arg-type]
    assert error_fields(caught.value) == [("vitality",)]


def test_an_agent_cannot_be_its_own_manager() -> None:
    with pytest.raises(pydantic.ValidationError, match="cannot be its own manager") as caught:
        Agent(**REQUIRED, manager="agent:billing")
    assert error_fields(caught.value) == [("manager",)]


def test_an_unknown_lifecycle_state_is_named() -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        Agent(**REQUIRED, lifecycle_state="retired")
    assert error_fields(caught.value) == [("lifecycle_state",)]


def test_capabilities_are_names_and_a_bad_one_is_located() -> None:
    assert Agent(**REQUIRED, capabilities=["invoicing"]).capabilities == ("invoicing",)
    with pytest.raises(pydantic.ValidationError) as caught:
        Agent(**REQUIRED, capabilities=("invoicing", ""))
    assert error_fields(caught.value) == [("capabilities", 1)]


def test_unknown_fields_are_refused() -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        Agent(**REQUIRED, colour="blue")  # type: ignore[call-arg]
    assert error_fields(caught.value) == [("colour",)]


def test_an_agent_is_frozen() -> None:
    agent = Agent(**REQUIRED)
    with pytest.raises(pydantic.ValidationError):
        agent.vitality = 10  # type: ignore[misc]
