"""Win rates per agent and task type, and the playbook's routing rule (§10: < 0.4 → reroute)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict

from accord.errors import ValidationError
from accord.learning.outcomes import CaseOutcome

_Key = tuple[str, str]


class RoutingFlag(BaseModel):
    """An agent that loses too often on one task type, with what to do about it."""

    model_config = ConfigDict(frozen=True)

    agent: str
    task_type: str
    win_rate: float
    cases: int
    advice: str


def _check_contest(winner: str, losers: tuple[str, ...], task_type: str) -> None:
    if not winner or not task_type or not all(losers):
        raise ValidationError("winner, losers and task_type must be non-empty names")
    if winner in losers or len(set(losers)) != len(losers):
        raise ValidationError("an agent appears twice in one contest", winner=winner)


class WinRateTracker:
    """Wins and losses per (agent, task type). Immutable: ``record`` returns a new tracker."""

    __slots__ = ("_losses", "_wins")

    def __init__(
        self, wins: Mapping[_Key, int] | None = None, losses: Mapping[_Key, int] | None = None
    ) -> None:
        self._wins: Mapping[_Key, int] = MappingProxyType(dict(wins or {}))
        self._losses: Mapping[_Key, int] = MappingProxyType(dict(losses or {}))

    @classmethod
    def from_outcomes(cls, outcomes: Iterable[CaseOutcome]) -> WinRateTracker:
        """Count every decided outcome: each agent of the winning group wins (three winners
        of a 3-vs-2 vote are three wins); cases without a winner count for nobody."""
        wins: Counter[_Key] = Counter()
        losses: Counter[_Key] = Counter()
        for outcome in outcomes:
            if outcome.winner is None:
                continue
            for winner in outcome.winning_agents:
                wins[(winner, outcome.task_type)] += 1
            for loser in outcome.losers:
                losses[(loser, outcome.task_type)] += 1
        return cls(wins, losses)

    def record(self, winner: str, losers: Iterable[str], task_type: str) -> WinRateTracker:
        """A new tracker that also counts one win for ``winner`` and one loss per loser."""
        beaten = tuple(losers)
        _check_contest(winner, beaten, task_type)
        wins = Counter(self._wins)
        losses = Counter(self._losses)
        wins[(winner, task_type)] += 1
        for loser in beaten:
            losses[(loser, task_type)] += 1
        return WinRateTracker(wins, losses)

    def _count(self, table: Mapping[_Key, int], agent: str, task_type: str | None) -> int:
        if task_type is not None:
            return table.get((agent, task_type), 0)
        return sum(n for (who, _), n in table.items() if who == agent)

    def wins(self, agent: str, task_type: str | None = None) -> int:
        """Cases the agent won (on one task type, or on all)."""
        return self._count(self._wins, agent, task_type)

    def cases(self, agent: str, task_type: str | None = None) -> int:
        """Cases the agent won or lost (on one task type, or on all)."""
        return self.wins(agent, task_type) + self._count(self._losses, agent, task_type)

    def win_rate(self, agent: str, task_type: str | None = None) -> float:
        """Wins over decided cases; 0.5 for an agent with no history."""
        total = self.cases(agent, task_type)
        return self.wins(agent, task_type) / total if total else 0.5

    def agents(self) -> list[str]:
        """Every agent with at least one win or loss, sorted."""
        return sorted({agent for agent, _ in (*self._wins, *self._losses)})

    def pairs(self) -> list[_Key]:
        """Every (agent, task type) with history, sorted."""
        return sorted({*self._wins, *self._losses})

    def routing_advice(self, threshold: float = 0.4, min_cases: int = 5) -> list[RoutingFlag]:
        """Flag each (agent, task type) with at least ``min_cases`` cases and a win rate below
        ``threshold``, worst first."""
        flags: list[RoutingFlag] = []
        for agent, task_type in self.pairs():
            cases = self.cases(agent, task_type)
            rate = self.win_rate(agent, task_type)
            if cases >= min_cases and rate < threshold:
                advice = (
                    f"{agent} won {rate:.0%} of {cases} {task_type} cases (below {threshold:.0%}):"
                    f" lower its dispatch priority for {task_type} or revise its prompt"
                )
                flags.append(
                    RoutingFlag(
                        agent=agent, task_type=task_type, win_rate=rate, cases=cases, advice=advice
                    )
                )
        return sorted(flags, key=lambda f: (f.win_rate, f.agent, f.task_type))
