"""Fixtures for the learning room's tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def crowd_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch folder for the synthetic crowds a test module writes (no shared data needed)."""
    return tmp_path_factory.mktemp("crowd")
