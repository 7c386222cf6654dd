"""``import accord`` imports no framework, and an adapter refuses a framework that is missing
or outside the versions it supports, naming the installed and supported versions."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata

import pytest

from accord.errors import AccordError
from accord.integrations import require_framework

FRAMEWORKS = ("langgraph", "langchain_core", "mcp", "agents", "openai")


def test_importing_accord_imports_no_framework() -> None:
    probe = (
        "import sys, accord, accord.integrations; "
        "from accord import Accord, Position; "
        f"print(sorted(m for m in {FRAMEWORKS!r} if m in sys.modules))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert shown.stdout.strip() == "[]"


def test_the_installed_langgraph_is_supported() -> None:
    installed = require_framework("langgraph", minimum="1.2", below="2", extra="langgraph")
    assert installed == metadata.version("langgraph")


def test_an_unsupported_version_names_the_installed_and_supported_versions() -> None:
    with pytest.raises(AccordError) as refused:
        require_framework("langgraph", minimum="2", below="3", extra="langgraph")
    assert refused.value.code == "integrations.unsupported_version"
    assert refused.value.context["installed"] == metadata.version("langgraph")
    assert refused.value.context["supported"] == ">=2,<3"
    assert "accord[langgraph]" in refused.value.message


def test_a_missing_framework_names_the_extra_to_install() -> None:
    with pytest.raises(AccordError) as refused:
        require_framework("no-such-framework-xyz", minimum="1", below="2", extra="langgraph")
    assert refused.value.code == "integrations.missing_extra"
    assert "pip install 'accord[langgraph]'" in refused.value.message


@pytest.mark.parametrize(
    ("minimum", "below", "fits"),
    [("1.2", "2", True), ("1.2.30", "2", False), ("0.1", "1.2", False)],
)
def test_the_version_range_is_half_open(minimum: str, below: str, fits: bool) -> None:
    installed = metadata.version("langgraph")  # 1.2.x
    assert installed.startswith("1.2.")
    if fits:
        assert require_framework("langgraph", minimum=minimum, below=below, extra="x") == installed
    else:
        with pytest.raises(AccordError):
            require_framework("langgraph", minimum=minimum, below=below, extra="x")


def test_only_the_openai_agents_adapter_imports_the_agents_sdk() -> None:
    probe = (
        "import sys, accord.app, accord.audit, accord.integrations; "
        "before = 'agents' in sys.modules; "
        "import accord.integrations.openai_agents as adapter; "
        "print(before, 'agents' in sys.modules, adapter.OPENAI_AGENTS_VERSION)"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert shown.stdout.split() == ["False", "True", metadata.version("openai-agents")]
