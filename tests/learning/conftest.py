"""Fixtures for the learning room's tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import shared_dir


@pytest.fixture(scope="session")
def crowd_dir() -> Path:
    """``shared/data/crowd``; tests that need it skip with a visible reason where it is absent."""
    base = shared_dir()
    if base is None or not (base / "data" / "crowd").is_dir():
        pytest.skip("../shared/data/crowd is absent (set ACCORD_SHARED_DIR): crowd tests not run")
    return base / "data" / "crowd"
