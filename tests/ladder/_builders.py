"""Builders for the resolution room's tests: rung contexts from real detection and fakes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import JsonValue

from accord.conflicts import DecisionTable, DetectionSettings, Position, classify, detect
from accord.ladder import RungContext, SourceFinding, VerifierRegistry
from accord.org import OrgChart

SUBJECT = "invoice INV-7 total"
TASK = "invoice.total"


def pos(agent: str, output: Any, confidence: float | None = None, **fields: Any) -> Position:
    """A position of ``agent`` answering ``output`` with an optional confidence."""
    return Position(agent=agent, output=output, confidence=confidence, **fields)


def context(
    positions: Sequence[Position],
    *,
    table: DecisionTable | None = None,
    org: OrgChart | None = None,
    weights: Mapping[str, float] | None = None,
    task_type: str = TASK,
    detection: DetectionSettings | None = None,
) -> RungContext:
    """The context the ladder would see for ``positions`` (detected and classified for real)."""
    found = detect(positions, detection or DetectionSettings())
    assert found.has_conflict, "these builders describe conflicts"
    return RungContext(
        subject=SUBJECT,
        task_type=task_type,
        positions=tuple(positions),
        detection=found,
        classification=classify(found, table or DecisionTable()),
        org=org,
        weights=dict(weights or {}),
    )


def chain_table(*steps: str) -> DecisionTable:
    """A decision table whose every non-critical conflict uses ``steps``."""
    return DecisionTable(default_chain=tuple(steps))


@dataclass
class FixedVerifier:
    """A source that always reports ``finding`` and remembers what it was asked."""

    finding: SourceFinding | None
    calls: list[tuple[str, str, tuple[JsonValue, ...]]] = field(default_factory=list)

    def lookup(
        self, subject: str, task_type: str, answers: Sequence[JsonValue]
    ) -> SourceFinding | None:
        self.calls.append((subject, task_type, tuple(answers)))
        return self.finding


def source_says(answer: JsonValue, source: str = "erp") -> FixedVerifier:
    """A verifier whose ground truth for every subject is ``answer``."""
    return FixedVerifier(SourceFinding(answer=answer, source=source))


def registry(verifier: object | None = None, task_type: str = TASK) -> VerifierRegistry:
    """A registry holding ``verifier`` for ``task_type`` (empty when ``verifier`` is None)."""
    verifiers = VerifierRegistry()
    if verifier is not None:
        verifiers.register(task_type, verifier)  # type: ignore[arg-type]
    return verifiers
