"""``decide`` on positions that do not conflict: consensus, or complementary work merged."""

from __future__ import annotations

from accord.cases import CaseStatus, SettleStatus
from accord.conflicts import Tier

from ._builders import NOW, SUBJECT, TASK, decide_case, pos


def test_agreeing_agents_make_a_no_conflict_case_resolved_by_consensus() -> None:
    case = decide_case([pos("a", 100, 0.9), pos("b", 100, 0.4)], session_id="s-1")

    assert case.status is SettleStatus.NO_CONFLICT
    assert case.dcp_status is CaseStatus.RESOLVED
    assert case.tier is Tier.DIRECT_NEGOTIATION
    assert case.classification is None
    assert case.decision is not None
    assert case.decision.rung == "consensus"
    assert case.decision.winners == ("a", "b")
    assert case.decision.winner is None
    assert case.decision.answer == 100
    assert case.figures == {"a": 100, "b": 100}
    assert case.decision.confidence is None
    assert case.dissent == ()
    assert case.attempts == ()
    assert case.escalation is None


def test_agreement_within_tolerance_records_every_figure_and_no_invented_confidence() -> None:
    case = decide_case([pos("a", 100, 0.9), pos("b", 104, 0.4)], session_id="s-1")

    assert case.status is SettleStatus.NO_CONFLICT
    assert case.dcp_status is CaseStatus.RESOLVED
    assert case.tier is Tier.DIRECT_NEGOTIATION
    assert case.classification is None
    assert case.decision is not None
    assert case.decision.rung == "consensus"
    assert case.decision.winners == ("a", "b")
    assert case.decision.winner is None
    assert case.decision.answer is None  # 100 and 104 agree within tolerance; neither is it
    assert case.figures == {"a": 100, "b": 104}
    assert case.decision.confidence is None  # no agent-independent confidence was stated
    assert case.dissent == ()
    assert case.attempts == ()
    assert case.escalation is None


def test_a_case_carries_its_request_and_times() -> None:
    case = decide_case([pos("a", "ok")], session_id="s-1", duration_ms=12)

    assert case.case_id.startswith("disp:")
    assert (case.subject, case.task_type, case.session_id) == (SUBJECT, TASK, "s-1")
    assert case.created_at == case.decided_at == NOW
    assert case.duration_ms == 12
    assert case.ledger_seqs == ()


def test_a_single_position_is_consensus_with_itself() -> None:
    case = decide_case([pos("solo", "approve")])

    assert case.status is SettleStatus.NO_CONFLICT
    assert case.decision is not None
    assert case.decision.winners == ("solo",)
    assert case.decision.answer == "approve"


def test_every_case_gets_a_fresh_id() -> None:
    positions = [pos("a", 1), pos("b", 1)]

    assert decide_case(positions).case_id != decide_case(positions).case_id


def test_complementary_structured_outputs_are_merged_with_provenance() -> None:
    case = decide_case(
        [
            pos("totals", {"invoice": {"total": 1200.5}}, 0.8),
            pos("parties", {"invoice": {"buyer": "ACME"}, "currency": "EUR"}, 0.7),
        ]
    )

    assert case.status is SettleStatus.MERGED
    assert case.dcp_status is CaseStatus.RESOLVED
    decision = case.decision
    assert decision is not None
    assert decision.rung == "merge"
    assert decision.answer == {
        "invoice": {"total": 1200.5, "buyer": "ACME"},
        "currency": "EUR",
    }
    assert decision.provenance == {
        "invoice.total": "totals",
        "invoice.buyer": "parties",
        "currency": "parties",
    }
    assert decision.winners == ("totals", "parties")
    assert decision.resolution_id is not None
    assert decision.resolution_id.startswith("res:")
    assert case.dissent == ()


def test_agents_with_disjoint_task_subsets_are_merged_not_settled() -> None:
    case = decide_case(
        [
            pos("a", {"lines": 3}, task_subset=["page-1"]),
            pos("b", {"lines": 5}, task_subset=["page-2"]),
        ]
    )

    assert case.status is SettleStatus.MERGED
    assert case.decision is not None
    assert case.decision.provenance == {"lines": "a"}
