"""Bar charts as geometry for server-side inline SVG (the ``_chart.html`` macro draws them).

A chart is categories along the x axis and one or more series stacked on each category; the
same numbers are shown as a data table beside the drawing (the accessible fallback).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 640
HEIGHT = 220
LEFT = 48
BOTTOM = 40
TOP = 12
PALETTE = ("#1a56db", "#b45309", "#047857", "#9333ea", "#be123c", "#0e7490", "#4d7c0f", "#475569")
"""Series colours, each at least 3:1 against white."""
MAX_CATEGORIES = 60


@dataclass(frozen=True)
class Series:
    name: str
    values: tuple[float, ...]
    """One value per category."""


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    colour: str
    label: str
    """What the bar says, for its tooltip (``<title>``)."""


@dataclass(frozen=True)
class Tick:
    x: float
    text: str


@dataclass(frozen=True)
class BarChart:
    chart_id: str
    title: str
    unit: str
    categories: tuple[str, ...]
    series: tuple[Series, ...]
    bars: tuple[Bar, ...]
    ticks: tuple[Tick, ...]
    top_value: float
    legend: tuple[tuple[str, str], ...]
    """(series name, colour)."""
    axis: str = "Category"
    """What the categories are (the data table's first column)."""
    width: int = WIDTH
    height: int = HEIGHT

    @property
    def empty(self) -> bool:
        return not self.categories

    def shown(self, value: float) -> str:
        """A value as the table and the axis write it."""
        if self.unit == "%":
            return f"{value * 100:.0f}%"
        return f"{value:.0f}" if float(value).is_integer() else f"{value:.2f}"


def _short(category: str) -> str:
    """An axis label: the part after the last ``:`` (``agent:audit`` → ``audit``), ≤ 12 chars."""
    tail = category.rsplit(":", 1)[-1]
    return tail if len(tail) <= 12 else tail[:11] + "…"


def bar_chart(
    chart_id: str,
    title: str,
    categories: Sequence[str],
    series: Sequence[Series],
    *,
    unit: str = "",
    axis: str = "Category",
    top_value: float | None = None,
) -> BarChart:
    """Stacked bars: each category's series values drawn one on another, to scale."""
    categories = tuple(categories)[-MAX_CATEGORIES:]
    kept = len(categories)
    series = tuple(Series(s.name, tuple(s.values)[-kept:] if kept else ()) for s in series)
    for s in series:
        if len(s.values) != kept:
            raise ValueError(f"series {s.name!r} has {len(s.values)} values for {kept} categories")
    totals = [sum(s.values[i] for s in series) for i in range(kept)]
    top = top_value if top_value is not None else max(totals, default=0.0)
    top = top or 1.0
    plot_width = WIDTH - LEFT - 8
    plot_height = HEIGHT - TOP - BOTTOM
    slot = plot_width / kept if kept else plot_width
    bars: list[Bar] = []
    for i, category in enumerate(categories):
        base = 0.0
        for index, s in enumerate(series):
            value = s.values[i]
            if value <= 0:
                continue
            height = value / top * plot_height
            y = TOP + plot_height - (base / top * plot_height) - height
            colour = PALETTE[index % len(PALETTE)]
            shown = f"{value * 100:.0f}%" if unit == "%" else f"{value:g}"
            bars.append(
                Bar(
                    x=LEFT + i * slot + slot * 0.15,
                    y=y,
                    width=slot * 0.7,
                    height=height,
                    colour=colour,
                    label=f"{category} · {s.name}: {shown}",
                )
            )
            base += value
    every = max(1, kept // 8)
    ticks = tuple(
        Tick(x=LEFT + i * slot + slot / 2, text=_short(c))
        for i, c in enumerate(categories)
        if i % every == 0
    )
    legend = tuple((s.name, PALETTE[i % len(PALETTE)]) for i, s in enumerate(series))
    return BarChart(
        chart_id=chart_id,
        title=title,
        unit=unit,
        categories=categories,
        series=series,
        bars=tuple(bars),
        ticks=ticks,
        top_value=top,
        legend=legend,
        axis=axis,
    )
