"""The room's public names are pinned: adding or removing one is a deliberate change."""

from __future__ import annotations

import accord.approvals


def test_the_exported_names_are_sorted_and_exist() -> None:
    names = accord.approvals.__all__
    assert names == sorted(names, key=lambda n: (not n.isupper(), n))
    for name in names:
        assert hasattr(accord.approvals, name), name
    assert {
        "ApprovalQueue",
        "ApprovalItem",
        "ApprovalDecision",
        "ApprovalStatus",
        "Principal",
        "Parking",
        "TaskHandle",
        "ParkedTask",
        "Resumption",
        "TimeoutPolicy",
        "WaitForever",
        "DenyAfter",
        "Tiered",
        "EscalationChain",
        "policy_from_mapping",
        "next_deadline",
        "on_deadline",
    } <= set(names)
