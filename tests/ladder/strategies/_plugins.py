"""Strategies a registry test loads through hand-made entry points."""

from __future__ import annotations

from accord.ladder import Conflict, ResolverBase, StrategyContext, StrategyOutcome


class EchoStrategy(ResolverBase):
    """Escalates everything, saying so."""

    name = "echo"

    async def resolve(self, dispute: Conflict, ctx: StrategyContext) -> StrategyOutcome:
        return StrategyOutcome(strategy=self.name, status="escalated", escalation_reason="echo")


class ExplodingStrategy(ResolverBase):
    """Raises inside ``resolve``."""

    name = "exploding"

    async def resolve(self, dispute: Conflict, ctx: StrategyContext) -> StrategyOutcome:
        raise RuntimeError("the plugin blew up")


class SloppyStrategy(ResolverBase):
    """Returns something that is not an outcome."""

    name = "sloppy"

    async def resolve(self, dispute: Conflict, ctx: StrategyContext) -> StrategyOutcome:
        return "decided, trust me"  # type: ignore[return-value]


class SyncStrategy(ResolverBase):
    """Has a synchronous ``resolve``."""

    name = "sync"

    def resolve(self, dispute: Conflict, ctx: StrategyContext) -> StrategyOutcome:  # type: ignore[override]
        raise NotImplementedError


class BadlyNamed(EchoStrategy):
    name = "Bad Name"


def make_echo() -> EchoStrategy:
    """A factory entry point."""
    return EchoStrategy()


ECHO_INSTANCE = EchoStrategy()
"""An instance entry point."""


def make_nothing() -> object:
    """A factory returning something that is no strategy."""
    return object()
