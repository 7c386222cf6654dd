"""The I/O a strategy needs, behind small Protocols the composition root implements."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from accord.ladder.strategy_types import Conflict


@runtime_checkable
class AgentDecisionPort(Protocol):
    """Asks an agent (for example the parties' lowest common manager) to pick one option."""

    async def ask(self, decider: str, dispute: Conflict, options: Sequence[str]) -> str | None:
        """The option ``decider`` picked, verbatim; None when unreachable or it declined."""
        ...


@runtime_checkable
class ApprovalGateway(Protocol):
    """Creates a human approval item (the approvals room implements it); returns its id."""

    async def request_approval(
        self, dispute: Conflict, *, summary: str, analysis: str, options: Sequence[str]
    ) -> str:
        """Queue ``dispute`` for people to decide among ``options``; the new item's id."""
        ...
