"""Config and paths a user got wrong end in one line naming the rule and exit 2 (unusable
input), never a traceback nor the exit 1 that `verify` keeps for "not verified" (issue 31)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import Run


@pytest.mark.parametrize(
    "command", [("verify",), ("init",), ("keys", "list"), ("ledger", "tail"), ("cases",)]
)
def test_a_config_integer_of_5000_digits_is_exit_two_naming_the_rule(
    run: Run, command: tuple[str, ...]
) -> None:
    Path("accord.yaml").write_text(
        "database:\n  url: sqlite:///a.db\nledger:\n  checkpoint_every: " + "9" * 5000 + "\n"
    )
    result = run(*command)
    assert result.exit_code == 2, result.output
    assert "config.yaml_limit" in result.output
    assert "at most 64 digits" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "command",
    [
        ("verify", "--db", "sqlite:///a.db", "--keys", "kf"),
        ("verify", "--db", "sqlite:///a.db", "--keys", "kf/inside"),
        ("init", "--db", "sqlite:///a.db", "--keys", "kf"),
        ("keys", "list", "--keys", "kf"),
        ("keys", "new", "mine", "--keys", "kf"),
        ("verify", "--db", "sqlite:///a.db", "--public-keys", "kf", "--signer", "0" * 32),
    ],
)
def test_a_key_folder_that_is_a_file_is_exit_two_naming_it(
    run: Run, command: tuple[str, ...]
) -> None:
    made = run("init", "--db", "sqlite:///a.db", "--keys", "good", "--config", "other.yaml")
    assert made.exit_code == 0, made.output  # the database is there: only the folder is wrong
    Path("kf").write_text("not a folder")
    result = run(*command)
    assert result.exit_code == 2, result.output
    assert "crypto.key_folder_not_a_folder" in result.output
    assert "kf is a file" in " ".join(result.output.split())
