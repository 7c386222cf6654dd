"""People as arbitrators through the approval queue: ask a human member for a vote, and turn
the member's decision into a signed :class:`PanelVote`.

Who sees the item is the queue's business (``policy_for`` gives each member's timeout policy,
so the composition root routes it to a role that member holds); **whose vote it is** is checked
here: :func:`vote_from_decision` accepts a decision only from the member's own principal, made
by a person (never a timeout), choosing ``approve`` or ``dissent``; the reviewer's reason is the
vote's reasoning, and the vote is signed with the reviewer's key. The ballot then counts it
like any other vote (non-member, second and late votes refused there).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection

from accord.approvals.item import ApprovalItem
from accord.approvals.policies import Risk, TimeoutPolicy
from accord.approvals.queue import ApprovalQueue
from accord.crypto.ed25519 import Ed25519Signer
from accord.dcp07.panels.formation import PanelFormation
from accord.dcp07.panels.pool import ArbitratorKind, PoolMember
from accord.dcp07.panels.question import PanelQuestion
from accord.dcp07.panels.refusals import PanelRefused
from accord.dcp07.panels.votes import PanelVote, VoteChoice, cast_vote

VOTE_OPTIONS: tuple[VoteChoice, VoteChoice] = ("approve", "dissent")
BALLOT_TITLE = "Panel vote"
"""How a ballot paper's title starts (the reviewer page labels such items as panel votes)."""


class QueuedHumanArbitrator:
    """:class:`HumanArbitratorPort` over an :class:`ApprovalQueue`."""

    def __init__(
        self,
        queue: ApprovalQueue,
        *,
        policy_for: Callable[[PoolMember], TimeoutPolicy],
        risk: Risk = "medium",
    ) -> None:
        self.queue = queue
        self.policy_for = policy_for
        self.risk: Risk = risk

    def request_vote(
        self, member: PoolMember, question: PanelQuestion, formation: PanelFormation
    ) -> str:
        """Queue the member's ballot paper; returns the approval item id."""
        _require_human_member(member, formation, question)
        return self.queue.request(**self._paper(member, question, formation)).item_id

    def request_vote_within(
        self,
        conn: Connection,
        member: PoolMember,
        question: PanelQuestion,
        formation: PanelFormation,
        *,
        policy: TimeoutPolicy | None = None,
    ) -> str:
        """:meth:`request_vote` inside the caller's transaction (the one seating the panel);
        ``policy`` instead of ``policy_for(member)`` (e.g. one closing at the vote deadline)."""
        _require_human_member(member, formation, question)
        paper = self._paper(member, question, formation)
        if policy is not None:
            paper["policy"] = policy
        return self.queue.request_within(conn, **paper).item_id

    def _paper(
        self, member: PoolMember, question: PanelQuestion, formation: PanelFormation
    ) -> dict[str, Any]:
        proposal = question.proposal
        return {
            "case_id": formation.dispute_id,
            "title": f"{BALLOT_TITLE} for {member.agent_id} on {formation.dispute_id}",
            "summary": question.question,
            "positions": [
                {"agent": p.agent_id, "reasoning": p.argument} for p in question.positions
            ],
            "analysis": (
                f"You sit on panel {formation.panel_id} ({formation.threshold.m}-of-"
                f"{formation.threshold.n}). The resolution put to the panel finds for "
                f"{proposal.favours}: {proposal.description} ({question.resolution_hash}). "
                + "".join(
                    f"Required: {a.agent_id} must {a.action} by {a.deadline}. "
                    for a in proposal.actions_required
                )
                + "Approve or dissent, and give your reasoning: it is kept with your vote."
            ),
            "options": list(VOTE_OPTIONS),
            "risk": self.risk,
            "policy": self.policy_for(member),
        }


def vote_from_decision(
    item: ApprovalItem,
    *,
    member: PoolMember,
    question: PanelQuestion,
    formation: PanelFormation,
    signer: Ed25519Signer,
) -> PanelVote:
    """The member's vote from its decided approval item, signed with its reviewer key."""
    _require_human_member(member, formation, question)
    decision = item.decision
    if item.case_id != formation.dispute_id:
        raise _refused(
            f"approval item {item.item_id} is about {item.case_id}, not {formation.dispute_id}",
            "panels.wrong_panel",
            "case_id",
            "a vote comes from the member's ballot paper for this dispute",
            member,
        )
    if decision is None or decision.via != "human":
        raise _refused(
            f"approval item {item.item_id} was not decided by a person",
            "panels.no_human_decision",
            "decision",
            "a human member's vote is that person's decision (a timeout is no vote)",
            member,
        )
    if decision.decided_by != member.principal_id:
        raise _refused(
            f"{decision.decided_by} decided, but the member is {member.principal_id}",
            "panels.decided_by_someone_else",
            "decided_by",
            "only the member votes for the member",
            member,
        )
    if decision.choice not in VOTE_OPTIONS:
        raise _refused(
            f"the decision chose {decision.choice!r}, not approve or dissent",
            "panels.bad_vote_choice",
            "choice",
            "a vote is approve or dissent",
            member,
        )
    choice: VoteChoice = "approve" if decision.choice == "approve" else "dissent"
    return cast_vote(
        dispute_id=formation.dispute_id,
        panel_id=formation.panel_id,
        agent_id=member.agent_id,
        vote=choice,
        resolution_hash=question.resolution_hash,
        reasoning=decision.reason,
        at=decision.decided_at,
        signer=signer,
    )


def _require_human_member(
    member: PoolMember, formation: PanelFormation, question: PanelQuestion
) -> None:
    if not formation.is_member(member.agent_id):
        raise _refused(
            f"{member.agent_id} is not a member of {formation.panel_id}",
            "panels.not_a_member",
            "agent_id",
            "only panel members vote",
            member,
        )
    if member.kind is not ArbitratorKind.HUMAN:
        raise _refused(
            f"{member.agent_id} is an agent; agents vote through AgentArbitrator",
            "panels.not_a_human",
            "kind",
            "the approval queue carries human members' votes",
            member,
        )
    if question.dispute_id != formation.dispute_id:
        raise _refused(
            f"the question is about {question.dispute_id}, the panel sits on "
            f"{formation.dispute_id}",
            "panels.wrong_panel",
            "dispute_id",
            "a panel votes on its own dispute",
            member,
        )


def _refused(message: str, code: str, field: str, rule: str, member: PoolMember) -> PanelRefused:
    return PanelRefused(
        message, code=code, requirement="R14", field=field, rule=rule, agent_id=member.agent_id
    )
