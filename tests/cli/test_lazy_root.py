"""The root of ``accord`` lists its commands without importing them, and lists them truly."""

from __future__ import annotations

import importlib
import subprocess
import sys

import typer
from typer.testing import CliRunner

from accord.cli.commands import app as commands
from accord.cli.main import COMMANDS, OWN_MODULES, app


def test_the_root_lists_exactly_the_real_commands_with_their_own_short_help() -> None:
    group = typer.main.get_command(commands)
    context = typer.Context(group)
    real = {
        name: group.get_command(context, name).get_short_help_str(limit=300)  # type: ignore[attr-defined]
        for name in group.list_commands(context)  # type: ignore[attr-defined]
    }
    assert real == COMMANDS
    assert list(real) == list(COMMANDS)


def test_help_at_the_root_imports_no_command_and_no_library() -> None:
    probe = (
        "import sys\n"
        "from accord.cli.main import app\n"
        "try:\n    app(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = ('accord.cli.commands', 'accord.app', 'sqlalchemy')\n"
        "loaded = [m for m in heavy if m in sys.modules]\n"
        "print('LOADED', loaded)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert "LOADED []" in result.stdout
    assert "disputes" in result.stdout


def test_a_command_runs_through_the_lazy_root() -> None:
    result = CliRunner().invoke(app, ["ledger", "--help"])
    assert result.exit_code == 0
    assert "checkpoint" in result.output


def test_an_unknown_command_is_refused_by_name() -> None:
    result = CliRunner().invoke(app, ["nope"])
    assert result.exit_code == 2
    assert "No such command" in result.output


def test_a_command_in_its_own_module_is_the_one_the_full_command_set_runs() -> None:
    group = typer.main.get_command(commands)
    context = typer.Context(group)
    for name, target in OWN_MODULES.items():
        module, function = target.split(":")
        registered = group.get_command(context, name)  # type: ignore[attr-defined]
        own = getattr(importlib.import_module(module), function)
        assert registered.callback.__wrapped__ is own  # typer wraps the function it registers


def test_verify_help_imports_neither_the_other_commands_nor_the_library() -> None:
    probe = (
        "import sys\n"
        "from accord.cli.main import app\n"
        "try:\n    app(['verify', '--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = ('accord.cli.commands', 'accord.app', 'accord.config', 'sqlalchemy')\n"
        "print('LOADED', [m for m in heavy if m in sys.modules])\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert "LOADED []" in result.stdout
    assert "--trusted-checkpoint" in result.stdout
