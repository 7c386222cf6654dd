"""The library never writes to stdout or stderr: it logs through the standard logging module,
and only the application (the CLI) decides where records go."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import textwrap
from pathlib import Path

from accord.log import get_logger

SETTLE = textwrap.dedent(
    """
    import sys
    from accord import Accord
    accord = Accord.open(db_url=sys.argv[1], keys_dir=sys.argv[2])
    # escalates through strategies that log at info level
    accord.settle("Total of invoice 4411", [
        {"agent": "agent:billing", "output": 1200, "confidence": 0.6},
        {"agent": "agent:audit", "output": 1450, "confidence": 0.6},
    ])
    accord.close()
    """
)


def test_a_plain_library_settle_writes_nothing_to_stdout_or_stderr(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SETTLE, f"sqlite:///{tmp_path / 'a.db'}", str(tmp_path / "k")],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )

    assert (done.stdout, done.stderr) == ("", "")


def test_library_events_reach_the_standard_logging_module_as_key_value_text(caplog) -> None:
    with caplog.at_level(logging.INFO, logger="accord"):
        get_logger("accord.test").info("probe.ran", case_id="disp:1", seconds=2)

    record = caplog.records[-1]
    assert record.name == "accord.test"
    assert record.getMessage() == "event='probe.ran' case_id='disp:1' seconds=2"


def test_the_cli_sends_library_logs_to_stderr_and_keeps_stdout_for_json(tmp_path: Path) -> None:
    request = tmp_path / "case.json"
    request.write_text(
        '{"subject": "Total", "positions": [{"agent": "a", "output": 1, "confidence": 0.6},'
        ' {"agent": "b", "output": 2, "confidence": 0.6}]}',
        encoding="utf-8",
    )
    command = "from accord.cli.main import main; main()"
    db, keys = f"sqlite:///{tmp_path / 'a.db'}", str(tmp_path / "k")
    done = subprocess.run(
        [sys.executable, "-c", command, "-v", "settle", str(request), "--db", db, "--keys", keys],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )

    assert json.loads(done.stdout)["status"] == "escalated"
    assert "level=INFO event='strategy_escalated'" in done.stderr
