"""What a learning report says about a set of settled cases: counts, timelines, win rates."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import UTC, date

from pydantic import BaseModel, ConfigDict

from accord.learning.outcomes import CaseOutcome
from accord.learning.root_causes import RootCauseReport, root_cause_report
from accord.learning.win_rates import RoutingFlag, WinRateTracker


class DaySummary(BaseModel):
    """Cases decided on one UTC day."""

    model_config = ConfigDict(frozen=True)

    day: date
    total: int
    escalated: int
    escalation_rate: float
    by_kind: dict[str, int]


class AgentRecord(BaseModel):
    """One agent's overall record across task types; ``flagged`` when routing advice names it
    (some task type with at least the minimum sample and a win rate under the threshold)."""

    model_config = ConfigDict(frozen=True)

    agent: str
    wins: int
    cases: int
    win_rate: float
    flagged: bool = False


class OutcomeSummary(BaseModel):
    """Counts by kind, severity and strategy; escalation; per-day timeline; agents; causes."""

    model_config = ConfigDict(frozen=True)

    total: int
    escalated: int
    escalation_rate: float
    by_kind: dict[str, int]
    by_severity: dict[str, int]
    by_strategy: dict[str, int]
    days: list[DaySummary]
    agents: list[AgentRecord]
    routing_flags: list[RoutingFlag]
    root_causes: RootCauseReport
    threshold: float = 0.4
    min_cases: int = 5
    """The routing rule: a win rate under ``threshold`` over at least ``min_cases`` cases of
    one task type is flagged; agents under the line with fewer cases are shown, not flagged."""

    @property
    def below_threshold_unflagged(self) -> list[AgentRecord]:
        """Agents under the line overall that routing advice does not name (too few cases
        on any one task type)."""
        return [a for a in self.agents if a.win_rate < self.threshold and not a.flagged]


def _sorted_counts(values: Iterable[str]) -> dict[str, int]:
    return dict(sorted(Counter(values).items()))


def _rate(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def _days(outcomes: list[CaseOutcome]) -> list[DaySummary]:
    by_day: dict[date, list[CaseOutcome]] = {}
    for outcome in outcomes:
        by_day.setdefault(outcome.decided_at.astimezone(UTC).date(), []).append(outcome)
    days = []
    for day, group in sorted(by_day.items()):
        escalated = sum(o.escalated for o in group)
        days.append(
            DaySummary(
                day=day,
                total=len(group),
                escalated=escalated,
                escalation_rate=_rate(escalated, len(group)),
                by_kind=_sorted_counts(o.kind for o in group),
            )
        )
    return days


def summarize_outcomes(
    outcomes: Iterable[CaseOutcome], *, threshold: float = 0.4, min_cases: int = 5
) -> OutcomeSummary:
    """Summarize settled cases; routing flags use the playbook's rule (see ``WinRateTracker``)."""
    cases = list(outcomes)
    tracker = WinRateTracker.from_outcomes(cases)
    escalated = sum(o.escalated for o in cases)
    flags = tracker.routing_advice(threshold=threshold, min_cases=min_cases)
    flagged = {f.agent for f in flags}
    return OutcomeSummary(
        total=len(cases),
        escalated=escalated,
        escalation_rate=_rate(escalated, len(cases)),
        by_kind=_sorted_counts(o.kind for o in cases),
        by_severity=_sorted_counts(o.severity for o in cases),
        by_strategy=_sorted_counts(o.strategy for o in cases),
        days=_days(cases),
        agents=[
            AgentRecord(
                agent=agent,
                wins=tracker.wins(agent),
                cases=tracker.cases(agent),
                win_rate=tracker.win_rate(agent),
                flagged=agent in flagged,
            )
            for agent in tracker.agents()
        ],
        routing_flags=flags,
        root_causes=root_cause_report(cases),
        threshold=threshold,
        min_cases=min_cases,
    )
