"""The composition root injects its parts, reads the environment in one place, and an ``Accord``
is never patched afterwards (nothing assigns to it; no test or benchmark reaches into it)."""

from __future__ import annotations

import ast
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml

from accord import (
    Accord,
    Conflict,
    ResolverBase,
    ScriptedModel,
    SettleStatus,
    StrategyContext,
    StrategyOutcome,
    StrategyRegistry,
    VerifierRegistry,
)
from accord.app import AccordParts
from accord.clock import FrozenClock
from accord.config import load_config
from accord.errors import ConfigError
from tests.conftest import REPO_ROOT
from tests.e2e._support import (
    contradiction,
    copy_example_org,
    expected_usage,
    first_group_wins,
)

CONTRADICTION = contradiction("agent:x", "agent:y")


class LastAgentWins(ResolverBase):
    """A strategy only this test knows (no entry point): the last group's first agent wins."""

    name = "last_agent_wins"

    async def resolve(self, dispute: Conflict, ctx: StrategyContext) -> StrategyOutcome:
        last = len(dispute.detection.groups) - 1
        return StrategyOutcome(
            strategy=self.name,
            status="decided",
            group=last,
            winner=dispute.detection.groups[last].agents[0],
            confidence=0.5,
            reasoning="the last word",
            decided_by=self.name,
        )


def _config(tmp_path: Path, body: dict[str, object]) -> Path:
    path = tmp_path / "accord.yaml"
    path.write_text(yaml.safe_dump(body), encoding="utf-8")
    return path


def _critical_strategy(strategy: str) -> dict[str, object]:
    """A policy letting ``strategy`` settle critical contradictions no source verified."""
    return {
        "strategy": strategy,
        "conflict_types": {"direct_contradiction": {"critical_without_source": "strategy"}},
    }


def test_injected_strategies_replace_the_installed_ones_and_settle_the_case(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock
) -> None:
    config = _config(tmp_path, {"conflict_resolution": _critical_strategy("last_agent_wins")})
    with pytest.raises(ConfigError):  # unknown to the built-ins and the installed plugins
        Accord.open(config, db_url=database_url, keys_dir=tmp_path / "k", clock=frozen_clock)
    strategies = StrategyRegistry.with_defaults(discover=False)
    strategies.register(LastAgentWins())

    accord = Accord.open(
        config,
        db_url=database_url,
        keys_dir=tmp_path / "k",
        clock=frozen_clock,
        strategies=strategies,
    )
    try:
        case = accord.settle("Ship it?", CONTRADICTION)
    finally:
        accord.close()

    assert case.strategy == "last_agent_wins"
    assert case.status is SettleStatus.SETTLED
    assert case.decision is not None
    assert case.decision.winner == "agent:y"


def test_an_injected_model_is_the_one_strategies_call_instead_of_the_configured_one(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock
) -> None:
    config = _config(
        tmp_path,
        {
            "org": copy_example_org(tmp_path),
            "conflict_resolution": _critical_strategy("debate"),
            "model": {"provider": "scripted", "model": "configured", "script": []},
        },
    )
    model = ScriptedModel(["qa argues", "frontend argues", *first_group_wins()], name="injected")

    accord = Accord.open(
        config, db_url=database_url, keys_dir=tmp_path / "k", clock=frozen_clock, model=model
    )
    try:
        case = accord.settle("Ship it?", contradiction("agent:frontend", "agent:qa"))
        assert accord.model is model
    finally:
        accord.close()

    assert case.strategy == "debate"
    assert case.decision is not None
    assert case.decision.winner == "agent:frontend"
    assert expected_usage(model) == (case.tokens_in, 4)


def test_from_config_takes_a_loaded_config_an_injected_clock_verifiers_and_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ACCORD_DB", f"sqlite:///{tmp_path / 'from-os-environ.db'}")
    monkeypatch.setenv("ACCORD_KEYS", str(tmp_path / "from-os-environ-keys"))
    clock = FrozenClock(datetime(2030, 1, 2, 3, 4, tzinfo=UTC))
    verifiers = VerifierRegistry()
    environ = {
        "ACCORD_DB": f"sqlite:///{tmp_path / 'injected.db'}",
        "ACCORD_KEYS": str(tmp_path / "injected-keys"),
    }

    accord = Accord.from_config(
        load_config(None), clock=clock, verifiers=verifiers, environ=environ
    )
    try:
        case = accord.settle(
            "Total?",
            [
                {"agent": "agent:a", "output": 10, "confidence": 0.9},
                {"agent": "agent:b", "output": 12, "confidence": 0.4},
            ],
        )
        assert accord.verifiers is verifiers
        assert accord.clock is clock
        assert case.created_at == clock.now()
    finally:
        accord.close()

    assert (tmp_path / "injected.db").exists()
    assert len(list((tmp_path / "injected-keys").glob("service-*.pub.json"))) == 1
    assert not (tmp_path / "from-os-environ.db").exists()
    assert not (tmp_path / "from-os-environ-keys").exists()


def test_an_accord_takes_no_new_attributes_and_its_parts_cannot_be_reassigned(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock
) -> None:
    accord = Accord.open(db_url=database_url, keys_dir=tmp_path / "k", clock=frozen_clock)
    try:
        public = [
            name
            for name, value in vars(Accord).items()
            if isinstance(value, property) and not name.startswith("_")
        ]
        assert {"db", "ledger", "cases", "approvals", "model", "verifiers"} <= set(public)
        for name in [*public, "decision_port", "settler", "tier_two"]:
            with pytest.raises(AttributeError):  # the one assignment this suite makes: refused
                setattr(accord, name, None)
        assert not hasattr(accord, "__dict__")
    finally:
        accord.close()


def test_the_parts_an_accord_delegates_to_are_frozen() -> None:
    params = AccordParts.__dataclass_params__  # type: ignore[attr-defined]
    assert params.frozen
    assert "__slots__" in vars(AccordParts)


def _python_files(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (REPO_ROOT / folder).rglob("*.py"))


def test_no_test_or_benchmark_reaches_into_an_accords_private_parts() -> None:
    private = set(Accord.__slots__)
    assert len(private) == 1  # one slot: the frozen AccordParts the wiring built
    offenders = []
    for path in _python_files("tests", "benchmarks"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            reached = (isinstance(node, ast.Attribute) and node.attr in private) or (
                isinstance(node, ast.Constant) and node.value in private
            )
            if reached:
                offenders.append(f"{path.relative_to(REPO_ROOT)}:{node.lineno}")
    assert offenders == []


def test_the_wiring_is_the_only_library_module_that_reads_the_environment() -> None:
    # the CLI reads its own flags' variables; the service's worker factory reads what
    # `accord serve` handed it; the library reads them only where it is wired
    entry_points = ("src/accord/cli/", "src/accord/api/serving.py")
    reads = re.compile(r"\bos\.(environ|getenv)\b|\bgetenv\(")
    found = [
        str(path.relative_to(REPO_ROOT))
        for path in _python_files("src/accord")
        if reads.search(path.read_text(encoding="utf-8"))
        and not str(path.relative_to(REPO_ROOT)).startswith(entry_points)
    ]
    assert found == ["src/accord/app/wiring.py"]
