"""Writing a learning report to disk: three plots, ``summary.json`` and ``summary.md``.

Plots use ``matplotlib.figure.Figure`` with an explicit Agg canvas, never pyplot, so no
global figure state is touched. SVG files carry no date and fixed ids, so the same
outcomes always give the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict

from accord.learning.outcomes import CaseOutcome
from accord.learning.summary import AgentRecord, OutcomeSummary, summarize_outcomes
from accord.learning.summary_markdown import summary_markdown

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

PlotFormat = Literal["png", "svg"]
MAX_DAY_TICKS = 12


class ReportFiles(BaseModel):
    """Paths of the files one report wrote."""

    model_config = ConfigDict(frozen=True)

    cases_by_kind: Path
    escalation_rate: Path
    win_rates: Path
    summary_json: Path
    summary_markdown: Path


def _figure() -> tuple[Figure, Axes]:
    # matplotlib loads only when a report is drawn: it is a third of a settling process's
    # Python objects otherwise, which every full garbage collection would walk
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 4.5), layout="constrained")
    FigureCanvasAgg(figure)
    return figure, figure.add_subplot()


def _save(figure: Figure, path: Path, fmt: PlotFormat) -> Path:
    from matplotlib import rc_context

    if fmt == "svg":
        # No date and a fixed id salt: the same outcomes always give the same bytes.
        with rc_context({"svg.hashsalt": "accord-learning"}):
            figure.savefig(path, format="svg", metadata={"Date": None})
    else:
        figure.savefig(path, format="png")
    return path


def _nothing_to_plot(axes: Axes) -> None:
    axes.text(0.5, 0.5, "no cases", ha="center", va="center", transform=axes.transAxes)


def _day_axis(axes: Axes, labels: list[str]) -> None:
    step = max(1, -(-len(labels) // MAX_DAY_TICKS))
    positions = list(range(0, len(labels), step))
    axes.set_xticks(positions, [labels[p] for p in positions], rotation=45, ha="right")
    axes.set_xlabel("day (UTC)")


def _plot_cases_by_kind(summary: OutcomeSummary, path: Path, fmt: PlotFormat) -> Path:
    figure, axes = _figure()
    axes.set_title("Cases by kind per day")
    axes.set_ylabel("cases")
    if not summary.days:
        _nothing_to_plot(axes)
        return _save(figure, path, fmt)
    x = list(range(len(summary.days)))
    bottom = [0] * len(summary.days)
    for kind in summary.by_kind:
        heights = [day.by_kind.get(kind, 0) for day in summary.days]
        axes.bar(x, heights, bottom=bottom, label=kind)
        bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
    _day_axis(axes, [day.day.isoformat() for day in summary.days])
    axes.legend(loc="upper left", fontsize="small")
    return _save(figure, path, fmt)


def _plot_escalation_rate(summary: OutcomeSummary, path: Path, fmt: PlotFormat) -> Path:
    figure, axes = _figure()
    axes.set_title("Escalation rate per day")
    axes.set_ylabel("escalated / decided")
    axes.set_ylim(0.0, 1.0)
    if not summary.days:
        _nothing_to_plot(axes)
        return _save(figure, path, fmt)
    rates = [day.escalation_rate for day in summary.days]
    axes.plot(list(range(len(rates))), rates, marker="o")
    _day_axis(axes, [day.day.isoformat() for day in summary.days])
    return _save(figure, path, fmt)


def _plot_win_rates(summary: OutcomeSummary, threshold: float, path: Path, fmt: PlotFormat) -> Path:
    figure, axes = _figure()
    axes.set_title(
        f"Win rate per agent (all task types); flagged: under {threshold} "
        f"with at least {summary.min_cases} cases of one task type"
    )
    axes.set_ylabel("win rate")
    axes.set_ylim(0.0, 1.0)
    if not summary.agents:
        _nothing_to_plot(axes)
        return _save(figure, path, fmt)
    names = [a.agent for a in summary.agents]
    colours = [_bar_colour(a, threshold) for a in summary.agents]
    bars = axes.bar(names, [a.win_rate for a in summary.agents], color=colours)
    labels = [_bar_label(a, threshold) for a in summary.agents]
    axes.bar_label(bars, labels=labels, fontsize="small")
    axes.axhline(threshold, linestyle="--", color="grey", label=f"routing threshold {threshold}")
    axes.tick_params(axis="x", labelrotation=45)
    axes.legend(loc="upper right", fontsize="small")
    return _save(figure, path, fmt)


def _bar_colour(agent: AgentRecord, threshold: float) -> str:
    if agent.flagged:
        return "tab:red"
    return "tab:orange" if agent.win_rate < threshold else "tab:blue"


def _bar_label(agent: AgentRecord, threshold: float) -> str:
    """``n=`` the sample; "flagged" or "not flagged" (too few cases per task type) for a bar
    under the line, as the summary says."""
    if agent.flagged:
        return f"n={agent.cases}, flagged"
    if agent.win_rate < threshold:
        return f"n={agent.cases}, not flagged"
    return f"n={agent.cases}"


def report_paths(directory: Path, fmt: PlotFormat = "png") -> list[Path]:
    """The files :func:`render_report` writes into ``directory``."""
    names = ["summary.json", "summary.md"]
    names += [f"{plot}.{fmt}" for plot in ("cases_by_kind", "escalation_rate", "win_rates")]
    return [directory / name for name in names]


def render_report(
    outcomes: Iterable[CaseOutcome],
    directory: Path,
    *,
    fmt: PlotFormat = "png",
    threshold: float = 0.4,
    min_cases: int = 5,
) -> ReportFiles:
    """Summarize ``outcomes`` and write the plots and summaries into ``directory``."""
    summary = summarize_outcomes(outcomes, threshold=threshold, min_cases=min_cases)
    directory.mkdir(parents=True, exist_ok=True)
    summary_json = directory / "summary.json"
    summary_json.write_text(summary.model_dump_json(indent=2) + "\n", encoding="utf-8")
    summary_md = directory / "summary.md"
    summary_md.write_text(summary_markdown(summary), encoding="utf-8")
    return ReportFiles(
        cases_by_kind=_plot_cases_by_kind(summary, directory / f"cases_by_kind.{fmt}", fmt),
        escalation_rate=_plot_escalation_rate(summary, directory / f"escalation_rate.{fmt}", fmt),
        win_rates=_plot_win_rates(summary, threshold, directory / f"win_rates.{fmt}", fmt),
        summary_json=summary_json,
        summary_markdown=summary_md,
    )
