from __future__ import annotations

import pydantic
import pytest

from accord.org import Department


def test_a_department_without_a_parent_is_a_root() -> None:
    assert Department(name="executive").parent is None


def test_a_department_names_its_parent() -> None:
    assert Department(name="backend", parent="engineering").parent == "engineering"


def test_a_department_cannot_be_its_own_parent() -> None:
    with pytest.raises(pydantic.ValidationError, match="cannot be its own parent"):
        Department(name="backend", parent="backend")


@pytest.mark.parametrize("name", ["", "back end"])
def test_a_department_name_is_a_name_without_whitespace(name: str) -> None:
    with pytest.raises(pydantic.ValidationError):
        Department(name=name)


def test_a_department_is_frozen() -> None:
    department = Department(name="backend")
    with pytest.raises(pydantic.ValidationError):
        department.parent = "engineering"  # type: ignore[misc]
