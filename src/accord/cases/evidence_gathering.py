"""Asking each agent to justify its output before deciding (playbook §3).

The application supplies a :class:`Justifier` (how to reach its agents). Each agent gets
``timeout`` seconds; an agent that cannot answer keeps what it submitted.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from accord.conflicts import Position
from accord.values import revised


class Justification(BaseModel):
    """An agent's account of its output: reasoning, sources, confidence, assumptions."""

    model_config = ConfigDict(frozen=True)

    reasoning: str | None = None
    sources: tuple[str, ...] = ()
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    assumptions: tuple[str, ...] = ()


class Justifier(Protocol):
    """The port through which Accord asks an agent to justify its output."""

    async def justify(self, agent: str, subject: str, output: object) -> Justification: ...


async def _ask(justifier: Justifier, position: Position, subject: str, timeout: float) -> Position:
    try:
        async with asyncio.timeout(timeout):
            answer = await justifier.justify(position.agent, subject, position.output)
    except (TimeoutError, Exception):
        return position
    if not isinstance(answer, Justification):
        return position
    return revised(
        position,
        reasoning=answer.reasoning or position.reasoning,
        sources=tuple(dict.fromkeys((*position.sources, *answer.sources))),
        confidence=answer.confidence if answer.confidence is not None else position.confidence,
        assumptions=tuple(dict.fromkeys((*position.assumptions, *answer.assumptions))),
    )


async def gather_justifications(
    justifier: Justifier, positions: Sequence[Position], subject: str, *, timeout: float
) -> tuple[Position, ...]:
    """Every agent's position enriched with its justification, asked concurrently."""
    return tuple(await asyncio.gather(*(_ask(justifier, p, subject, timeout) for p in positions)))
