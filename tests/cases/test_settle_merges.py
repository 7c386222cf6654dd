"""Complementary work is settled as a merge whose choices are signed into the ledger."""

from __future__ import annotations

from accord.cases import Settler, SettleStatus
from accord.ledger import Ledger

from ._builders import pos as p
from ._builders import request


def test_labels_from_disjoint_task_subsets_settle_as_a_merge_per_subset(
    settler: Settler, ledger: Ledger
) -> None:
    case = settler.settle(
        request(p("a", "approve", task_subset=["part1"]), p("b", "deny", task_subset=["part2"]))
    )
    assert case.status is SettleStatus.MERGED
    assert case.decision is not None
    assert case.decision.answer == {"part1": "approve", "part2": "deny"}
    assert ledger.get(case.ledger_seqs[0]).record["provenance"] == {"part1": "a", "part2": "b"}


def test_outputs_agreeing_where_they_overlap_are_merged_with_provenance(
    settler: Settler, ledger: Ledger
) -> None:
    case = settler.settle(
        request(
            p("a", {"total": 100, "city": "Lyon"}, field_confidence={"total": 0.4}),
            p("b", {"total": 104, "country": "FR"}, confidence=0.95),
        )
    )
    assert case.status is SettleStatus.MERGED
    assert case.decision is not None
    assert case.decision.answer == {"total": 104, "city": "Lyon", "country": "FR"}
    record = ledger.get(case.ledger_seqs[0]).record
    assert record["provenance"] == {"total": "b", "city": "a", "country": "b"}
    assert record["conflicts_resolved"] == ["total"]


def test_the_same_field_from_disjoint_subsets_records_which_value_was_kept(
    settler: Settler, ledger: Ledger
) -> None:
    case = settler.settle(
        request(
            p("a", {"x": 1}, task_subset=["part1"], confidence=0.9),
            p("b", {"x": 2}, task_subset=["part2"], confidence=0.5),
        )
    )
    assert case.status is SettleStatus.MERGED
    assert case.decision is not None
    assert case.decision.conflicts_resolved == ("x",)
    assert ledger.get(case.ledger_seqs[0]).record["conflicts_resolved"] == ["x"]
