from __future__ import annotations

import pytest

from accord.learning import root_cause_report

from ._builders import outcome


def test_causes_are_grouped_largest_first_with_unknown_for_missing_ones() -> None:
    outcomes = [
        outcome("c1", cause="stale_data", kind="numerical_inconsistency"),
        outcome("c2", cause="stale_data", kind="direct_contradiction"),
        outcome("c3", cause="stale_data", kind="numerical_inconsistency"),
        outcome("c4", cause=None),
        outcome("c5", cause="wrong_assumption"),
        outcome("c6", cause="wrong_assumption"),
    ]
    report = root_cause_report(outcomes)
    assert report.total == 6
    assert [(g.cause, g.count) for g in report.groups] == [
        ("stale_data", 3),
        ("wrong_assumption", 2),
        ("unknown", 1),
    ]
    stale = report.groups[0]
    assert stale.share == pytest.approx(0.5)
    assert stale.kinds == {"direct_contradiction": 1, "numerical_inconsistency": 2}
    assert stale.example_case_ids == ("c1", "c2", "c3")


def test_groups_of_equal_size_are_ordered_by_cause_and_keep_three_examples() -> None:
    outcomes = [outcome(f"z{i}", cause="zeta") for i in range(4)]
    outcomes += [outcome(f"a{i}", cause="alpha") for i in range(4)]
    report = root_cause_report(outcomes)
    assert [g.cause for g in report.groups] == ["alpha", "zeta"]
    assert report.groups[1].example_case_ids == ("z0", "z1", "z2")


def test_no_outcomes_give_an_empty_report() -> None:
    report = root_cause_report([])
    assert (report.total, report.groups) == (0, [])
