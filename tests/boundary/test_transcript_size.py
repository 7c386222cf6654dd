"""A boundary's ``transcript_bytes`` counts the transcript it replaces once: each agent's
reasoning is in the case's positions, and again in its escalation payload, which is a copy."""

from __future__ import annotations

from pathlib import Path

from accord import Accord
from accord.clock import FrozenClock

REASONING = 20_000


def test_each_reasoning_counts_once_in_the_transcript_a_boundary_replaces(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock
) -> None:
    accord = Accord.open(db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock)
    try:
        positions = [
            {"agent": "agent:support", "output": "approve", "reasoning": "a" * REASONING},
            {"agent": "agent:risk", "output": "reject", "reasoning": "b" * REASONING},
        ]
        case = accord.settle("Refund?", positions, session_id="s")
        assert case.escalation is not None  # it holds a copy of both reasonings
        [boundary] = accord.close_session("s")
    finally:
        accord.close()
    written = 2 * REASONING
    assert written < boundary.transcript_bytes < written + 4_000
