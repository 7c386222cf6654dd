"""The case lifecycle (DCP-07 R6): eight statuses, the outcome table, the transition table,
and the one function that moves a case. The tables are proved over every pair."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord.cases import Case, Decision
from accord.cases.lifecycle import LEGAL_PAIRS, OUTCOMES, Outcome, SettleStatus, transition
from accord.conflicts import Tier
from accord.dcp07.statuses import FINAL, TRANSITIONS, CaseStatus, check_transition, is_legal
from accord.errors import AccordError, IllegalTransition

from ._builders import NOW, decide_case, pos

S = CaseStatus
ACTIVE = {S.OPEN, S.NEGOTIATING, S.ESCALATED, S.ARBITRATING, S.APPEALING}


def spec_allows(from_status: CaseStatus, to_status: CaseStatus) -> bool:
    """R6 and the tiers in words, written independently of the module's table."""
    if from_status in {S.RESOLVED, S.WITHDRAWN, S.ABANDONED}:
        return False  # final statuses are never left
    if to_status in {S.RESOLVED, S.WITHDRAWN}:
        return True  # any active case may be settled or withdrawn
    if to_status is S.ABANDONED:
        # every deadline ran out: only at the last tier (appealing, or waiting escalated to
        # it); below it a deadline escalates (R4, R9) instead
        return from_status in {S.ESCALATED, S.APPEALING}
    if to_status is S.OPEN:
        return False  # nothing reopens
    if to_status is S.NEGOTIATING:
        return from_status is S.OPEN  # tier 1 negotiates first (R7)
    if to_status is S.ARBITRATING:
        return from_status in {S.OPEN, S.ESCALATED}  # R2 starts there, or escalation leads there
    if to_status is S.ESCALATED:
        return from_status in {S.OPEN, S.NEGOTIATING, S.ESCALATED, S.ARBITRATING}  # R4, R9, R15
    assert to_status is S.APPEALING
    return from_status is not S.APPEALING  # human appeal at any time (R17), once


statuses = st.sampled_from(list(CaseStatus))


@given(statuses, statuses)
def test_r06_the_transition_table_joins_exactly_the_pairs_the_rules_allow(
    from_status: CaseStatus, to_status: CaseStatus
) -> None:
    assert is_legal(from_status, to_status) is spec_allows(from_status, to_status)


@given(statuses, statuses)
def test_r06_every_illegal_transition_is_refused_with_an_error_naming_both_statuses(
    from_status: CaseStatus, to_status: CaseStatus
) -> None:
    if spec_allows(from_status, to_status):
        check_transition(from_status, to_status, "disp:1")
        return
    with pytest.raises(IllegalTransition) as raised:
        check_transition(from_status, to_status, "disp:1")
    error = raised.value
    assert isinstance(error, AccordError)
    assert error.code == "case.illegal_transition"
    assert error.context["from_status"] == from_status.value
    assert error.context["to_status"] == to_status.value
    assert error.context["rule"] == "R6"
    assert error.context["case_id"] == "disp:1"
    assert from_status.value in error.message
    assert to_status.value in error.message


@pytest.mark.parametrize("from_status", list(CaseStatus))
@pytest.mark.parametrize("to_status", list(CaseStatus))
def test_r06_the_table_is_exhaustive_over_all_sixty_four_pairs(
    from_status: CaseStatus, to_status: CaseStatus
) -> None:
    assert set(TRANSITIONS) == set(CaseStatus)
    assert (to_status in TRANSITIONS[from_status]) is spec_allows(from_status, to_status)


def test_r06_resolved_withdrawn_and_abandoned_are_final_and_every_other_status_can_end() -> None:
    assert {s for s in CaseStatus if not TRANSITIONS[s]} == FINAL
    for status in ACTIVE:
        assert TRANSITIONS[status] >= {S.RESOLVED, S.WITHDRAWN}


@pytest.mark.parametrize("from_status", [S.OPEN, S.NEGOTIATING, S.ARBITRATING])
def test_r06_a_dispute_below_the_last_tier_is_never_abandoned_directly(
    from_status: CaseStatus,
) -> None:
    with pytest.raises(IllegalTransition) as raised:
        check_transition(from_status, S.ABANDONED, "disp:1")
    assert raised.value.context["requirement"] == "R6"
    assert "every deadline ran out" in raised.value.message


def test_r06_an_escalated_case_is_abandoned_only_when_it_waits_at_human_appeal() -> None:
    check_transition(S.ESCALATED, S.ABANDONED, "disp:1", at_last_tier=True)
    check_transition(S.APPEALING, S.ABANDONED, "disp:1", at_last_tier=True)
    with pytest.raises(IllegalTransition) as raised:
        check_transition(S.ESCALATED, S.ABANDONED, "disp:1", at_last_tier=False)
    assert raised.value.context["requirement"] == "R6"
    assert raised.value.context["to_status"] == "abandoned"


def test_r06_a_final_status_is_refused_citing_r6() -> None:
    for final in FINAL:
        with pytest.raises(IllegalTransition) as raised:
            check_transition(final, S.RESOLVED, "disp:1")
        assert raised.value.context["requirement"] == "R6"
        assert "a final status" in raised.value.message


def test_every_outcome_maps_onto_one_legal_status_pair_and_every_settle_status_is_used() -> None:
    assert set(OUTCOMES) == set(Outcome)
    assert set(OUTCOMES.values()) == LEGAL_PAIRS
    assert {status for status, _ in LEGAL_PAIRS} == set(SettleStatus)
    assert OUTCOMES[Outcome.QUEUED] == (SettleStatus.ESCALATED, CaseStatus.APPEALING)
    assert OUTCOMES[Outcome.CONSENSUS] == (SettleStatus.NO_CONFLICT, CaseStatus.RESOLVED)
    assert {dcp for _, dcp in LEGAL_PAIRS} < set(CaseStatus)  # negotiation, panels: not yet


@pytest.mark.parametrize(
    ("status", "dcp_status"),
    [(s, d) for s in SettleStatus for d in CaseStatus if (s, d) not in LEGAL_PAIRS],
)
def test_a_case_with_a_status_pair_the_lifecycle_does_not_know_is_refused(
    status: SettleStatus, dcp_status: CaseStatus
) -> None:
    case = decide_case([pos("a", 1200.5, 0.6), pos("b", 800, 0.6)])
    data = {name: getattr(case, name) for name in Case.model_fields}
    with pytest.raises(ValueError, match="not a state of the case lifecycle"):
        Case.model_validate({**data, "status": status, "dcp_status": dcp_status})


def _in(outcome: Outcome) -> Case:
    """A real case whose status pair is ``outcome``'s."""
    escalated = decide_case([pos("a", 1200.5, 0.6), pos("b", 800, 0.6)])
    if outcome is Outcome.ESCALATED:
        return escalated
    if outcome is Outcome.CONSENSUS:
        return decide_case([pos("a", 0.5, 0.8), pos("b", 0.5)])
    if outcome is Outcome.MERGED:
        return decide_case([pos("a", {"total": 10.25}), pos("b", {"currency": "EUR"})])
    if outcome is Outcome.SETTLED:
        return decide_case([pos("a", 1200.5, 0.9), pos("b", 800, 0.2)])
    queued = transition(escalated, Outcome.QUEUED, approval_item_id="apr:1")
    if outcome is Outcome.QUEUED:
        return queued
    return transition(queued, outcome, decided_at=NOW + timedelta(minutes=5))


outcomes = st.sampled_from(list(Outcome))


@given(outcomes, outcomes)
def test_r06_transition_moves_a_case_exactly_when_the_table_joins_its_statuses(
    start: Outcome, to: Outcome
) -> None:
    case = _in(start)
    legal = is_legal(case.dcp_status, OUTCOMES[to][1]) and not (
        # R6: an escalated case runs out of deadlines only while it waits at human appeal
        case.dcp_status is S.ESCALATED
        and OUTCOMES[to][1] is S.ABANDONED
        and case.tier is not Tier.HUMAN_APPEAL
    )
    changes = {"approval_item_id": "apr:2"} if to is Outcome.QUEUED else {}
    if not legal:
        with pytest.raises(IllegalTransition):
            transition(case, to, **changes)
        return
    if to is Outcome.SETTLED and case.decision is None:
        return  # settling needs a decision: that is settle_on_winner's job (its own tests)
    moved = transition(case, to, **changes)
    assert (moved.status, moved.dcp_status) == OUTCOMES[to]
    assert moved.case_id == case.case_id


def test_r06_a_settle_case_waiting_below_human_appeal_is_not_abandoned_but_one_at_it_is() -> None:
    below = _in(Outcome.ESCALATED)
    assert below.tier is not Tier.HUMAN_APPEAL
    with pytest.raises(IllegalTransition) as raised:
        transition(below, Outcome.EXPIRED, decided_at=NOW + timedelta(minutes=5))
    assert raised.value.context["requirement"] == "R6"
    at_appeal = transition(below, Outcome.ESCALATED, tier=Tier.HUMAN_APPEAL)
    ended = transition(at_appeal, Outcome.EXPIRED, decided_at=NOW + timedelta(minutes=5))
    assert (ended.status, ended.dcp_status) == (SettleStatus.EXPIRED, S.ABANDONED)


def test_transition_validates_the_new_case_instead_of_copying_it() -> None:
    outsider = Decision(winner="agent:z", winners=("agent:z",), rung="x")
    with pytest.raises(ValueError, match="not parties"):
        transition(_in(Outcome.ESCALATED), Outcome.ESCALATED, decision=outsider)


def test_transition_takes_the_status_pair_from_the_outcome_only() -> None:
    with pytest.raises(TypeError, match="status"):
        transition(_in(Outcome.ESCALATED), Outcome.ESCALATED, status=SettleStatus.SETTLED)
