"""People as arbitrators (R14) through the approval queue: the member's own decision becomes
its signed vote; a decision by anyone else, or by a timeout, is no vote."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest

from accord.approvals import ApprovalQueue, DenyAfter, Principal, Reviewer, WaitForever
from accord.clock import FrozenClock
from accord.dcp07.panels import (
    ArbitratorKind,
    ArbitratorPool,
    PanelBallot,
    PanelDecision,
    PanelFormation,
    PanelQuestion,
    PanelRefused,
    PartyPosition,
    PoolMember,
    ProposedResolution,
    cast_vote,
    tally,
)
from accord.disputes.arbitrators import QueuedHumanArbitrator, vote_from_decision
from accord.org import LifecycleState
from accord.store import open_database
from tests.dcp07.panels._builders import DISPUTE, NOW, formed, key_of, member, nominate, refused

JUDGE = PoolMember(
    agent_id="human:judge",
    principal_id="user:judge",
    organization_id="initech",
    vitality=1000,
    lifecycle_state=LifecycleState.ACTIVE,
    kind=ArbitratorKind.HUMAN,
)
QUESTION = PanelQuestion(
    dispute_id=DISPUTE,
    question="Who keeps the GPU reservation?",
    positions=(
        PartyPosition(agent_id="agent:billing", argument="booked first"),
        PartyPosition(agent_id="agent:audit", argument="legal deadline"),
    ),
    proposal=ProposedResolution(favours="agent:billing", description="billing keeps it"),
)


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(NOW)


@pytest.fixture
def queue(database_url: str, clock: FrozenClock) -> Iterator[ApprovalQueue]:
    db = open_database(database_url)
    yield ApprovalQueue(db, clock)
    db.dispose()


@pytest.fixture
def formation() -> PanelFormation:
    arbitrators = ArbitratorPool.of(
        [member("arb:00"), member("arb:01", organization_id="initech"), JUDGE]
    )
    return formed(arbitrators, nominations=nominate("arb:00", "arb:01", "human:judge"))


def judge_reviewer() -> Reviewer:
    return Reviewer(
        Principal(principal_id="user:judge", roles=frozenset({"reviewer"})), key_of("human:judge")
    )


def test_r14_a_human_members_decision_becomes_its_signed_vote_and_is_counted(
    queue: ApprovalQueue, formation: PanelFormation
) -> None:
    asked = QueuedHumanArbitrator(queue, policy_for=lambda _: WaitForever())
    item_id = asked.request_vote(JUDGE, QUESTION, formation)
    item = queue.get(item_id)
    assert item.case_id == DISPUTE
    assert item.options == ("approve", "dissent")
    assert QUESTION.resolution_hash in item.analysis
    decided = queue.decide(
        item_id, judge_reviewer(), outcome="approved", choice="dissent", reason="deadline is law"
    )
    vote = vote_from_decision(
        decided, member=JUDGE, question=QUESTION, formation=formation, signer=key_of("human:judge")
    )
    assert (vote.agent_id, vote.vote) == ("human:judge", "dissent")
    ballot = PanelBallot(formation=formation, resolution_hash=QUESTION.resolution_hash)
    member_keys = {a: key_of(a).public_key for a in formation.member_ids}
    ballot = ballot.cast(vote, member_keys=member_keys, now=NOW)
    for agent_id in ("arb:00", "arb:01"):
        ballot = ballot.cast(
            cast_vote(
                dispute_id=DISPUTE,
                panel_id=formation.panel_id,
                agent_id=agent_id,
                vote="approve",
                resolution_hash=QUESTION.resolution_hash,
                reasoning="booking stands",
                at=NOW,
                signer=key_of(agent_id),
            ),
            member_keys=member_keys,
            now=NOW,
        )
    result = tally(ballot, now=NOW)
    assert result.decision is PanelDecision.BINDING
    assert result.votes_against == 1


def test_r14_a_decision_by_someone_other_than_the_member_is_no_vote(
    queue: ApprovalQueue, formation: PanelFormation
) -> None:
    item_id = QueuedHumanArbitrator(queue, policy_for=lambda _: WaitForever()).request_vote(
        JUDGE, QUESTION, formation
    )
    someone = Reviewer(
        Principal(principal_id="user:someone", roles=frozenset({"reviewer"})), key_of("x")
    )
    decided = queue.decide(item_id, someone, outcome="approved", choice="approve")
    with pytest.raises(PanelRefused) as excinfo:
        vote_from_decision(
            decided, member=JUDGE, question=QUESTION, formation=formation, signer=key_of("x")
        )
    refused(excinfo, "panels.decided_by_someone_else", "R14")


def test_r14_a_timed_out_ballot_paper_is_no_vote(
    queue: ApprovalQueue, clock: FrozenClock, formation: PanelFormation
) -> None:
    asked = QueuedHumanArbitrator(queue, policy_for=lambda _: DenyAfter(timeout_minutes=30))
    item_id = asked.request_vote(JUDGE, QUESTION, formation)
    clock.advance(timedelta(minutes=31))
    (expired,) = queue.sweep()
    assert expired.item_id == item_id
    with pytest.raises(PanelRefused) as excinfo:
        vote_from_decision(
            expired, member=JUDGE, question=QUESTION, formation=formation, signer=key_of("j")
        )
    refused(excinfo, "panels.no_human_decision", "R14")


def test_r14_only_human_members_vote_through_the_queue(
    queue: ApprovalQueue, formation: PanelFormation
) -> None:
    asked = QueuedHumanArbitrator(queue, policy_for=lambda _: WaitForever())
    agent_member = next(m for m in formation.members if m.kind is ArbitratorKind.AGENT)
    with pytest.raises(PanelRefused) as excinfo:
        asked.request_vote(agent_member, QUESTION, formation)
    refused(excinfo, "panels.not_a_human", "R14")
    with pytest.raises(PanelRefused) as excinfo:
        asked.request_vote(member("arb:05"), QUESTION, formation)
    refused(excinfo, "panels.not_a_member", "R14")
    assert queue.pending() == []


def test_r14_a_decision_choosing_neither_option_is_no_vote(
    queue: ApprovalQueue, formation: PanelFormation
) -> None:
    item_id = QueuedHumanArbitrator(queue, policy_for=lambda _: WaitForever()).request_vote(
        JUDGE, QUESTION, formation
    )
    decided = queue.decide(item_id, judge_reviewer(), outcome="denied", reason="no opinion")
    with pytest.raises(PanelRefused) as excinfo:
        vote_from_decision(
            decided, member=JUDGE, question=QUESTION, formation=formation, signer=key_of("j")
        )
    refused(excinfo, "panels.bad_vote_choice", "R14")
