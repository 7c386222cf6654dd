"""The one extension point of tier-2/3 resolution: a ``ConflictResolver``.

A resolver has a ``name`` (how YAML selects it), detects conflicts, resolves a dispute (async)
and drafts dissent for the overruled. :class:`ResolverBase` supplies the defaults for
``detect_conflict`` and ``log_dissent``; a strategy then implements ``resolve`` only.
Third-party resolvers register through the ``accord.strategies`` entry-point group.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from accord.conflicts import Detection, Position, detect
from accord.ladder.strategy_context import StrategyContext
from accord.ladder.strategy_types import Conflict, DissentDraft, StrategyOutcome

NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_-]{0,63}$")
"""Strategy names: lower-case letters, digits, ``_`` and ``-``, starting with a letter."""


@runtime_checkable
class ConflictResolver(Protocol):
    """A strategy that settles (or escalates, or queues) a dispute."""

    name: str

    def detect_conflict(self, positions: Sequence[Position]) -> Detection:
        """Group the positions and name their conflict, if any."""
        ...

    async def resolve(self, dispute: Conflict, ctx: StrategyContext) -> StrategyOutcome:
        """Decide, escalate or queue ``dispute``."""
        ...

    def log_dissent(self, dispute: Conflict, outcome: StrategyOutcome) -> tuple[DissentDraft, ...]:
        """One draft per party outside the winning group; empty unless decided."""
        ...


def resolver_problem(candidate: object) -> str | None:
    """Why ``candidate`` is not a usable ``ConflictResolver``; None when it is one."""
    if not isinstance(candidate, ConflictResolver):
        return (
            f"{type(candidate).__name__} lacks the ConflictResolver protocol "
            "(name, detect_conflict, resolve, log_dissent)"
        )
    name = candidate.name
    if not isinstance(name, str) or not NAME_PATTERN.match(name):
        return f"strategy name {name!r} must match {NAME_PATTERN.pattern}"
    if not inspect.iscoroutinefunction(candidate.resolve):
        return f"strategy {name!r}: resolve must be an async method"
    return None


class ResolverBase:
    """Default ``detect_conflict`` and ``log_dissent``; subclasses set ``name``, ``resolve``."""

    name: str = ""

    def detect_conflict(self, positions: Sequence[Position]) -> Detection:
        """``accord.conflicts.detect`` with default settings."""
        return detect(positions)

    def log_dissent(self, dispute: Conflict, outcome: StrategyOutcome) -> tuple[DissentDraft, ...]:
        """A draft for every party outside the winning group, in position order."""
        return draft_dissent(dispute, outcome)


def draft_dissent(dispute: Conflict, outcome: StrategyOutcome) -> tuple[DissentDraft, ...]:
    """Dissent drafts for ``outcome``: empty unless it decided for a group.

    A dissenter's reasoning is its own argument when it argued, else its position's
    reasoning, else its group's argument (naming who argued it).
    """
    if outcome.status != "decided" or outcome.group is None:
        return ()
    winners = dispute.detection.groups[outcome.group].agents
    resolution = outcome.judge_reasoning or outcome.reasoning
    drafts: list[DissentDraft] = []
    for position in dispute.positions:
        if position.agent in winners:
            continue
        drafts.append(
            DissentDraft(
                agent_id=position.agent,
                position=position,
                reasoning=_dissenters_reasoning(dispute, outcome, position),
                resolution_reasoning=resolution,
                strategy=outcome.strategy,
            )
        )
    return tuple(drafts)


def _dissenters_reasoning(dispute: Conflict, outcome: StrategyOutcome, position: Position) -> str:
    own = outcome.arguments.get(position.agent)
    if own:
        return own
    if position.reasoning:
        return position.reasoning
    group = dispute.group_of(position.agent)
    for speaker, argument in outcome.arguments.items():
        if argument and dispute.group_of(speaker) == group:
            return f"(argued by {speaker}) {argument}"
    return "(no reasoning given)"
