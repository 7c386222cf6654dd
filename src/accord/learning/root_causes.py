"""Root-cause report (playbook §9): settled cases grouped by recorded cause, largest first."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from accord.learning.outcomes import CaseOutcome

UNKNOWN_CAUSE = "unknown"
EXAMPLES_PER_CAUSE = 3


class CauseGroup(BaseModel):
    """Cases sharing one root cause: how many, their share, their kinds, a few examples."""

    model_config = ConfigDict(frozen=True)

    cause: str
    count: int
    share: float
    kinds: dict[str, int]
    example_case_ids: tuple[str, ...]


class RootCauseReport(BaseModel):
    """Every cause group, largest first (ties by cause name)."""

    model_config = ConfigDict(frozen=True)

    total: int
    groups: list[CauseGroup]


def root_cause_report(outcomes: Iterable[CaseOutcome]) -> RootCauseReport:
    """Group outcomes by ``cause`` (None → ``"unknown"``)."""
    kinds: dict[str, Counter[str]] = {}
    examples: dict[str, list[str]] = {}
    total = 0
    for outcome in outcomes:
        cause = outcome.cause or UNKNOWN_CAUSE
        kinds.setdefault(cause, Counter())[outcome.kind] += 1
        listed = examples.setdefault(cause, [])
        if len(listed) < EXAMPLES_PER_CAUSE:
            listed.append(outcome.case_id)
        total += 1
    groups = [
        CauseGroup(
            cause=cause,
            count=sum(by_kind.values()),
            share=sum(by_kind.values()) / total,
            kinds=dict(sorted(by_kind.items())),
            example_case_ids=tuple(examples[cause]),
        )
        for cause, by_kind in kinds.items()
    ]
    groups.sort(key=lambda g: (-g.count, g.cause))
    return RootCauseReport(total=total, groups=groups)
