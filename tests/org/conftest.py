"""Fixtures for the org room's tests."""

from __future__ import annotations

import pytest

from accord.org import OrgChart

from ._builders import company


@pytest.fixture
def acme() -> OrgChart:
    """The small company drawn in ``_builders.company``."""
    return company()
