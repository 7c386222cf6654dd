"""The summary people read repeats each answer and reasoning only in part: the item carries
every position whole, so a long text is stored once, not once per place it is shown."""

from __future__ import annotations

from pathlib import Path

from accord import Accord
from accord.ladder._strategy_support import SUMMARY_EXCERPT_CHARS, excerpt


def test_a_short_text_is_repeated_whole() -> None:
    assert excerpt("no receipt", SUMMARY_EXCERPT_CHARS) == "no receipt"


def test_a_long_text_is_cut_and_says_how_much_more_the_position_holds() -> None:
    cut = excerpt("r" * 2500, 2000)

    assert cut.startswith("r" * 2000 + "…")
    assert "500 more characters in the position" in cut


def test_a_queued_case_shows_a_long_reasoning_whole_only_in_its_position(tmp_path: Path) -> None:
    accord = Accord.open(db_url=f"sqlite:///{tmp_path}/a.db", keys_dir=tmp_path / "keys")
    reasoning = "x" * 50_000
    try:
        case = accord.settle(
            "Refund 2,400 to customer 8812",
            [
                {"agent": "agent:billing", "output": "approve", "reasoning": reasoning},
                {"agent": "agent:audit", "output": "reject", "reasoning": "card flagged"},
            ],
            task_type="refunds",
        )
        (item,) = [i for i in accord.approvals.list() if i.case_id == case.case_id]
    finally:
        accord.close()

    assert reasoning not in item.summary
    assert "48,000 more characters in the position" in item.summary
    assert "card flagged" in item.summary
    assert any(p.reasoning == reasoning for p in item.positions)
