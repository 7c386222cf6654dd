from __future__ import annotations

from datetime import date

import pytest

from accord.learning import summarize_outcomes, summary_markdown

from ._builders import outcome
from ._cases import history


def test_counts_by_kind_severity_and_strategy() -> None:
    summary = summarize_outcomes(history())
    assert summary.total == 10
    assert summary.by_kind == {
        "direct_contradiction": 3,
        "numerical_inconsistency": 6,
        "priority_conflict": 1,
    }
    assert summary.by_severity == {"critical": 3, "major": 5, "minor": 2}
    assert summary.by_strategy == {
        "confidence_based": 6,
        "llm_arbitration": 3,
        "source_verification": 1,
    }
    assert summary.escalated == 3
    assert summary.escalation_rate == pytest.approx(0.3)


def test_cases_are_bucketed_by_their_utc_day() -> None:
    days = summarize_outcomes(history()).days
    assert [(d.day, d.total, d.escalated) for d in days] == [
        (date(2026, 11, 1), 3, 1),
        (date(2026, 11, 2), 2, 0),
        (date(2026, 11, 3), 5, 2),
    ]
    assert days[2].escalation_rate == pytest.approx(0.4)
    assert days[2].by_kind == {
        "direct_contradiction": 1,
        "numerical_inconsistency": 3,
        "priority_conflict": 1,
    }


def test_agents_records_and_routing_flags_follow_the_win_rate_rule() -> None:
    summary = summarize_outcomes(history())
    assert [(a.agent, a.wins, a.cases) for a in summary.agents] == [
        ("agent:a", 5, 6),
        ("agent:b", 2, 4),
        ("agent:c", 1, 6),
    ]
    assert [(f.agent, f.task_type, f.cases) for f in summary.routing_flags] == [
        ("agent:c", "invoicing", 6)
    ]
    assert summarize_outcomes(history(), min_cases=7).routing_flags == []


def test_the_root_causes_are_part_of_the_summary() -> None:
    groups = summarize_outcomes(history()).root_causes.groups
    assert [(g.cause, g.count) for g in groups] == [
        ("unknown", 6),
        ("stale_data", 3),
        ("wrong_assumption", 1),
    ]


def test_no_outcomes_summarize_to_zeros() -> None:
    summary = summarize_outcomes([])
    assert (summary.total, summary.escalation_rate, summary.days, summary.agents) == (
        0,
        0.0,
        [],
        [],
    )


def test_the_markdown_shows_counts_flags_and_causes() -> None:
    text = summary_markdown(summarize_outcomes(history()))
    assert text.startswith("# Accord learning report\n")
    assert "- cases: 10" in text
    assert "- escalated: 3 (30.0%)" in text
    assert "| numerical_inconsistency | 6 | 60.0% |" in text
    assert "| critical | 3 | 30.0% |" in text
    assert "| agent:c | invoicing | 0.17 | 6 |" in text
    assert "| stale_data | 3 | 30.0% | c01, c02, c07 |" in text


def test_the_markdown_says_so_when_nobody_is_flagged() -> None:
    text = summary_markdown(summarize_outcomes(history()[:2]))
    assert "No agent is flagged (win rate under 0.40 over at least 5 cases" in text


def test_agents_under_the_line_with_too_few_cases_are_named_with_the_minimum_sample() -> None:
    few = [outcome(f"c{i}", winner="agent:a", losers=("agent:b",)) for i in range(2)]
    summary = summarize_outcomes(few)
    text = summary_markdown(summary)

    assert summary.routing_flags == []
    assert [a.agent for a in summary.below_threshold_unflagged] == ["agent:b"]
    assert "No agent is below the routing threshold." not in text
    assert "Rule: win rate under 0.40 over at least 5 cases of one task type." in text
    assert "Under the line on the win-rate chart but not flagged (fewer than 5" in text
    assert "- agent:b: 0.00 over 2 cases" in text
