"""Builders for the strategies' tests: an org, disputes, fake ports and scripted judges."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from accord.conflicts import Position
from accord.ladder import Conflict, StrategyContext
from accord.llm import LanguageModel, ModelRequest, ModelResponse, ScriptedModel, TokenUsage
from accord.llm.scripted import ScriptStep
from accord.org import OrgChart
from tests.org._builders import chart, member

SUBJECT = "invoice INV-7 total"
TASK = "invoice.total"


def org() -> OrgChart:
    """The org the strategies are tried on.

    human:ceo ─┬─ agent:coo ─┬─ agent:eng-head ─┬─ agent:dev-1 (mid), agent:dev-2 (mid)
               │             │                  └─ agent:dev-senior (senior)
               │             └─ agent:fin-head ── agent:billing (mid)
               └─ agent:design (frontend, mid)
    agent:lab (labs, mid; nobody above)
    """
    return chart(
        [
            member("human:ceo", department="executive", seniority="c_suite", kind="human"),
            member("agent:coo", manager="human:ceo", department="executive", seniority="vp"),
            member("agent:eng-head", manager="agent:coo", seniority="director"),
            member("agent:dev-1", manager="agent:eng-head", department="backend"),
            member("agent:dev-2", manager="agent:eng-head", department="backend"),
            member(
                "agent:dev-senior",
                manager="agent:eng-head",
                department="backend",
                seniority="senior",
            ),
            member("agent:fin-head", manager="agent:coo", department="finance", seniority="lead"),
            member("agent:billing", manager="agent:fin-head", department="billing"),
            member("agent:design", manager="human:ceo", department="frontend"),
            member("agent:lab", department="labs"),
        ]
    )


def pos(agent: str, output: Any, confidence: float | None = None, **fields: Any) -> Position:
    """``agent`` answering ``output``."""
    return Position(agent=agent, output=output, confidence=confidence, **fields)


def dispute(*positions: Position, case_id: str = "case-1") -> Conflict:
    """The dispute ``positions`` make (detected and classified for real)."""
    return Conflict.from_positions(case_id, SUBJECT, TASK, positions)


def two_sides(a: str = "agent:dev-1", b: str = "agent:dev-2") -> Conflict:
    """``a`` says 1200 (confident 0.9, with reasoning), ``b`` says 1450 (0.7)."""
    return dispute(
        pos(a, 1200, 0.9, reasoning="sum of the lines"),
        pos(b, 1450, 0.7, reasoning="includes shipping"),
    )


def context(
    *,
    org_chart: OrgChart | None = None,
    model: LanguageModel | None = None,
    settings: Mapping[str, Any] | None = None,
    port: Any = None,
    approvals: Any = None,
) -> StrategyContext:
    return StrategyContext(
        org=org_chart,
        model=model,
        settings=dict(settings or {}),
        decision_port=port,
        approvals=approvals,
    )


@dataclass
class FakeDecisionPort:
    """Answers with ``answer`` (or raises ``error``) and remembers who was asked what."""

    answer: str | None = None
    error: Exception | None = None
    asked: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)

    async def ask(self, decider: str, dispute: Conflict, options: Sequence[str]) -> str | None:
        self.asked.append((decider, tuple(options)))
        if self.error is not None:
            raise self.error
        return self.answer


@dataclass
class FakeApprovals:
    """Creates items ``item-1``, ``item-2``, … (or raises ``error``) and keeps what it got."""

    error: Exception | None = None
    items: list[dict[str, Any]] = field(default_factory=list)

    async def request_approval(
        self, dispute: Conflict, *, summary: str, analysis: str, options: Sequence[str]
    ) -> str:
        if self.error is not None:
            raise self.error
        self.items.append(
            {
                "case_id": dispute.case_id,
                "summary": summary,
                "analysis": analysis,
                "options": tuple(options),
            }
        )
        return f"item-{len(self.items)}"


def verdict(
    winner: str, confidence: float = 0.9, reasoning: str = "A cites the ledger"
) -> dict[str, Any]:
    """A judge's strict-JSON answer naming a positional letter."""
    return {"winner": winner, "reasoning": reasoning, "confidence": confidence}


def for_first_group(
    confidence: float = 0.9, reasoning: str = "the sum is right"
) -> list[dict[str, Any]]:
    """A consistent pair of verdicts for the first group (``A``, then ``B`` once swapped)."""
    return [verdict("A", confidence, reasoning), verdict("B", confidence, reasoning)]


def for_second_group(
    confidence: float = 0.9, reasoning: str = "shipping counts"
) -> list[dict[str, Any]]:
    """A consistent pair of verdicts for the second group."""
    return [verdict("B", confidence, reasoning), verdict("A", confidence, reasoning)]


def tied() -> list[dict[str, Any]]:
    """Verdicts that disagree once the arguments are swapped (position bias)."""
    return [verdict("A", 0.8), verdict("A", 0.8)]


def scripted(*steps: ScriptStep) -> ScriptedModel:
    return ScriptedModel(list(steps), name="scripted-judge")


class FixedUsageModel:
    """A scripted model whose every successful answer reports the same usage."""

    def __init__(self, inner: ScriptedModel, usage: TokenUsage) -> None:
        self.name = inner.name
        self.inner = inner
        self.usage = usage

    async def complete(self, request: ModelRequest) -> ModelResponse:
        response = await self.inner.complete(request)
        return response.model_copy(update={"usage": self.usage})
