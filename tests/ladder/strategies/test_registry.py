"""The registry: built-ins, names, and third-party strategies isolated when they misbehave."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from accord.errors import ValidationError
from accord.ladder import (
    BUILTIN_STRATEGIES,
    ENTRY_POINT_GROUP,
    ConflictResolver,
    StrategyRegistry,
    builtin_resolvers,
    run_isolated,
)
from accord.ladder.registry import EntryPointSource

from . import _plugins
from ._builders import context, two_sides

PLUGIN_DIST = Path(__file__).parent / "plugin_dist"
BUILTINS = ("authority", "debate", "human", "hybrid")


def points(**values: str) -> EntryPointSource:
    """An entry-point source listing ``name = value`` pairs of the strategies group."""

    def source(group: str) -> list[EntryPoint]:
        assert group == ENTRY_POINT_GROUP
        return [EntryPoint(name=name, value=value, group=group) for name, value in values.items()]

    return source


def test_the_four_built_ins_are_registered_by_default() -> None:
    registry = StrategyRegistry.with_defaults(discover=False)

    assert registry.names() == BUILTINS
    assert tuple(sorted(BUILTIN_STRATEGIES)) == BUILTINS
    assert [r.name for r in builtin_resolvers()] == list(BUILTINS)
    assert "debate" in registry
    assert registry.get("human").name == "human"


def test_an_unknown_name_is_refused_with_the_valid_names_listed() -> None:
    registry = StrategyRegistry.with_defaults(discover=False)

    with pytest.raises(ValidationError) as raised:
        registry.get("coin-flip")

    assert raised.value.code == "strategies.unknown"
    assert raised.value.message == (
        "unknown strategy 'coin-flip'; valid strategies: authority, debate, human, hybrid"
    )
    assert raised.value.context["valid"] == list(BUILTINS)


def test_a_second_strategy_with_a_taken_name_is_refused() -> None:
    registry = StrategyRegistry()
    registry.register(_plugins.EchoStrategy())

    with pytest.raises(ValidationError) as raised:
        registry.register(_plugins.EchoStrategy())

    assert raised.value.code == "strategies.duplicate"


@pytest.mark.parametrize(
    ("candidate", "problem"),
    [
        (object(), "lacks the ConflictResolver protocol"),
        (_plugins.BadlyNamed(), "strategy name 'Bad Name' must match"),
        (_plugins.SyncStrategy(), "resolve must be an async method"),
    ],
)
def test_something_that_is_not_a_proper_strategy_is_refused(
    candidate: object, problem: str
) -> None:
    with pytest.raises(ValidationError) as raised:
        StrategyRegistry().register(candidate)  # type: ignore[arg-type]

    assert raised.value.code == "strategies.invalid_resolver"
    assert problem in raised.value.message


def test_entry_points_may_name_a_class_a_factory_or_an_instance() -> None:
    registry = StrategyRegistry()

    added = registry.discover(
        entry_points=points(echo="tests.ladder.strategies._plugins:EchoStrategy"),
    )
    other = StrategyRegistry()
    other.discover(entry_points=points(echo="tests.ladder.strategies._plugins:make_echo"))
    third = StrategyRegistry()
    third.discover(entry_points=points(echo="tests.ladder.strategies._plugins:ECHO_INSTANCE"))

    assert added == ("echo",)
    assert other.names() == third.names() == ("echo",)
    assert third.get("echo") is _plugins.ECHO_INSTANCE


def test_misbehaving_plugins_are_skipped_and_reported_never_fatal() -> None:
    source = points(
        echo="tests.ladder.strategies._plugins:EchoStrategy",
        missing="tests.ladder.strategies.no_such_module:Strategy",
        nothing="tests.ladder.strategies._plugins:make_nothing",
        renamed="tests.ladder.strategies._plugins:make_echo",
        authority="tests.ladder.strategies._plugins:make_echo",
    )

    registry = StrategyRegistry.with_defaults(entry_points=source)

    assert registry.names() == (*BUILTINS[:2], "echo", *BUILTINS[2:])
    errors = {error.name: error.error for error in registry.plugin_errors}
    assert set(errors) == {"missing", "nothing", "renamed", "authority"}
    assert errors["missing"].startswith("ModuleNotFoundError")
    assert "lacks the ConflictResolver protocol" in errors["nothing"]
    assert "entry point 'renamed' loads a strategy named 'echo'" in errors["renamed"]
    assert "entry point 'authority' loads a strategy named 'echo'" in errors["authority"]
    assert registry.plugin_errors[0].value == "tests.ladder.strategies.no_such_module:Strategy"


@pytest.fixture
def installed_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The plugin distribution built and pip-installed (offline) into a private target."""
    source = tmp_path / "plugin_dist"
    shutil.copytree(PLUGIN_DIST, source, ignore=shutil.ignore_patterns("__pycache__", "build"))
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-index",
            "--no-build-isolation",
            "--no-deps",
            "--target",
            str(target),
            str(source),
        ],
        check=True,
        capture_output=True,
        cwd=tmp_path,
    )
    monkeypatch.syspath_prepend(str(target))
    importlib.invalidate_caches()
    yield target
    for module in ("accord_coin_plugin", "accord_broken_plugin"):
        sys.modules.pop(module, None)


@pytest.mark.anyio
async def test_an_installed_plugin_distribution_is_discovered_and_runs(
    installed_plugin: Path,
) -> None:
    registry = StrategyRegistry.with_defaults()

    assert "coin" in registry.names()
    coin = registry.get("coin")
    assert isinstance(coin, ConflictResolver)
    case = two_sides()
    outcome = await run_isolated(coin, case, context())
    assert outcome.status == "decided"
    assert outcome.winner == "agent:dev-1"
    assert [d.agent_id for d in coin.log_dissent(case, outcome)] == ["agent:dev-2"]
    errors = {error.name: error.error for error in registry.plugin_errors}
    assert errors["broken"] == "RuntimeError: the broken plugin cannot load"
    assert "lacks the ConflictResolver protocol" in errors["hollow"]
    assert not (PLUGIN_DIST / "build").exists()


@pytest.mark.anyio
async def test_an_exception_inside_a_strategy_becomes_an_escalation() -> None:
    outcome = await run_isolated(_plugins.ExplodingStrategy(), two_sides(), context())

    assert outcome.status == "escalated"
    assert outcome.strategy == "exploding"
    assert outcome.escalation_reason == (
        "strategy 'exploding' failed: RuntimeError: the plugin blew up"
    )


@pytest.mark.anyio
async def test_a_strategy_returning_no_outcome_becomes_an_escalation() -> None:
    outcome = await run_isolated(_plugins.SloppyStrategy(), two_sides(), context())

    assert outcome.escalation_reason == "strategy 'sloppy' returned str, not a StrategyOutcome"


@pytest.mark.anyio
async def test_a_well_behaved_strategys_outcome_passes_through_unchanged() -> None:
    outcome = await run_isolated(_plugins.EchoStrategy(), two_sides(), context())

    assert outcome.escalation_reason == "echo"
