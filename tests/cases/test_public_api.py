"""The cases room's public names."""

from __future__ import annotations

import accord.cases as cases


def test_the_case_and_settle_api_is_exported() -> None:
    for name in [
        "Case",
        "CaseStatus",
        "CaseStore",
        "TriageSettings",
        "Decision",
        "DissentRecord",
        "EscalationPayload",
        "Justification",
        "Justifier",
        "SettleRequest",
        "SettleStatus",
        "Settler",
    ]:
        assert name in cases.__all__


def test_every_exported_name_exists() -> None:
    assert all(hasattr(cases, name) for name in cases.__all__)


def test_case_status_has_the_eight_dcp_statuses() -> None:
    assert [s.value for s in cases.CaseStatus] == [
        "open",
        "negotiating",
        "escalated",
        "arbitrating",
        "appealing",
        "resolved",
        "withdrawn",
        "abandoned",
    ]
