"""Human panel members through the approval queue (issue 12 item 5): seating a panel queues a
ballot paper per human member; the reviewer's decision on it is that member's vote, signed
with the reviewer's registered key, in the decision's transaction; the vote that completes
the ballot takes the tally (R14, R15); refusals leave the paper pending."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accord.approvals import (
    CONFLICT_RULE,
    ApprovalStatus,
    ConflictedDecider,
    Principal,
    Reviewer,
)
from accord.clock import FrozenClock
from accord.dcp07.signing import verify_resolution
from accord.errors import AccordError
from accord.ledger import Ledger
from accord.store import Database

from ._human_panel import HUMANS, Panel
from ._world import AUDIT, BILLING, POOL_IDS


def test_r14_seating_a_panel_queues_a_ballot_paper_for_each_human_member(panel: Panel) -> None:
    dispute_id, members = panel.seat()
    papers = panel.arbitration.ballot_papers(dispute_id)
    assert sorted(p.agent_id for p in papers) == sorted(members)
    assert panel.queue is not None
    for paper in papers:
        item = panel.queue.get(paper.item_id)
        assert item.is_pending
        assert item.case_id == dispute_id
        assert item.options == ("approve", "dissent")
        assert item.title.startswith("Panel vote for ")
        assert "billing keeps the slot" in item.analysis


def test_r14_r15_the_members_decisions_are_their_votes_and_the_last_one_takes_the_tally(
    panel: Panel,
) -> None:
    dispute_id, members = panel.seat()
    for member in members[:2]:
        panel.decide(dispute_id, member, "approve")
    seated = panel.arbitration.panel(dispute_id)
    assert seated is not None
    assert seated.decision is None
    assert {v.agent_id for v in seated.votes} == set(members[:2])
    assert seated.reasoning[members[0]] == f"{members[0]} says approve"

    panel.decide(dispute_id, members[2], "dissent")  # the last vote: no tally call
    seated = panel.arbitration.panel(dispute_id)
    assert seated is not None
    assert seated.decision == "binding_resolution"
    pending = seated.pending_resolution
    assert pending is not None
    assert [s.agent_id for s in pending.signatures] == [members[2]]

    arbitration = panel.arbitration
    arbitration.sign_resolution(dispute_id, panel.keys[f"human:{members[0][4:]}"])
    assert panel.disputes.show(dispute_id).status == "arbitrating"  # one approving signature
    signed = arbitration.sign_resolution(dispute_id, panel.keys[f"human:{members[1][4:]}"])
    assert panel.disputes.show(dispute_id).status == "resolved"
    keys = {m: panel.keys[f"human:{m[4:]}"].public_key for m in members}
    verify_resolution(signed, keys)
    assert {s.agent_id for s in signed.signatures} == set(members)
    assert panel.disputes.verify_resolution(dispute_id) == signed  # reviewer keys, by member


def test_r14_each_vote_is_signed_with_the_deciding_reviewers_registered_key(panel: Panel) -> None:
    dispute_id, members = panel.seat()
    panel.decide(dispute_id, members[0], "approve")
    seated = panel.arbitration.panel(dispute_id)
    assert seated is not None
    vote = seated.votes[0]
    assert vote.signature.kid == panel.keys[f"human:{members[0][4:]}"].kid
    impostor = Reviewer(
        Principal(principal_id=f"human:{members[1][4:]}"), panel.keys[f"human:{members[2][4:]}"]
    )
    assert panel.queue is not None
    with pytest.raises(AccordError) as refused:
        panel.queue.decide(
            panel.paper(dispute_id, members[1]), impostor, outcome="approved", choice="approve",
            reason="not my key",
        )  # fmt: skip
    assert refused.value.code == "panels.foreign_key"
    assert panel.queue.get(panel.paper(dispute_id, members[1])).is_pending


def test_r14_a_reviewer_who_is_not_the_member_cannot_vote_for_it(panel: Panel) -> None:
    dispute_id, members = panel.seat()
    with pytest.raises(AccordError) as refused:
        panel.decide(dispute_id, members[0], "approve", by=members[1])
    assert refused.value.code == "panels.decided_by_someone_else"
    assert refused.value.context["requirement"] == "R14"
    assert panel.queue is not None
    assert panel.queue.get(panel.paper(dispute_id, members[0])).is_pending
    seated = panel.arbitration.panel(dispute_id)
    assert seated is not None
    assert not seated.votes


def test_r14_a_denial_or_an_empty_reason_is_no_vote(panel: Panel) -> None:
    dispute_id, members = panel.seat()
    assert panel.queue is not None
    item_id = panel.paper(dispute_id, members[0])
    with pytest.raises(AccordError) as denied:
        panel.queue.decide(item_id, panel.reviewer(members[0]), outcome="denied", reason="no")
    assert denied.value.code == "panels.bad_vote_choice"
    with pytest.raises(AccordError) as silent:
        panel.queue.decide(
            item_id, panel.reviewer(members[0]), outcome="approved", choice="approve", reason=""
        )
    assert silent.value.context["requirement"] == "R14"
    assert panel.queue.get(item_id).is_pending


def test_r14_a_second_vote_by_a_human_member_is_refused(panel: Panel) -> None:
    dispute_id, members = panel.seat()
    panel.decide(dispute_id, members[0], "approve")
    with pytest.raises(AccordError) as again:
        panel.decide(dispute_id, members[0], "dissent")
    assert again.value.code == "approvals.already_decided"
    with pytest.raises(AccordError) as direct:
        panel.arbitration.vote(dispute_id, panel.keys[members[0]], "dissent", "changed my mind")
    assert direct.value.code == "panels.human_votes_through_queue"
    seated = panel.arbitration.panel(dispute_id)
    assert seated is not None
    assert len(seated.votes) == 1


def test_r04_a_decision_after_the_voting_deadline_is_refused_and_the_tally_closes_the_papers(
    panel: Panel,
) -> None:
    dispute_id, members = panel.seat()
    panel.decide(dispute_id, members[0], "approve")
    seated = panel.arbitration.panel(dispute_id)
    assert seated is not None
    panel.clock.advance(seated.formation.vote_deadline - panel.clock.now() + timedelta(seconds=1))
    with pytest.raises(AccordError) as late:
        panel.decide(dispute_id, members[1], "approve")
    assert late.value.code == "panels.vote_after_deadline"
    assert late.value.context["requirement"] == "R4"
    assert panel.queue is not None
    assert panel.queue.get(panel.paper(dispute_id, members[1])).is_pending

    counted = panel.arbitration.tally(dispute_id, panel.keys[f"human:{members[0][4:]}"])
    assert counted.decision.value == "split_decision"
    assert set(counted.absent) == set(members[1:])
    for member in members[1:]:
        assert panel.queue.get(panel.paper(dispute_id, member)).status is ApprovalStatus.CANCELLED
    assert panel.disputes.show(dispute_id).tier == "human_appeal"


def test_r14_a_panel_with_human_members_needs_the_approval_queue(
    db: Database, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    bare = Panel(db, ledger, frozen_clock, queue=False)
    with pytest.raises(AccordError) as refused:
        bare.seat()
    assert refused.value.code == "panels.no_approval_queue"


def test_r04_the_approval_sweep_closes_undecided_ballot_papers_once_voting_has_closed(
    panel: Panel,
) -> None:
    dispute_id, members = panel.seat()
    panel.decide(dispute_id, members[0], "approve")
    seated = panel.arbitration.panel(dispute_id)
    assert seated is not None
    assert panel.queue is not None
    item = panel.queue.get(panel.paper(dispute_id, members[1]))
    assert item.deadline is not None
    assert seated.formation.vote_deadline < item.deadline
    assert item.deadline - seated.formation.vote_deadline <= timedelta(minutes=1)
    panel.clock.advance(seated.formation.vote_deadline - panel.clock.now())
    assert panel.queue.sweep_due() == []  # voting is still open at the deadline itself
    panel.clock.advance(item.deadline - panel.clock.now())
    expired = panel.queue.sweep_due()
    assert sorted(i.item_id for i in expired) == sorted(
        panel.paper(dispute_id, m) for m in members[1:]
    )
    assert all(i.status is ApprovalStatus.EXPIRED for i in expired)
    seated = panel.arbitration.panel(dispute_id)
    assert seated is not None
    assert len(seated.votes) == 1  # an expired paper is no vote


def test_r36_an_os_login_decision_casts_no_vote(panel: Panel) -> None:
    dispute_id, members = panel.seat()
    assert panel.queue is not None
    keyless = Reviewer(Principal(principal_id=f"human:{members[0][4:]}"), None)
    with pytest.raises(AccordError) as refused:
        panel.queue.decide(
            panel.paper(dispute_id, members[0]), keyless, outcome="approved", choice="approve",
            reason="from my shell",
        )  # fmt: skip
    assert (refused.value.code, refused.value.context["requirement"]) == (
        "panels.vote_needs_key",
        "R36",
    )


def test_r14_only_a_member_signs_or_closes_the_panel(panel: Panel) -> None:
    dispute_id, members = panel.seat()
    for member, choice in zip(members, ("approve", "approve", "dissent"), strict=True):
        panel.decide(dispute_id, member, choice)
    outsider = next(a for a in POOL_IDS if a not in members)
    with pytest.raises(AccordError) as not_member:
        panel.arbitration.sign_resolution(dispute_id, panel.keys[f"human:{outsider[4:]}"])
    assert not_member.value.code == "panels.not_a_member"
    with pytest.raises(AccordError) as party:
        panel.arbitration.sign_resolution(dispute_id, panel.keys[BILLING.agent_id])
    assert party.value.code == "disputes.unknown_actor"


def test_r14_a_panel_with_human_members_votes_on_the_text_it_was_seated_with(
    panel: Panel,
) -> None:
    dispute_id, members = panel.seat()
    with pytest.raises(AccordError) as refused:
        panel.arbitration.propose(
            dispute_id,
            panel.keys[members[0]],
            favours="agent:billing",
            description="another text than the ballot papers show",
        )
    assert (refused.value.code, refused.value.context["requirement"]) == (
        "panels.proposal_fixed",
        "R14",
    )
    seated = panel.arbitration.panel(dispute_id)
    assert seated is not None
    assert seated.question.proposal.description == "billing keeps the slot"  # as its papers


def test_a_member_whose_principal_owns_a_party_in_the_org_chart_cannot_cast_its_ballot(
    db: Database, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    owners = {BILLING.agent_id: f"human:{HUMANS[0][4:]}", AUDIT.agent_id: f"human:{HUMANS[1][4:]}"}
    panel = Panel(db, ledger, frozen_clock, owners=owners)
    dispute_id, members = panel.seat()
    member = next(m for m in members if m in HUMANS[:2])
    before = ledger.size()
    with pytest.raises(ConflictedDecider) as refused:
        panel.decide(dispute_id, member, "approve")
    assert refused.value.context["principal_id"] == f"human:{member[4:]}"
    assert refused.value.context["rule"] == CONFLICT_RULE
    assert ledger.size() == before  # nothing written: no decision, no vote
    assert panel.queue is not None
    assert panel.queue.get(panel.paper(dispute_id, member)).is_pending
    seated = panel.arbitration.panel(dispute_id)
    assert seated is not None
    assert not seated.votes
