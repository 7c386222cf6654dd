"""The one "settle on a winning group" operation, and the four paths that call it: tier 1,
a tier-2 strategy, a person's decision and a successor's probe receipt."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accord.boundary import ResolutionReceipt
from accord.boundary.model import ProbeResultRecord
from accord.cases import Case, SettleStatus
from accord.cases.case import CaseStatus
from accord.cases.human_decision import fold_human_decision
from accord.cases.lifecycle import Outcome, transition
from accord.cases.records import (
    ByPerson,
    ByProbe,
    OnTheLadder,
    ResolvedByPerson,
    ResolvedByProbe,
    ResolvedOnTheLadder,
)
from accord.cases.session_close import fold_receipt
from accord.cases.settle_on_winner import Dissenter, lead_of, settle_on_winner
from accord.cases.tier_two import fold_outcome
from accord.clock import isoformat
from accord.conflicts import Tier
from accord.errors import IllegalTransition
from accord.ladder.strategy_types import DissentDraft, StrategyOutcome

from ._builders import NOW, decide_case, pos

LATER = NOW + timedelta(minutes=3)


def three_way() -> Case:
    """An escalated case (a tie): a and c answer 1200 (c more sure), b and d answer 800."""
    return decide_case(
        [pos("a", 1200, 0.6), pos("b", 800, 0.6), pos("c", 1200, 0.7), pos("d", 800, 0.7)]
    )


def _winning_group(case: Case) -> int:
    return next(i for i, g in enumerate(case.detection.groups) if "a" in g.agents)


def test_settling_on_a_group_records_one_dissent_per_other_party_at_the_one_decision_time() -> None:
    case = three_way()
    assert case.status is SettleStatus.ESCALATED
    group = case.detection.groups[_winning_group(case)]
    settled = settle_on_winner(
        case,
        winners=group.agents,
        answer=group.answer,
        rung="judge",
        tier=Tier.CONTEXTUAL_ARBITRATION,
        confidence=0.8,
        decided_by="judge:model",
        reasoning="the invoice says 1200",
        decided_at=LATER,
    ).case
    assert (settled.status, settled.dcp_status) == (SettleStatus.SETTLED, CaseStatus.RESOLVED)
    decision = settled.decision
    assert decision is not None
    assert decision.winner == "c"  # the most confident winner leads
    assert set(decision.winners) == {"a", "c"}
    assert decision.answer == 1200
    assert decision.resolution_id
    assert decision.resolution_id.startswith("res:")
    assert [d.agent_id for d in settled.dissent] == ["b", "d"]
    dissent = settled.dissent[0]
    assert dissent.strategy == "judge"
    assert dissent.decided_by == "judge:model"
    assert dissent.reasoning == "the invoice says 1200"
    assert dissent.winning_answer == 1200
    assert dissent.created_at == settled.decided_at == LATER
    assert settled.tier is Tier.CONTEXTUAL_ARBITRATION


def test_named_dissenters_lead_and_arguments_are_kept_as_given() -> None:
    case = three_way()
    group = case.detection.groups[_winning_group(case)]
    b = next(p for p in case.positions if p.agent == "b")
    settled = settle_on_winner(
        case,
        winners=group.agents,
        answer=group.answer,
        lead="a",
        rung="debate",
        tier=Tier.CONTEXTUAL_ARBITRATION,
        confidence=0.7,
        decided_by="debate",
        reasoning="a argued better",
        decided_at=LATER,
        dissenters=[Dissenter(b, "debate:round-2")],
        arguments={"a": "receipt", "b": "memory"},
        department="finance",
    ).case
    assert settled.decision is not None
    assert settled.decision.winner == "a"
    [dissent] = settled.dissent
    assert dissent.strategy == "debate:round-2"
    assert dissent.arguments == {"a": "receipt", "b": "memory"}
    assert dissent.department == settled.department == "finance"


def test_a_final_case_cannot_be_settled_again() -> None:
    settled = decide_case([pos("a", 1200.5, 0.9), pos("b", 800, 0.2)])
    assert settled.dcp_status is CaseStatus.RESOLVED
    group = settled.detection.groups[0]
    with pytest.raises(IllegalTransition) as raised:
        settle_on_winner(
            settled,
            winners=group.agents,
            answer=group.answer,
            rung="human",
            tier=Tier.HUMAN_APPEAL,
            confidence=1.0,
            decided_by="human:alice",
            reasoning="",
            decided_at=LATER,
        )
    assert raised.value.context == {
        "case_id": settled.case_id,
        "from_status": "resolved",
        "to_status": "resolved",
        "field": "status",
        "rule": "R6",
        "requirement": "R6",
    }


def test_a_winner_who_is_not_a_party_is_refused() -> None:
    case = three_way()
    with pytest.raises(ValueError, match="not parties"):
        settle_on_winner(
            case,
            winners=("z",),
            answer=1,
            lead="z",
            rung="judge",
            tier=Tier.CONTEXTUAL_ARBITRATION,
            confidence=1.0,
            decided_by="judge",
            reasoning="",
            decided_at=LATER,
            dissenters=[],
        )


def test_lead_of_picks_the_most_confident_winner_and_the_first_on_a_tie() -> None:
    positions = [pos("a", 1, 0.5), pos("b", 1, 0.5), pos("c", 1, None)]
    assert lead_of(positions, ["a", "b", "c"]) == "a"
    assert lead_of(positions, ["c", "b"]) == "b"


def test_tier_one_settles_through_the_operation_and_signs_a_ladder_record() -> None:
    case = decide_case([pos("a", 1200.5, 0.9), pos("b", 800, 0.2)])
    assert case.decision is not None
    assert case.decision.rung is not None
    [dissent] = case.dissent
    assert dissent.decided_by == dissent.strategy == case.decision.rung
    record = ResolvedOnTheLadder.model_validate(
        {**_dump(case, OnTheLadder(None)), "answer": case.decision.answer}
    )
    assert record.resolution_type == "tier_one"


def _dump(case: Case, how: OnTheLadder) -> dict[str, object]:
    from accord.cases.records import dispute_resolved

    return dispute_resolved(case, how).record()


def test_a_strategy_outcome_settles_with_its_drafts_and_judge_reasoning() -> None:
    case = three_way()
    index = _winning_group(case)
    b = next(p for p in case.positions if p.agent == "b")
    outcome = StrategyOutcome(
        strategy="judge",
        status="decided",
        group=index,
        winner="a",
        confidence=0.75,
        reasoning="long reasoning",
        judge_reasoning="the judge's words",
        decided_by="judge:gpt",
        tokens_in=10,
        tokens_out=4,
        model_calls=1,
    )
    draft = DissentDraft(
        agent_id="b", position=b, reasoning="b's", resolution_reasoning="x", strategy="judge"
    )
    folded = fold_outcome(case, outcome, (draft,), department=None, now=LATER)
    assert folded.status is SettleStatus.SETTLED
    assert folded.escalation is None
    assert folded.decision is not None
    assert folded.decision.winner == "a"
    assert folded.dissent[0].reasoning == "the judge's words"
    assert folded.dissent[0].decided_by == "judge:gpt"
    assert (folded.tokens_in, folded.tokens_out, folded.model_calls) == (10, 4, 1)
    assert folded.strategy == "judge"
    assert folded.attempts[-1].rung == "judge"


def _queued(case: Case) -> Case:
    return transition(case, Outcome.QUEUED, approval_item_id="apr:1", tier=Tier.HUMAN_APPEAL)


def test_a_persons_choice_settles_on_the_chosen_group_and_signs_a_person_record() -> None:
    case = _queued(three_way())
    from accord.ladder import Conflict, options_of

    assert case.classification is not None
    dispute = Conflict(
        case_id=case.case_id,
        subject=case.subject,
        task_type=case.task_type,
        positions=case.positions,
        detection=case.detection,
        classification=case.classification,
    )
    choice = options_of(dispute)[_winning_group(case)]
    finished = fold_human_decision(
        case,
        outcome="approved",
        choice=choice,
        decided_by="human:alice",
        reason="",
        decided_at=LATER,
    )
    assert finished.tier is Tier.HUMAN_APPEAL
    assert finished.dissent[0].reasoning == "decided by human:alice"
    from accord.cases.records import dispute_resolved

    record = dispute_resolved(finished, ByPerson("human:alice", "apr:1"))
    assert isinstance(record, ResolvedByPerson)
    assert record.decided_at == record.log["time"] == isoformat(LATER)
    assert set(record.record()) == {
        "dispute_id", "resolution_id", "resolution_level", "resolution_type", "rung", "winner",
        "winners", "answer", "answer_hash", "decided_by", "approval_item_id", "dissent",
        "decided_at", "log",
    }  # fmt: skip


def test_a_denial_abandons_the_case_through_the_lifecycle() -> None:
    case = _queued(three_way())
    denied = fold_human_decision(
        case, outcome="denied", choice=None, decided_by="human:bob", reason="no", decided_at=LATER
    )
    assert (denied.status, denied.dcp_status) == (SettleStatus.DENIED, CaseStatus.ABANDONED)
    with pytest.raises(IllegalTransition):
        fold_human_decision(
            denied, outcome="denied", choice=None, decided_by="x", reason="", decided_at=LATER
        )


def _receipt(case: Case, winners: tuple[str, ...], losers: tuple[str, ...]) -> ResolutionReceipt:
    return ResolutionReceipt(
        boundary_id="bnd:1",
        case_id=case.case_id,
        session_id="s",
        probe="erp_total",
        arguments={},
        result=ProbeResultRecord(value="1200", detail="erp says 1200", evidence=None),
        winner_agents=winners,
        loser_agents=losers,
        winning_conclusion=1200,
        verified_consensus=(),
        attempt_id="att:1",
        resolved_at=LATER,
        receipt_hash="sha256:00",
    )


def test_a_probe_receipt_settles_at_the_tier_that_worked_on_the_case_never_human_appeal() -> None:
    case = _queued(three_way())
    settlement = fold_receipt(case, _receipt(case, ("a", "c"), ("b", "stranger")))
    settled = settlement.case
    assert settled.tier is Tier.DIRECT_NEGOTIATION  # no tier-2 strategy ran; nobody decided
    assert settled.decision is not None
    assert settled.decision.winner == "c"
    assert settled.decision.answer == 1200
    assert [d.agent_id for d in settled.dissent] == ["b"]  # as the receipt says; unknown: skipped
    assert settled.dissent[0].decided_by == "probe:erp_total"
    record = settlement.resolved_record(ByProbe("erp_total", "erp says", "bnd:1", "sha256:00"))
    assert isinstance(record, ResolvedByProbe)
    assert record.decided_at == isoformat(LATER)
    assert set(record.record()) == {
        "dispute_id", "resolution_id", "resolution_level", "resolution_type", "decided_by",
        "reasoning", "rung", "winner", "winners", "answer", "answer_hash", "boundary_id",
        "probe_receipt", "dissent", "decided_at", "log",
    }  # fmt: skip
