"""The four built-in strategies (seed 000 §5.6), by name."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from accord.ladder.authority import AuthorityStrategy
from accord.ladder.debate import DebateStrategy
from accord.ladder.human import HumanStrategy
from accord.ladder.hybrid import HybridStrategy
from accord.ladder.protocol import ConflictResolver

BUILTIN_STRATEGIES: Mapping[str, Callable[[], ConflictResolver]] = MappingProxyType(
    {
        "authority": AuthorityStrategy,
        "debate": DebateStrategy,
        "human": HumanStrategy,
        "hybrid": HybridStrategy,
    }
)
"""Built-in strategy name → its factory; ``authority`` is the default strategy."""


def builtin_resolvers() -> tuple[ConflictResolver, ...]:
    """A fresh instance of every built-in strategy, in name order."""
    return tuple(factory() for factory in BUILTIN_STRATEGIES.values())
