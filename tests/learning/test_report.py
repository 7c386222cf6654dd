from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Literal

import pytest

from accord.learning import ReportFiles, render_report

from ._builders import outcome
from ._cases import history

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SVG_ROOT = "{http://www.w3.org/2000/svg}svg"


def _plots(files: ReportFiles) -> list[Path]:
    return [files.cases_by_kind, files.escalation_rate, files.win_rates]


def test_png_reports_write_three_valid_png_plots(tmp_path: Path) -> None:
    files = render_report(history(), tmp_path / "report")
    for path in _plots(files):
        assert path.suffix == ".png"
        assert path.read_bytes().startswith(PNG_MAGIC)
    assert files.cases_by_kind.name == "cases_by_kind.png"


def test_svg_reports_write_three_svg_documents(tmp_path: Path) -> None:
    files = render_report(history(), tmp_path, fmt="svg")
    for path in _plots(files):
        assert path.suffix == ".svg"
        assert ET.parse(path).getroot().tag == SVG_ROOT


def test_svg_output_depends_on_the_outcomes_only(tmp_path: Path) -> None:
    first = render_report(history(), tmp_path / "one", fmt="svg")
    second = render_report(history(), tmp_path / "two", fmt="svg")
    for a, b in zip(_plots(first), _plots(second), strict=True):
        assert a.read_bytes() == b.read_bytes()
    assert b"<dc:date>" not in first.win_rates.read_bytes()


def test_the_json_summary_holds_the_right_numbers(tmp_path: Path) -> None:
    files = render_report(history(), tmp_path)
    summary = json.loads(files.summary_json.read_text(encoding="utf-8"))
    assert summary["total"] == 10
    assert summary["escalated"] == 3
    assert summary["escalation_rate"] == pytest.approx(0.3)
    assert summary["by_kind"]["numerical_inconsistency"] == 6
    assert summary["by_severity"] == {"critical": 3, "major": 5, "minor": 2}
    assert [d["day"] for d in summary["days"]] == ["2026-11-01", "2026-11-02", "2026-11-03"]
    assert summary["routing_flags"][0]["agent"] == "agent:c"
    assert summary["root_causes"]["groups"][1] == {
        "cause": "stale_data",
        "count": 3,
        "share": 0.3,
        "kinds": {"numerical_inconsistency": 2, "priority_conflict": 1},
        "example_case_ids": ["c01", "c02", "c07"],
    }


def test_the_markdown_summary_is_written_next_to_the_plots(tmp_path: Path) -> None:
    files = render_report(history(), tmp_path)
    assert files.summary_markdown.parent == files.win_rates.parent == tmp_path
    assert "- escalated: 3 (30.0%)" in files.summary_markdown.read_text(encoding="utf-8")


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_an_empty_history_still_gives_every_file(
    tmp_path: Path, fmt: Literal["png", "svg"]
) -> None:
    files = render_report([], tmp_path, fmt=fmt)
    for path in _plots(files):
        assert path.stat().st_size > 0
    assert json.loads(files.summary_json.read_text(encoding="utf-8"))["total"] == 0


def test_a_forty_day_history_renders(tmp_path: Path) -> None:
    outcomes = [outcome(f"c{day}", day=day, escalated=day % 3 == 0) for day in range(40)]
    files = render_report(outcomes, tmp_path, fmt="svg")
    assert ET.parse(files.cases_by_kind).getroot().tag == SVG_ROOT
