"""A small, hand-countable history of settled cases over three UTC days."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from accord.learning import CaseOutcome

from ._builders import outcome

# 21:30 on 2 November at UTC−5 is 02:30 on 3 November in UTC.
LATE_EVENING_IN_NEW_YORK = datetime(2026, 11, 2, 21, 30, tzinfo=timezone(timedelta(hours=-5)))


def history() -> list[CaseOutcome]:
    """Ten cases on 1–3 November (UTC); agent:c loses five invoicing cases out of six."""
    return [
        outcome("c01", day=0, winner="agent:a", losers=("agent:c",), cause="stale_data"),
        outcome("c02", day=0, winner="agent:a", losers=("agent:c",), cause="stale_data"),
        outcome(
            "c03",
            day=0,
            winner=None,
            losers=(),
            escalated=True,
            strategy="llm_arbitration",
            kind="direct_contradiction",
            severity="critical",
        ),
        outcome("c04", day=1, winner="agent:b", losers=("agent:c",), cause="wrong_assumption"),
        outcome(
            "c05",
            day=1,
            winner="agent:c",
            losers=("agent:b",),
            strategy="source_verification",
            kind="direct_contradiction",
            severity="critical",
        ),
        outcome(
            "c06",
            at=LATE_EVENING_IN_NEW_YORK,
            winner="agent:a",
            losers=("agent:c",),
            severity="minor",
        ),
        outcome(
            "c07",
            day=2,
            winner="agent:a",
            losers=("agent:c",),
            escalated=True,
            kind="priority_conflict",
            strategy="llm_arbitration",
            cause="stale_data",
        ),
        outcome("c08", day=2, winner="agent:b", losers=("agent:a",), severity="minor"),
        outcome(
            "c09",
            day=2,
            winner=None,
            losers=(),
            escalated=True,
            strategy="llm_arbitration",
            kind="direct_contradiction",
            severity="critical",
        ),
        outcome("c10", day=2, winner="agent:a", losers=("agent:b",), task_type="search"),
    ]
