"""The dashboard page: cases by kind and tier over time, escalation rate, tokens per case, win
rate per agent and queue age, as inline SVG charts with data tables."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Request, Response, get
from litestar.datastructures import State
from litestar.params import Parameter
from litestar.response import Redirect, Template

from accord.api.queries.dashboard_stats import MAX_DAYS, DashboardStats, DayCount, dashboard_stats
from accord.api.routes._state import accord_of
from accord.api.ui.charts import BarChart, Series, bar_chart
from accord.api.ui.session import signed_in

TOKEN_BARS = 40


def _per_day(chart_id: str, title: str, counts: tuple[DayCount, ...]) -> BarChart:
    days = sorted({c.day for c in counts})
    groups = sorted({c.group for c in counts})
    table = {(c.day, c.group): c.count for c in counts}
    series = [Series(g, tuple(float(table.get((d, g), 0)) for d in days)) for g in groups]
    return bar_chart(chart_id, title, days, series, unit="cases", axis="Day")


def dashboard_charts(stats: DashboardStats) -> list[BarChart]:
    """Every chart of the dashboard, in page order."""
    tokens = stats.tokens[-TOKEN_BARS:]
    return [
        _per_day("by-kind", "Cases by kind per day", stats.by_kind),
        _per_day("by-tier", "Cases by tier per day", stats.by_tier),
        bar_chart(
            "escalation",
            "Share of cases that reached people, per day",
            [r.day for r in stats.escalation],
            [Series("reached people", tuple(r.rate for r in stats.escalation))],
            unit="%",
            axis="Day",
            top_value=1.0,
        ),
        bar_chart(
            "tokens",
            f"Model tokens per case (newest {len(tokens)})",
            [t.case_id[-8:] for t in tokens],
            [Series("tokens", tuple(float(t.tokens) for t in tokens))],
            unit="tokens",
            axis="Case",
        ),
        bar_chart(
            "win-rate",
            "Win rate per agent (decided cases)",
            [a.agent_id for a in stats.agents],
            [Series("won", tuple(a.win_rate for a in stats.agents))],
            unit="%",
            axis="Agent",
            top_value=1.0,
        ),
        bar_chart(
            "queue-age",
            "Pending items by how long they have waited",
            [label for label, _ in stats.queue_age],
            [Series("items", tuple(float(n) for _, n in stats.queue_age))],
            unit="items",
            axis="Waited",
        ),
    ]


@get("/dashboard", include_in_schema=False, sync_to_thread=True)
def dashboard(
    request: Request[Any, Any, State],
    state: State,
    days: Annotated[int, Parameter(ge=1, le=MAX_DAYS)] = 30,
) -> Response[Any]:
    """The charts over the last ``days`` days."""
    reviewer = signed_in(request)
    if reviewer is None:
        return Redirect("/signin")
    accord = accord_of(state)
    stats = dashboard_stats(accord.db, accord.clock.now(), days=days)
    return Template(
        "dashboard.html",
        context={"reviewer": reviewer, "charts": dashboard_charts(stats), "days": days},
    )
