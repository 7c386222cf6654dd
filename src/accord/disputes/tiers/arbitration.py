"""Tier 2 on a persisted dispute (R10–R15, R32, R35, R39): nominations from the configured
pool, the panel seated with every candidate's eligibility recorded, signed votes, the tally.

* ``nominate``: a party (its agent key) puts pool members forward (R10).
* ``form_panel``: every nominee's eligibility is checked and kept (R11–R13, R32); M-of-N of
  the eligible are drawn with the seed of the parties' revealed coin-flip nonces (R35);
  ``arbitration_panel_formed`` carries the whole formation record, so anyone re-derives it.
* ``vote``: a member (its arbitrator key) approves or dissents on the resolution put to the
  panel; refused (the ballot's R-number) for a non-member, a second vote, a vote after the
  deadline. ``arbitration_vote_cast`` carries the signed vote; the reasoning is kept (R35).
  Agent members vote through the language-model port (:meth:`Arbitration.deliberate`).
  Human members (``kind: human`` in the pool, bound to a reviewer ``principal_id``) vote
  through the approval queue: seating the panel queues one ballot paper (an approval item)
  per human member in the same transaction, and the reviewer's decision on it (``approve`` or
  ``dissent``, the reason as reasoning) is that member's vote, signed with the reviewer's
  registered key, in the decision's own transaction — refused, and the decision with it, when
  the reviewer is not that member's principal, the member already voted, or the voting
  deadline passed. A human member signs the decided record with its reviewer key.
* The vote that leaves no member outstanding takes the tally in its own transaction (no
  separate call); after the deadline with votes missing, :meth:`Arbitration.tally` does. It
  decides: M approvals make a ``binding_resolution`` (or ``recommended_resolution`` for an
  advisory panel), a §6 record; fewer is a ``split_decision``, which escalates to
  ``human_appeal`` at once (R15).
* The §6 record resolves the dispute once at least M approving members have signed it (R44):
  agent members deliberating together sign at once; a member voting alone signs what it
  decides, and the others add theirs with :meth:`Arbitration.sign_resolution` (until then the
  record waits in ``dispute_panels.pending_resolution``; its ``prev_hash`` is the ledger head
  when the panel decided).

A member who did not vote counts neither way in the tally (R14); the §6 ``panel`` section
needs one entry per seat, so an absent member appears there as ``dissent`` with the hash of
the text ``"absent: no vote cast by the deadline"``, and the reasoning says who was absent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict
from pydantic import ValidationError as PydanticValidationError
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from accord.approvals import ApprovalItem, Principal, Reviewer
from accord.conflicts import Tier
from accord.crypto import Signer
from accord.dcp07.documents import record_document
from accord.dcp07.panels import (
    ArbitratorKind,
    Nomination,
    PanelDecision,
    PanelFormation,
    PanelQuestion,
    PanelRefused,
    PanelTally,
    PanelVote,
    PoolMember,
    VoteChoice,
    cast_vote,
    check_candidate,
    form_panel,
    reasoning_hash,
    tally,
)
from accord.dcp07.refusal import from_pydantic, refused
from accord.dcp07.resolution_record import ResolutionRecord
from accord.dcp07.signing import cosigned
from accord.dcp07.vocabulary import ResolutionType
from accord.disputes.arbitrators import (
    AgentArbitrator,
    PanelDeliberation,
    QueuedHumanArbitrator,
    vote_from_decision,
    vote_independently,
)
from accord.disputes.reviewers import reviewer_for
from accord.disputes.tiers import panel_rows, step_rows
from accord.disputes.tiers.ballot_papers import until_vote_deadline
from accord.disputes.tiers.ballot_withdrawal import withdraw_ballot_papers
from accord.disputes.tiers.credentials import acting_member
from accord.disputes.tiers.dispute_port import TierDispute
from accord.disputes.tiers.panel_rows import BallotPaper, SeatedPanel
from accord.disputes.tiers.settings import ArbitratorSettings
from accord.disputes.tiers.tier_context import TierContext, check_text
from accord.ledger.ledger import registry_within
from accord.org.interactions import InteractionHistory
from accord.values import revised


class PanelEscalation(BaseModel):
    """What :meth:`Arbitration.form_panel` returns instead of a panel when the pool has
    fewer eligible arbitrators than a panel needs: the dispute went to human appeal (R10, R16),
    and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dispute_id: str
    to_level: Literal["human_appeal"] = "human_appeal"
    reason: str
    eligible: tuple[str, ...]
    needed: int


FORMED_EVENT = "arbitration_panel_formed"
VOTE_EVENT = "arbitration_vote_cast"
ABSENT = "absent: no vote cast by the deadline"
MAX_NOMINEES = 32
VOTE_SHARE = 2 / 3
"""Votes close after this share of the time left in the tier, so the members still have time
to sign the decided record before the tier's deadline escalates the dispute (R4)."""
PANEL_ACTOR = "accord:panel"
"""Who seats a panel: the service, by the rules (nobody chooses its members)."""
_ARBITRATING = "arbitrating"
_TIER2 = (Tier.CONTEXTUAL_ARBITRATION,)


class Arbitration:
    """Tier-2 steps on persisted disputes; ``settings`` is the ``arbitrators:`` section."""

    def __init__(
        self,
        context: TierContext,
        settings: ArbitratorSettings | None,
        interactions: InteractionHistory,
        human: QueuedHumanArbitrator | None = None,
        *,
        listen: bool = True,
    ) -> None:
        """``human`` carries human members' ballot papers over the approval queue; each
        decision on one becomes that member's vote (see the module docstring). ``listen=False``
        leaves the queue's decision hook to the instance that already holds it (a prepared
        step's run over pinned ports)."""
        self._c = context
        self._settings = settings
        self._interactions = interactions
        self._human = human
        if human is not None and listen:
            human.queue.on_decided(self._ballot_paper_decided)

    def panel(self, dispute_id: str) -> SeatedPanel | None:
        """The dispute's panel as stored (None before one is seated)."""
        with self._c.db.read() as conn:
            self._c.desk.load_within(conn, dispute_id)
            return panel_rows.panel_within(conn, dispute_id)

    def ballot_papers(self, dispute_id: str) -> tuple[BallotPaper, ...]:
        """The approval items through which the panel's human members vote (none before a
        panel is seated, or on a panel of agents)."""
        with self._c.db.read() as conn:
            self._c.desk.load_within(conn, dispute_id)
            seated = panel_rows.panel_within(conn, dispute_id)
            if seated is None:
                return ()
            return panel_rows.ballot_papers_within(conn, seated.formation.panel_id)

    def ballot_paper(self, item_id: str) -> BallotPaper | None:
        """The ballot paper approval item ``item_id`` is (None for any other item)."""
        with self._c.db.read() as conn:
            return panel_rows.ballot_paper_within(conn, item_id)

    def nominate(
        self, dispute_id: str, signer: Signer, agent_ids: Sequence[str]
    ) -> tuple[Nomination, ...]:
        """The signing party nominates ``agent_ids`` from the pre-approved pool (R10)."""
        settings = self._configured()
        pool = settings.pool()
        if not agent_ids or len(agent_ids) > MAX_NOMINEES or len(set(agent_ids)) != len(agent_ids):
            raise refused(
                "R10",
                "agent_ids",
                f"1 to {MAX_NOMINEES} distinct pool members",
                code="panels.bad_nominations",
            )
        for agent_id in agent_ids:
            pool.member(agent_id)
        now = self._c.clock.now()
        with self._c.desk.transaction() as conn:
            agent = self._c.actor_within(conn, signer, "agent")
            dispute = self._c.at_tier(conn, dispute_id, _TIER2, "R10")
            if agent not in dispute.party_ids:
                raise refused(
                    "R10",
                    "key",
                    "each party nominates candidates",
                    code="panels.nominator_not_a_party",
                )
            if panel_rows.panel_within(conn, dispute_id) is not None:
                raise refused(
                    "R10", "dispute_id", "the panel is already seated", code="panels.seated"
                )
            already = {
                n.agent_id
                for n in step_rows.nominations_within(conn, dispute_id)
                if n.nominated_by == agent
            }
            fresh = tuple(
                Nomination(nominated_by=agent, agent_id=a, nominated_at=now)
                for a in agent_ids
                if a not in already
            )
            step_rows.add_nominations(conn, dispute_id, fresh)
        return fresh

    def form_panel(
        self,
        dispute_id: str,
        *,
        question: str,
        positions: Mapping[str, str],
        favours: str,
        resolution: str,
    ) -> PanelFormation | PanelEscalation:
        """Seat the panel that will vote on ``resolution`` (which finds for ``favours``)."""
        settings = self._configured()
        check_text(question, "question", "R14")
        check_text(resolution, "resolution", "R14")
        for agent_id, argument in positions.items():
            check_text(argument, f"positions.{agent_id}", "R14")
        now = self._c.clock.now()
        with self._c.db.read() as conn:
            dispute = self._c.at_tier(conn, dispute_id, _TIER2, "R10")
            nominations = step_rows.nominations_within(conn, dispute_id)
            flip = step_rows.coin_flip_within(conn, dispute_id, dispute.party_ids)
            seated = panel_rows.panel_within(conn, dispute_id)
        if seated is not None:
            raise refused("R10", "dispute_id", "the panel is already seated", code="panels.seated")
        if flip is None or not flip.is_settled(now):
            raise refused(
                "R35",
                "dispute_id",
                "the panel is drawn with the parties' revealed coin-flip nonces: commit and "
                "reveal first (or wait for the reveal deadline)",
                code="panels.seed_not_settled",
            )
        if set(positions) != set(dispute.party_ids):
            raise refused("R14", "positions", "one position per party", code="panels.bad_positions")
        try:
            asked = PanelQuestion.model_validate(
                {
                    "dispute_id": dispute_id,
                    "question": question,
                    "positions": [
                        {"agent_id": a, "argument": positions[a]} for a in dispute.party_ids
                    ],
                    "proposal": {"favours": favours, "description": resolution},
                }
            )
        except PydanticValidationError as error:
            raise from_pydantic(error, requirement="R14", record="panel_question") from None
        try:
            formation = form_panel(
                dispute_id=dispute_id,
                parties=dispute.parties,
                pool=settings.pool(),
                nominations=nominations,
                nonces=flip.revealed_nonces(),
                disputes=self._c.desk,
                interactions=self._interactions,
                now=now,
                vote_deadline=now + (self._c.deadline_of(dispute, "R4") - now) * VOTE_SHARE,
                threshold=settings.panel_threshold(),
                mode=settings.mode,
                rules=settings.rules(),
            )
        except PanelRefused as refusal:
            if refusal.code != "panels.too_few_eligible":
                raise
            escalation = self._escalate_if_the_pool_is_too_small(dispute_id, dispute, now)
            if escalation is None:
                raise  # other eligible members of the pool may still be nominated
            return escalation
        humans = [m for m in formation.members if m.kind is ArbitratorKind.HUMAN]
        if humans and self._human is None:
            raise refused(
                "R14",
                "arbitrators",
                "a human panel member votes through the approval queue, which this instance "
                "was built without (pass approvals= to Disputes)",
                code="panels.no_approval_queue",
                agent_ids=[m.agent_id for m in humans],
            )
        try:
            with self._c.desk.transaction() as conn:
                current = self._c.at_tier(conn, dispute_id, _TIER2, "R10")
                panel_rows.seat_panel(conn, formation, asked)
                papers = {m.agent_id: self._queue_paper(conn, m, asked, formation) for m in humans}
                record = {
                    "formation": step_rows.json_of(formation),
                    "question": step_rows.json_of(asked),
                    "resolution_hash": asked.resolution_hash,
                    "ballot_papers": papers,
                }
                self._c.step(conn, current, FORMED_EVENT, PANEL_ACTOR, record, status=_ARBITRATING)
        except IntegrityError:
            raise refused(
                "R10", "dispute_id", "the panel is already seated", code="panels.seated"
            ) from None
        return formation

    def vote(
        self, dispute_id: str, signer: Signer, choice: VoteChoice, reasoning: str
    ) -> PanelVote:
        """The signing member's vote (its arbitrator key, R14, R36)."""
        if choice not in ("approve", "dissent"):
            raise refused("R14", "vote", "approve or dissent", code="panels.bad_vote")
        check_text(reasoning, "reasoning", "R14")
        now = self._c.clock.now()
        with self._c.desk.transaction() as conn:
            agent = self._c.actor_within(conn, signer, "arbitrator")
            dispute, seated = self._seated(conn, dispute_id)
            member = _member(seated, agent)
            if member is not None and member.kind is ArbitratorKind.HUMAN:
                raise refused(
                    "R14",
                    "key",
                    "a human member votes by deciding its ballot paper in the approval queue",
                    code="panels.human_votes_through_queue",
                    agent_id=agent,
                )
            # before the vote is signed: a prepared step stops at that signature (R14, R4)
            seated.ballot.refuse_unless_open_to(agent, now)
            vote = cast_vote(
                dispute_id=dispute_id,
                panel_id=seated.formation.panel_id,
                agent_id=agent,
                vote=choice,
                resolution_hash=seated.question.resolution_hash,
                reasoning=reasoning,
                at=now,
                signer=signer,
            )
            self._count(conn, dispute, seated, vote, reasoning, {agent: signer}, now)
        return vote

    async def deliberate(
        self, dispute_id: str, arbitrators: Sequence[AgentArbitrator]
    ) -> PanelDeliberation:
        """Agent members judge through their models, independently, and their votes count."""
        signers = {a.agent_id: a.signer for a in arbitrators}
        for arbitrator in arbitrators:
            if self._c.actor(arbitrator.signer, "arbitrator") != arbitrator.agent_id:
                raise refused(
                    "R14",
                    "arbitrators",
                    "an agent member votes with its own registered arbitrator key",
                    code="panels.foreign_key",
                    agent_id=arbitrator.agent_id,
                )
        seated = self.panel(dispute_id)
        if seated is None:
            raise refused("R14", "dispute_id", "no panel is seated", code="panels.not_seated")
        deliberation = await vote_independently(
            arbitrators, seated.question, seated.formation, clock=self._c.clock
        )
        for answer in deliberation.votes:
            now = self._c.clock.now()
            with self._c.desk.transaction() as conn:
                dispute, current = self._seated(conn, dispute_id)
                self._count(conn, dispute, current, answer.vote, answer.reasoning, signers, now)
        return deliberation

    def _escalate_if_the_pool_is_too_small(
        self, dispute_id: str, dispute: TierDispute, now: datetime
    ) -> PanelEscalation | None:
        """R10 needs N eligible members; when the whole pool has fewer (not just the nominees),
        no nomination can seat a panel, so the dispute goes on to human appeal with the reason
        and every pool member's eligibility recorded, instead of sitting at tier 2. None when
        the pool still has enough eligible members (the parties may nominate them)."""
        settings = self._configured()
        pool = settings.pool()
        needed = settings.panel_threshold().n
        eligibility = [
            check_candidate(
                member,
                dispute.parties,
                disputes=self._c.desk,
                interactions=self._interactions,
                now=now,
                rules=settings.rules(),
            )
            for member in pool.members
        ]
        eligible = sorted(e.agent_id for e in eligibility if e.eligible)
        if len(eligible) >= needed:
            return None
        reason = (
            f"only {len(eligible)} of the pool's {len(pool.members)} arbitrators are eligible; "
            f"a panel needs {needed} (R10), so the dispute goes to human appeal"
        )
        recorded = [e.model_dump(mode="json") for e in eligibility]
        with self._c.desk.transaction() as conn:
            current = self._c.at_tier(conn, dispute_id, _TIER2, "R10")
            if panel_rows.panel_within(conn, dispute_id) is not None:
                raise refused(
                    "R10", "dispute_id", "the panel is already seated", code="panels.seated"
                )
            self._c.desk.move_within(
                conn,
                current.dispute_id,
                "appealing",
                event_type="dispute_escalated",
                actor=PANEL_ACTOR,
                details={"reason": reason, "eligibility": recorded},
                tier=Tier.HUMAN_APPEAL,
                rearm=True,
            )
        return PanelEscalation(
            dispute_id=dispute_id, reason=reason, eligible=tuple(eligible), needed=needed
        )

    def tally(self, dispute_id: str, signer: Signer) -> PanelTally:
        """Count the votes now (every member voted, or the deadline passed: R14, R15); the
        signing member (its arbitrator key) signs the resolution."""
        now = self._c.clock.now()
        with self._c.desk.transaction() as conn:
            dispute, seated = self._seated(conn, dispute_id)
            agent = self._signing_member(conn, signer, seated)
            if not seated.formation.is_member(agent):
                raise refused(
                    "R14", "key", "a panel member closes the panel", code="panels.not_a_member"
                )
            if seated.decision is not None:
                raise refused(
                    "R14", "dispute_id", "the panel has decided", code="panels.already_tallied"
                )
            return self._decide(conn, dispute, seated, now, {agent: signer})

    def sign_resolution(self, dispute_id: str, signer: Signer) -> ResolutionRecord:
        """The signing member (its arbitrator key) signs the panel's decided §6 record; once
        M approving members have, the dispute resolves (R14, R44). A human member signs with
        its reviewer key."""
        with self._c.desk.transaction() as conn:
            dispute, seated = self._seated(conn, dispute_id)
            agent = self._signing_member(conn, signer, seated)
            pending = seated.pending_resolution
            if pending is None:
                raise refused(
                    "R14",
                    "dispute_id",
                    "the panel has no decided resolution awaiting signatures",
                    code="panels.nothing_to_sign",
                )
            if not seated.formation.is_member(agent):
                raise refused(
                    "R19",
                    "key",
                    "only panel members sign its resolution",
                    code="panels.not_a_member",
                )
            if any(s.agent_id == agent for s in pending.signatures):
                raise refused(
                    "R19", "key", "one signature per member", code="panels.already_signed"
                )
            resolution = cosigned(pending, agent, signer)
            self._settle(conn, dispute, seated, resolution)
        return resolution

    # -- human members -------------------------------------------------------------------------

    def _queue_paper(
        self,
        conn: Connection,
        member: PoolMember,
        question: PanelQuestion,
        formation: PanelFormation,
    ) -> str:
        assert self._human is not None
        item_id = self._human.request_vote_within(
            conn, member, question, formation, policy=until_vote_deadline(formation)
        )
        panel_rows.add_ballot_paper(
            conn,
            BallotPaper(
                item_id=item_id,
                panel_id=formation.panel_id,
                dispute_id=formation.dispute_id,
                agent_id=member.agent_id,
            ),
        )
        return item_id

    def _ballot_paper_decided(
        self, conn: Connection, item: ApprovalItem, reviewer: Reviewer
    ) -> None:
        """The approval queue's decision hook: a decided ballot paper is its member's vote,
        counted in the decision's transaction (any refusal refuses the decision)."""
        paper = panel_rows.ballot_paper_within(conn, item.item_id)
        if paper is None:
            return
        dispute, seated = self._seated(conn, paper.dispute_id)
        member = _member(seated, paper.agent_id)
        if member is None or seated.formation.panel_id != paper.panel_id:
            raise refused(
                "R14",
                "item_id",
                "a ballot paper belongs to the panel now seated",
                code="panels.wrong_panel",
                item_id=item.item_id,
            )
        if reviewer.signer is None:
            raise refused(
                "R36",
                "credential",
                "a panel vote is signed with the member's registered reviewer key (an OS "
                "login cannot vote)",
                code="panels.vote_needs_key",
                agent_id=member.agent_id,
            )
        registered = reviewer_for(
            registry_within(conn), reviewer.signer, lambda p: Principal(principal_id=p)
        )
        if registered.principal_id != reviewer.principal_id:
            raise refused(
                "R14",
                "key",
                "the vote is signed with the deciding reviewer's own registered key",
                code="panels.foreign_key",
                agent_id=member.agent_id,
            )
        reason = item.decision.reason if item.decision is not None else ""
        check_text(reason, "reason", "R14")
        vote = vote_from_decision(
            item,
            member=member,
            question=seated.question,
            formation=seated.formation,
            signer=reviewer.signer,
        )
        signers = {member.agent_id: reviewer.signer}
        self._count(conn, dispute, seated, vote, reason, signers, self._c.clock.now())

    def _signing_member(self, conn: Connection, signer: Signer, seated: SeatedPanel) -> str:
        return acting_member(registry_within(conn), signer, seated.formation)

    def _cancel_papers(self, conn: Connection, seated: SeatedPanel, why: str) -> None:
        """Withdraw the ballot papers still pending once the panel has decided."""
        if self._human is None:
            return
        withdraw_ballot_papers(
            conn,
            self._human.queue,
            [seated.formation.dispute_id],
            cancelled_by=PANEL_ACTOR,
            reason=why,
        )

    # -- inside ---------------------------------------------------------------------------------

    def _configured(self) -> ArbitratorSettings:
        if self._settings is None:
            raise refused(
                "R10",
                "arbitrators",
                "tier 2 needs a pre-approved arbitrator pool: add an `arbitrators:` section "
                "to accord.yaml",
                code="panels.no_pool",
            )
        return self._settings

    def _seated(self, conn: Connection, dispute_id: str) -> tuple[TierDispute, SeatedPanel]:
        dispute = self._c.at_tier(conn, dispute_id, _TIER2, "R14")
        seated = panel_rows.panel_within(conn, dispute_id)
        if seated is None:
            raise refused("R14", "dispute_id", "no panel is seated", code="panels.not_seated")
        return dispute, seated

    def _count(
        self,
        conn: Connection,
        dispute: TierDispute,
        seated: SeatedPanel,
        vote: PanelVote,
        reasoning: str,
        signers: Mapping[str, Signer],
        now: datetime,
    ) -> None:
        keys = {agent: s.public_key for agent, s in signers.items()}
        ballot = seated.ballot.cast(vote, member_keys=keys, now=now)
        panel_rows.add_vote(conn, vote, reasoning, now)
        self._c.step(conn, dispute, VOTE_EVENT, vote.agent_id, {"vote": step_rows.json_of(vote)})
        if not ballot.outstanding:
            after = revised(
                seated, votes=ballot.votes, reasoning={**seated.reasoning, vote.agent_id: reasoning}
            )
            self._decide(conn, dispute, after, now, signers)

    def _decide(
        self,
        conn: Connection,
        dispute: TierDispute,
        seated: SeatedPanel,
        now: datetime,
        signers: Mapping[str, Signer],
    ) -> PanelTally:
        counted = tally(seated.ballot, now=now)
        panel_rows.mark_tallied(conn, counted.panel_id, counted.decision.value, now)
        self._cancel_papers(conn, seated, f"panel {counted.panel_id} decided without this vote")
        summary = (
            f"{counted.votes_for} of {counted.threshold.n} members approved "
            f"({counted.threshold.m} needed)"
            + (f"; absent: {', '.join(counted.absent)}" if counted.absent else "")
        )
        section = counted.panel_section()
        section["members"] = [
            *section["members"],
            *(
                {"agent_id": a, "vote": "dissent", "reasoning_hash": reasoning_hash(ABSENT)}
                for a in counted.absent
            ),
        ]
        section["votes_against"] = counted.votes_against + len(counted.absent)
        if counted.decision is PanelDecision.SPLIT:
            # R15: no M-of-N agreement is itself a §6 decision type; the split_decision record,
            # signed by the members at hand, goes with the automatic escalation to tier 3
            split = self._c.resolution_draft(
                conn,
                dispute_id=dispute.dispute_id,
                level=Tier.CONTEXTUAL_ARBITRATION,
                resolution_type=ResolutionType.SPLIT_DECISION,
                description=(
                    f"no {counted.threshold.m}-of-{counted.threshold.n} agreement on the "
                    "proposed resolution: escalated to human appeal (R15)"
                ),
                reasoning=f"panel {counted.panel_id}: {summary}",
                at=now,
                panel=section,
            )
            for agent_id in sorted(a for a in signers if seated.formation.is_member(a)):
                split = cosigned(split, agent_id, signers[agent_id])
            self._c.desk.move_within(
                conn,
                dispute.dispute_id,
                "appealing",
                event_type="dispute_escalated",
                actor=PANEL_ACTOR,
                details={
                    "reason": f"split_decision: {summary} (R15)",
                    "tally": step_rows.json_of(counted),
                    "split_decision": record_document(split),
                },
                tier=Tier.HUMAN_APPEAL,
                rearm=True,
            )
            return counted
        binding = counted.decision is PanelDecision.BINDING
        resolution = self._c.resolution_draft(
            conn,
            dispute_id=dispute.dispute_id,
            level=Tier.CONTEXTUAL_ARBITRATION,
            resolution_type=(
                ResolutionType.BINDING_RESOLUTION
                if binding
                else ResolutionType.RECOMMENDED_RESOLUTION
            ),
            description=seated.question.proposal.description,
            reasoning=f"panel {counted.panel_id}: {summary}",
            at=now,
            panel=section,
        )
        for agent_id in sorted(a for a in signers if seated.formation.is_member(a)):
            resolution = cosigned(resolution, agent_id, signers[agent_id])
        self._settle(conn, dispute, seated, resolution)
        return counted

    def _settle(
        self,
        conn: Connection,
        dispute: TierDispute,
        seated: SeatedPanel,
        resolution: ResolutionRecord,
    ) -> bool:
        """Resolve once M approving members have signed the record (R14, R44); until then
        keep it pending for :meth:`sign_resolution`. True when it resolved."""
        panel = resolution.panel
        assert panel is not None
        approving = {m.agent_id for m in panel.members if m.vote.value == "approve"}
        signed = approving & {s.agent_id for s in resolution.signatures}
        if len(signed) < panel.threshold.m:
            panel_rows.keep_pending(conn, seated.formation.panel_id, resolution)
            return False
        panel_rows.keep_pending(conn, seated.formation.panel_id, None)
        dissent = "\n".join(
            seated.reasoning[v.agent_id] for v in seated.votes if v.vote == "dissent"
        )
        self._c.resolver.resolve_within(
            conn, dispute, resolution, actor=PANEL_ACTOR, dissent=dissent or None
        )
        return True


def _member(seated: SeatedPanel, agent_id: str) -> PoolMember | None:
    return next((m for m in seated.formation.members if m.agent_id == agent_id), None)
