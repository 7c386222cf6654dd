"""A session that ends with open disagreements hands them to its successor as boundaries,
which a new process settles with one probe call each and zero model tokens."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from accord import Accord, SettleStatus
from accord.boundary import TieBreaker
from accord.clock import FrozenClock
from accord.conflicts import Tier
from accord.errors import ConfigError

from . import probes

POSITIONS = [
    {
        "agent": "agent:billing",
        "output": 1200,
        "confidence": 0.8,
        "reasoning": "line items sum to 1200",
        "assumptions": ["shipping billed separately"],
    },
    {
        "agent": "agent:audit",
        "output": 1450,
        "confidence": 0.75,
        "reasoning": "the contract includes shipping",
        "assumptions": ["shipping included"],
    },
]
HINT = TieBreaker(
    probe="erp_invoice_total",
    arguments={"invoice": "4411"},
    description="look up invoice 4411's total in the ERP",
)


@pytest.fixture
def opened(tmp_path: Path, database_url: str, frozen_clock: FrozenClock) -> Iterator[list[Accord]]:
    instances: list[Accord] = []
    yield instances
    for instance in instances:
        instance.close()


def open_accord(opened: list[Accord], tmp_path: Path, url: str, clock: FrozenClock) -> Accord:
    accord = Accord.open(db_url=url, keys_dir=tmp_path / "keys", clock=clock)
    accord.probes.register(probes.ErpInvoiceTotal())
    accord.boundaries.hints["invoicing"] = HINT
    opened.append(accord)
    return accord


def test_a_successor_settles_every_boundary_with_one_probe_and_no_model(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock, opened: list[Accord]
) -> None:
    first = open_accord(opened, tmp_path, database_url, frozen_clock)
    case = first.settle(
        "Total of invoice 4411", POSITIONS, task_type="invoicing", session_id="sess-1"
    )
    agreed = first.settle(
        "Currency",
        [{"agent": "a", "output": "EUR"}, {"agent": "b", "output": "EUR"}],
        session_id="sess-1",
    )
    assert case.status is SettleStatus.ESCALATED
    assert agreed.status is SettleStatus.NO_CONFLICT
    [boundary] = first.close_session("sess-1")
    assert boundary.case_id == case.case_id
    assert boundary.status == "pending"
    assert boundary.crux is not None
    assert "shipping" in boundary.crux.statement
    assert first.close_session("sess-1") == []  # closing again records nothing new

    probes.CALLS.clear()
    successor = open_accord(opened, tmp_path, database_url, frozen_clock)
    [pending] = successor.boundaries.pending("sess-1")
    receipt = successor.boundaries.resolve(pending.boundary_id)
    assert probes.CALLS == [{"invoice": "4411"}]
    assert receipt.winner_agents == ("agent:audit",)
    settled = successor.cases.get(case.case_id)
    assert settled.status is SettleStatus.SETTLED
    assert settled.decision is not None
    assert settled.decision.rung == "tie_breaker_probe"
    assert [d.agent_id for d in settled.dissent] == ["agent:billing"]
    assert settled.model_calls == 0
    assert case.approval_item_id is not None
    assert successor.approvals.get(case.approval_item_id).status.value == "cancelled"
    assert successor.boundaries.pending("sess-1") == []
    events = successor.ledger.count_by_event_type()
    assert events["boundary_recorded"] == 1
    assert events["boundary_resolved"] == 1
    assert successor.verify(workers=1).entries == sum(events.values())


def test_a_probe_settled_case_keeps_the_tier_that_worked_on_it_and_names_the_probe(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock, opened: list[Accord]
) -> None:
    first = open_accord(opened, tmp_path, database_url, frozen_clock)
    case = first.settle("Total of invoice 4411", POSITIONS, task_type="invoicing", session_id="s")
    assert case.tier is Tier.HUMAN_APPEAL  # tier 2 (authority, no org chart) queued it
    [boundary] = first.close_session("s")

    first.boundaries.resolve(boundary.boundary_id)

    settled = first.cases.get(case.case_id)
    assert settled.tier is Tier.CONTEXTUAL_ARBITRATION  # no person decided
    assert settled.dissent[0].decided_by == "probe:erp_invoice_total"
    resolved = [e.record for e in first.ledger.entries() if e.event_type == "dispute_resolved"]
    assert resolved[-1]["resolution_level"] == "contextual_arbitration"
    assert resolved[-1]["decided_by"] == "probe:erp_invoice_total"
    assert "probe erp_invoice_total answered" in resolved[-1]["reasoning"]
    assert first.verify(workers=1).entries == first.ledger.size()


def test_without_a_runnable_tie_breaker_the_boundary_stays_with_people(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock, opened: list[Accord]
) -> None:
    accord = open_accord(opened, tmp_path, database_url, frozen_clock)
    accord.boundaries.hints.clear()
    accord.settle("Total", POSITIONS, task_type="invoicing", session_id="s2")
    [boundary] = accord.close_session("s2")
    assert boundary.status == "human"
    assert accord.boundaries.pending("s2") == []


def test_the_cli_closes_a_session_and_resolves_with_a_probe_from_yaml(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from accord.cli.main import app

    monkeypatch.chdir(tmp_path)
    Path("accord.yaml").write_text(
        "boundary:\n"
        "  probes: {erp_invoice_total: 'tests.boundary.probes:ErpInvoiceTotal'}\n"
        "  tie_breakers:\n"
        "    invoicing: {probe: erp_invoice_total, arguments: {invoice: '4411'},"
        " description: look up the ERP total}\n"
    )
    Path("case.json").write_text(
        json.dumps(
            {
                "subject": "Total",
                "task_type": "invoicing",
                "session_id": "s3",
                "positions": POSITIONS,
            }
        )
    )
    runner = CliRunner()
    args = ["--db", "sqlite:///h.db", "--keys", "keys"]

    def run(*words: str) -> str:
        result = runner.invoke(app, [*words, *args], env={"COLUMNS": "200"}, catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.stdout

    run("settle", "case.json")
    closed = json.loads(run("session", "close", "s3", "--json"))["boundaries"]
    assert [b["status"] for b in closed] == ["pending"]
    assert "0 boundaries recorded" in run("session", "close", "s3")
    pending = json.loads(run("boundaries", "pending", "--json"))
    assert [b["boundary_id"] for b in pending] == [closed[0]["boundary_id"]]
    assert "erp_invoice_total" in run("boundaries", "pending")
    shown = json.loads(run("boundaries", "show", closed[0]["boundary_id"]))
    assert shown["digest"] == closed[0]["digest"]
    receipt = json.loads(run("boundaries", "resolve", closed[0]["boundary_id"]))
    assert receipt["winner_agents"] == ["agent:audit"]
    again = runner.invoke(app, ["boundaries", "resolve", closed[0]["boundary_id"], *args])
    assert again.exit_code == 1
    assert runner.invoke(app, ["boundaries", "show", "bnd:nope", *args]).exit_code == 1


def test_a_probe_that_cannot_be_loaded_fails_when_first_needed_with_the_key_path(
    tmp_path: Path,
) -> None:
    config = tmp_path / "accord.yaml"
    config.write_text("boundary:\n  probes: {erp: 'no_such_module:Probe'}\n")
    accord = Accord.open(config, db_url=f"sqlite:///{tmp_path / 'x.db'}", keys_dir=tmp_path / "k")
    try:
        assert accord.cases.total() == 0  # reading needs no probe
        with pytest.raises(ConfigError) as err:
            accord.close_session("s1")
        assert err.value.context["key_path"] == "boundary.probes.erp"
        with pytest.raises(ConfigError):  # and again, not a half-loaded registry
            accord.probes.get("erp")
    finally:
        accord.close()
    config.write_text("boundary:\n  tie_breakers: {invoicing: {probe: erp}}\n")
    with pytest.raises(ConfigError) as bad:
        Accord.open(config, db_url=f"sqlite:///{tmp_path / 'x.db'}", keys_dir=tmp_path / "k")
    assert bad.value.context["key_path"] == "boundary.tie_breakers.invoicing.arguments"
    assert bad.value.code == "config.missing_key"


def test_a_probe_module_that_raises_while_loading_is_a_config_error(tmp_path: Path) -> None:
    config = tmp_path / "accord.yaml"
    config.write_text("boundary:\n  probes: {erp.eu: 'tests.boundary.broken_probe:Probe'}\n")
    accord = Accord.open(config, db_url=f"sqlite:///{tmp_path / 'x.db'}", keys_dir=tmp_path / "k")
    with pytest.raises(ConfigError) as err:
        accord.probes.load()
    accord.close()
    assert err.value.context["key_path"] == 'boundary.probes["erp.eu"]'
    assert "could not start" in err.value.context["rule"]


def test_configured_probes_are_imported_on_first_lookup_only(tmp_path: Path) -> None:
    config = tmp_path / "accord.yaml"
    config.write_text(
        "boundary:\n  probes: {erp_invoice_total: 'tests.boundary.probes:ErpInvoiceTotal'}\n"
    )
    accord = Accord.open(config, db_url=f"sqlite:///{tmp_path / 'x.db'}", keys_dir=tmp_path / "k")
    try:
        assert super(type(accord.probes), accord.probes).__len__() == 0  # nothing imported yet
        assert "erp_invoice_total" in accord.probes
        assert len(accord.probes) == 1
        assert list(accord.probes) == ["erp_invoice_total"]
        assert accord.probes.get("erp_invoice_total").name == "erp_invoice_total"
    finally:
        accord.close()


def test_a_probe_settling_the_case_cancels_its_tier_deadline(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock, opened: list[Accord]
) -> None:
    first = open_accord(opened, tmp_path, database_url, frozen_clock)
    case = first.settle("Total of invoice 4411", POSITIONS, task_type="invoicing", session_id="s")
    armed = first.case_deadline(case.case_id)
    assert armed is not None
    assert armed.kind == "case_tier"
    [boundary] = first.close_session("s")
    first.boundaries.resolve(boundary.boundary_id)
    assert first.cases.get(case.case_id).status is SettleStatus.SETTLED
    assert first.case_deadline(case.case_id) is None
    frozen_clock.advance(timedelta(days=2))
    assert first.sweep_deadlines().fired == []
    assert first.verify(workers=1).entries == first.ledger.size()
