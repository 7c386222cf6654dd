"""Bar chart geometry for the dashboard's inline SVG."""

from __future__ import annotations

import pytest

from accord.api.ui.charts import HEIGHT, MAX_CATEGORIES, Series, bar_chart


def test_stacked_bars_are_drawn_to_scale_one_on_another() -> None:
    chart = bar_chart(
        "c", "Cases", ["d1", "d2"], [Series("a", (1.0, 3.0)), Series("b", (1.0, 0.0))]
    )
    assert chart.top_value == 3.0
    d1a, d1b, d2a = chart.bars
    assert d1a.height == pytest.approx(d1b.height)
    assert d1b.y + d1b.height == pytest.approx(d1a.y)  # b sits on a
    assert d2a.height == pytest.approx(3 * d1a.height)
    assert d2a.y >= 0
    assert d2a.y + d2a.height <= HEIGHT
    assert d1b.label == "d1 · b: 1"
    assert [name for name, _ in chart.legend] == ["a", "b"]


def test_a_rate_chart_writes_percentages_and_keeps_its_fixed_top() -> None:
    chart = bar_chart("r", "Rate", ["x"], [Series("won", (0.25,))], unit="%", top_value=1.0)
    assert chart.shown(0.25) == "25%"
    assert chart.top_value == 1.0
    assert chart.bars[0].label == "x · won: 25%"


def test_an_empty_chart_has_no_bars_and_too_many_categories_keep_the_newest() -> None:
    assert bar_chart("e", "Empty", [], [Series("s", ())]).empty
    many = [str(i) for i in range(MAX_CATEGORIES + 5)]
    chart = bar_chart("m", "Many", many, [Series("s", tuple(1.0 for _ in many))])
    assert chart.categories[0] == "5"
    assert len(chart.bars) == MAX_CATEGORIES


def test_a_series_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(ValueError, match="has 1 values for 2 categories"):
        bar_chart("w", "Wrong", ["a", "b"], [Series("s", (1.0,))])
