"""The framework examples run offline, in seconds, and exit 0 (as after ``make setup``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def _run(script: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACCORD_")}
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    return subprocess.run(
        [sys.executable, str(REPO_ROOT / "examples" / script), str(tmp_path / "run")],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=tmp_path,
    )


def test_the_langgraph_fanout_example_runs_and_resumes_with_the_decision(tmp_path: Path) -> None:
    done = _run("langgraph_fanout.py", tmp_path)
    assert done.returncode == 0, done.stderr
    assert "a premature resume was refused" in done.stdout
    assert "resumed: settled, answer 1450, decided by human:alice" in done.stdout
    assert "a second resume was refused: integrations.already_resumed" in done.stdout


def test_the_mcp_client_example_retries_into_one_case_and_gets_the_decision(
    tmp_path: Path,
) -> None:
    done = _run("mcp_client.py", tmp_path)
    assert done.returncode == 0, done.stderr
    assert "the retry got the same case: True" in done.stdout
    assert "parked as agent:orchestrator" in done.stdout
    assert "decided: approved, choice 1450" in done.stdout


def test_the_openai_agents_example_refunds_once_and_checks_its_receipt(tmp_path: Path) -> None:
    done = _run("openai_agents_refund.py", tmp_path)
    assert done.returncode == 0, done.stderr
    assert "resume before the decision: None" in done.stdout
    assert "resumed: The refund is done. refunds run: 1" in done.stdout
    assert "resumed the same run again: refunds run: 1" in done.stdout
    assert "by human:alice" in done.stdout
    assert "verified offline" in done.stdout
