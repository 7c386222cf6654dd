"""The ``arbitrators:`` section of accord.yaml (R10, R35, R39): checked when it is loaded."""

from __future__ import annotations

from typing import Any

import pytest

from accord.config import settings_from_mapping
from accord.errors import ConfigError

from ._world import pool_settings


def _members(count: int, organizations: tuple[str, ...] = ("acme", "initech")) -> list[Any]:
    return [
        {
            "agent_id": f"arb:{i}",
            "principal_id": f"human:{i}",
            "organization_id": organizations[i % len(organizations)],
            "vitality": 900,
        }
        for i in range(count)
    ]


def test_r39_the_threshold_is_configurable_and_defaults_to_two_of_three() -> None:
    assert pool_settings().panel_threshold().model_dump() == {"m": 2, "n": 3}
    settings = settings_from_mapping(
        {"arbitrators": {"members": _members(5), "threshold": {"m": 3, "n": 5}}}, source="t.yaml"
    )
    assert settings.arbitrators is not None
    assert settings.arbitrators.panel_threshold().model_dump() == {"m": 3, "n": 5}


@pytest.mark.parametrize(
    ("section", "names"),
    [
        ({"members": _members(3), "threshold": {"m": 1, "n": 3}}, "R10"),
        ({"members": _members(3), "threshold": {"m": 3, "n": 4}}, "R10"),
        ({"members": _members(2)}, "at least 3"),
        ({"members": _members(3, ("acme",))}, "R35"),
        ({"members": _members(501)}, "at most 500"),
        ({"members": _members(3), "interaction_window_days": -1}, "greater than or equal to 0"),
    ],
)
def test_r10_a_bad_arbitrators_section_fails_at_load_naming_the_rule(
    section: dict[str, Any], names: str
) -> None:
    with pytest.raises(ConfigError) as failed:
        settings_from_mapping({"arbitrators": section}, source="t.yaml")
    assert "arbitrators" in failed.value.message
    assert names in failed.value.message


def test_r35_a_declared_single_organisation_pool_is_accepted_and_says_so() -> None:
    settings = settings_from_mapping(
        {"arbitrators": {"members": _members(3, ("acme",)), "single_organization": True}},
        source="t.yaml",
    )
    assert settings.arbitrators is not None
    pool = settings.arbitrators.pool()
    assert pool.single_organization
    assert not pool.spans_organizations
