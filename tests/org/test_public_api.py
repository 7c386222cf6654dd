from __future__ import annotations

import accord.org


def test_the_org_room_exports_exactly_its_public_names_in_sorted_order() -> None:
    assert accord.org.__all__ == [
        "DEFAULT_SENIORITY_LEVELS",
        "PANEL_MIN_VITALITY",
        "Agent",
        "Department",
        "LifecycleState",
        "MemberKind",
        "OrgChart",
        "PartyIds",
        "SeniorityScale",
        "department_of_agents",
        "load_org_chart",
        "org_chart_from_mapping",
        "party",
        "shared_department",
    ]


def test_every_exported_name_exists_and_has_a_docstring() -> None:
    for name in accord.org.__all__:
        value = getattr(accord.org, name)
        if callable(value):
            assert value.__doc__, name
