"""Small builders for the conflicts room's tests."""

from __future__ import annotations

from typing import Any

from accord.conflicts import Position


def pos(agent: str, output: Any, **fields: Any) -> Position:
    """A position of ``agent`` answering ``output``."""
    return Position(agent=agent, output=output, **fields)


def positions(*outputs: Any) -> list[Position]:
    """Positions of agents ``a0``, ``a1``, … answering ``outputs`` in order."""
    return [Position(agent=f"a{index}", output=output) for index, output in enumerate(outputs)]


def membership(groups: Any) -> set[frozenset[str]]:
    """The groups' agent sets, order forgotten."""
    return {frozenset(group.agents) for group in groups}
