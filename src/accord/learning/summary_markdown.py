"""The short Markdown view of an ``OutcomeSummary``."""

from __future__ import annotations

from collections.abc import Mapping

from accord.learning.summary import OutcomeSummary


def _count_table(title: str, counts: Mapping[str, int], total: int) -> list[str]:
    lines = [f"## {title}", "", f"| {title.lower()} | cases | share |", "|---|---:|---:|"]
    for name, count in counts.items():
        lines.append(f"| {name} | {count} | {count / total:.1%} |")
    return [*lines, ""]


def summary_markdown(summary: OutcomeSummary) -> str:
    """Counts by kind, severity and strategy, escalation, routing flags and root causes."""
    total = summary.total
    lines = [
        "# Accord learning report",
        "",
        f"- cases: {total}",
        f"- escalated: {summary.escalated} ({summary.escalation_rate:.1%})",
        f"- days: {len(summary.days)}",
        "",
    ]
    lines += _count_table("Kind", summary.by_kind, total)
    lines += _count_table("Severity", summary.by_severity, total)
    lines += _count_table("Strategy", summary.by_strategy, total)
    rule = (
        f"win rate under {summary.threshold:.2f} over at least {summary.min_cases} cases "
        "of one task type"
    )
    lines += ["## Routing flags", "", f"Rule: {rule}.", ""]
    if summary.routing_flags:
        lines += ["| agent | task type | win rate | cases |", "|---|---|---:|---:|"]
        lines += [
            f"| {f.agent} | {f.task_type} | {f.win_rate:.2f} | {f.cases} |"
            for f in summary.routing_flags
        ]
        lines += [""] + [f"- {f.advice}" for f in summary.routing_flags]
    else:
        lines.append(f"No agent is flagged ({rule}).")
    unflagged = summary.below_threshold_unflagged
    if unflagged:
        lines += [
            "",
            f"Under the line on the win-rate chart but not flagged (fewer than "
            f"{summary.min_cases} cases on any one task type):",
            "",
        ]
        lines += [f"- {a.agent}: {a.win_rate:.2f} over {a.cases} cases" for a in unflagged]
    lines += [
        "",
        "## Root causes",
        "",
        "| cause | cases | share | examples |",
        "|---|---:|---:|---|",
    ]
    lines += [
        f"| {g.cause} | {g.count} | {g.share:.1%} | {', '.join(g.example_case_ids)} |"
        for g in summary.root_causes.groups
    ]
    return "\n".join(lines) + "\n"
