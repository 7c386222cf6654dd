from __future__ import annotations

import pytest

from accord.conflicts import Severity


def test_severities_are_ordered_by_gravity_not_alphabetically() -> None:
    assert Severity.LOW < Severity.MEDIUM < Severity.HIGH < Severity.CRITICAL
    assert sorted(Severity, reverse=True)[0] is Severity.CRITICAL
    assert max(Severity.HIGH, Severity.CRITICAL) is Severity.CRITICAL
    assert Severity.CRITICAL >= Severity.HIGH >= Severity.HIGH
    assert Severity.LOW <= Severity.LOW
    assert Severity.CRITICAL > Severity.HIGH
    assert [severity.rank for severity in Severity] == [0, 1, 2, 3]


def test_a_severity_compares_with_the_name_of_a_severity() -> None:
    assert Severity.HIGH > "medium"
    assert Severity.LOW < "critical"


def test_a_severity_refuses_to_compare_with_anything_else() -> None:
    with pytest.raises(TypeError):
        assert Severity.HIGH < "urgent"
    with pytest.raises(TypeError):
        assert Severity.HIGH < 3  # type: ignore[operator]
