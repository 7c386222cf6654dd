"""Tier-1 negotiation (R7, R9): proposals, counter-evidence and acceptances as pure state."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord.dcp07.negotiation import Negotiation, NegotiationRefused, NegotiationStatus

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
DEADLINE = NOW + timedelta(hours=4)
HASH = "sha256:" + "ab" * 32


def talks(*parties: str) -> Negotiation:
    return Negotiation(
        dispute_id="disp:1", parties=parties or ("agent:a", "agent:b"), deadline=DEADLINE
    )


def refused(excinfo: pytest.ExceptionInfo[NegotiationRefused], code: str, requirement: str) -> None:
    assert excinfo.value.code == code
    assert excinfo.value.context["requirement"] == requirement


def test_r07_a_proposal_every_party_accepts_resolves_the_dispute() -> None:
    state = talks().propose("agent:a", "share the GPU 50/50", at=NOW, proposal_id="prop:1")
    assert state.status(NOW) is NegotiationStatus.NEGOTIATING
    state = state.accept("agent:b", "prop:1", at=NOW + timedelta(minutes=5))
    agreement = state.agreement
    assert agreement is not None
    assert agreement.proposal.terms == "share the GPU 50/50"
    assert agreement.accepted_by == ("agent:a", "agent:b")
    assert agreement.resolved_at == NOW + timedelta(minutes=5)
    assert state.status(NOW + timedelta(days=1)) is NegotiationStatus.RESOLVED


def test_r07_the_proposer_counts_as_accepting() -> None:
    state = talks().propose("agent:b", "b goes first", at=NOW, proposal_id="prop:1")
    assert state.accepted_by("prop:1") == ("agent:b",)
    with pytest.raises(NegotiationRefused) as excinfo:
        state.accept("agent:b", "prop:1", at=NOW)
    refused(excinfo, "negotiation.already_accepted", "R7")


def test_r07_a_party_cannot_accept_twice() -> None:
    state = talks("agent:a", "agent:b", "agent:c").propose(
        "agent:a", "terms", at=NOW, proposal_id="prop:1"
    )
    state = state.accept("agent:b", "prop:1", at=NOW)
    with pytest.raises(NegotiationRefused) as excinfo:
        state.accept("agent:b", "prop:1", at=NOW)
    refused(excinfo, "negotiation.already_accepted", "R7")
    assert state.agreement is None


def test_r07_accepting_an_unknown_proposal_is_refused() -> None:
    with pytest.raises(NegotiationRefused) as excinfo:
        talks().accept("agent:b", "prop:nope", at=NOW)
    refused(excinfo, "negotiation.unknown_proposal", "R7")
    assert excinfo.value.context["proposal_id"] == "prop:nope"


def test_r07_a_non_party_cannot_propose_or_accept() -> None:
    state = talks().propose("agent:a", "terms", at=NOW, proposal_id="prop:1")
    with pytest.raises(NegotiationRefused) as excinfo:
        state.propose("agent:x", "mine", at=NOW)
    refused(excinfo, "negotiation.not_a_party", "R7")
    with pytest.raises(NegotiationRefused):
        state.accept("agent:x", "prop:1", at=NOW)


def test_r07_respondents_acknowledge_then_answer_with_counter_evidence_and_proposals() -> None:
    state = talks().propose("agent:a", "a keeps it", at=NOW, proposal_id="prop:1")
    state = state.acknowledge("agent:b", at=NOW)
    state = state.submit_counter_evidence(
        "agent:b", content_hash=HASH, description="usage logs", answers="prop:1", at=NOW
    )
    state = state.propose(
        "agent:b", "b keeps it on weekends", responds_to="prop:1", at=NOW, proposal_id="prop:2"
    )
    state = state.accept("agent:a", "prop:2", at=NOW)
    assert state.acknowledged == ("agent:b",)
    assert state.counter_evidence[0].answers == "prop:1"
    assert state.agreement is not None
    assert state.agreement.proposal.proposal_id == "prop:2"


def test_r07_only_respondents_acknowledge_and_only_once() -> None:
    with pytest.raises(NegotiationRefused) as excinfo:
        talks().acknowledge("agent:a", at=NOW)
    refused(excinfo, "negotiation.complainant_acknowledges", "R7")
    with pytest.raises(NegotiationRefused) as excinfo:
        talks().acknowledge("agent:b", at=NOW).acknowledge("agent:b", at=NOW)
    refused(excinfo, "negotiation.already_acknowledged", "R7")


def test_r06_a_resolved_negotiation_takes_no_further_step_because_resolved_is_final() -> None:
    state = talks().propose("agent:a", "t", at=NOW, proposal_id="prop:1")
    state = state.accept("agent:b", "prop:1", at=NOW)
    with pytest.raises(NegotiationRefused) as excinfo:
        state.propose("agent:b", "second thoughts", at=NOW)
    refused(excinfo, "negotiation.resolved", "R6")


def test_r07_a_counter_proposal_must_answer_a_known_proposal() -> None:
    with pytest.raises(NegotiationRefused) as excinfo:
        talks().propose("agent:a", "t", responds_to="prop:ghost", at=NOW)
    refused(excinfo, "negotiation.unknown_proposal", "R7")


def test_r07_proposal_ids_are_unique_and_terms_non_empty() -> None:
    state = talks().propose("agent:a", "t", at=NOW, proposal_id="prop:1")
    with pytest.raises(NegotiationRefused) as excinfo:
        state.propose("agent:b", "u", at=NOW, proposal_id="prop:1")
    refused(excinfo, "negotiation.duplicate_proposal", "R7")
    with pytest.raises(NegotiationRefused) as excinfo:
        state.propose("agent:b", "   ", at=NOW)
    refused(excinfo, "negotiation.empty_terms", "R7")


def test_r07_generated_proposal_ids_follow_the_record_id_form() -> None:
    state = talks().propose("agent:a", "t", at=NOW)
    assert state.proposals[0].proposal_id.startswith("prop:")


def test_r09_a_step_after_the_deadline_is_refused_and_the_negotiation_expires() -> None:
    state = talks().propose("agent:a", "t", at=DEADLINE, proposal_id="prop:1")  # inclusive
    late = DEADLINE + timedelta(microseconds=1)
    with pytest.raises(NegotiationRefused) as excinfo:
        state.accept("agent:b", "prop:1", at=late)
    refused(excinfo, "negotiation.deadline_passed", "R9")
    assert state.status(late) is NegotiationStatus.EXPIRED
    assert state.status(DEADLINE) is NegotiationStatus.NEGOTIATING


def test_r33_counter_evidence_must_carry_a_sha256_content_hash() -> None:
    with pytest.raises(NegotiationRefused) as excinfo:
        talks().submit_counter_evidence(
            "agent:b", content_hash="md5:abc", description="logs", at=NOW
        )
    refused(excinfo, "negotiation.bad_content_hash", "R33")


def test_r07_a_refused_step_leaves_the_state_as_it_was() -> None:
    state = talks().propose("agent:a", "t", at=NOW, proposal_id="prop:1")
    before = state.model_dump()
    with pytest.raises(NegotiationRefused):
        state.accept("agent:a", "prop:1", at=NOW)
    assert state.model_dump() == before


def test_r07_a_negotiation_needs_two_distinct_parties() -> None:
    with pytest.raises(ValueError, match="two distinct parties"):
        Negotiation(dispute_id="disp:1", parties=("agent:a", "agent:a"), deadline=DEADLINE)


PARTIES = ("agent:a", "agent:b", "agent:c", "agent:d")


@given(st.sets(st.sampled_from(PARTIES[1:])))
def test_r07_a_proposal_resolves_exactly_when_every_party_has_accepted(
    accepting: set[str],
) -> None:
    state = talks(*PARTIES).propose("agent:a", "t", at=NOW, proposal_id="prop:1")
    for agent_id in sorted(accepting):
        state = state.accept(agent_id, "prop:1", at=NOW)
    assert (state.agreement is not None) == (accepting == set(PARTIES[1:]))
    assert (state.status(NOW) is NegotiationStatus.RESOLVED) == (state.agreement is not None)


def test_r09_a_negotiation_deadline_is_a_timezone_aware_instant() -> None:
    with pytest.raises(ValueError, match="timezone"):
        Negotiation(
            dispute_id="disp:1", parties=("agent:a", "agent:b"), deadline=datetime(2026, 11, 29)
        )
