"""Tier 1 on a persisted dispute (R7, R8, R9): proposals, counter-evidence, acceptances and
the commit–reveal coin flip, each step signed by the acting party's agent key, written with
its rows and its ``dispute_negotiation_proposal`` / ``dispute_evidence_submitted`` ledger entry
in one transaction.

* A proposal every party has accepted resolves the dispute: a §6 resolution at
  ``direct_negotiation`` (binding), handed to the dispute store in the same transaction,
  carrying **every** party's signature: the record is drafted when the proposal is made
  (its ``timestamp`` and ``prev_hash`` are the proposal's moment and ledger head), each
  acceptance — the proposer's own included — signs that draft with the party's agent key
  (the signature is in the acceptance's party-signed event too), and the acceptance that
  completes the agreement resolves with the draft so signed (R7, R19, R44).
* Steps after the tier's deadline are refused (R9: the deadline sweep escalates instead).
* The coin flip opens with the first commit: commits are taken for the first third of the time
  left in the tier, reveals until two thirds, so a panel seeded by the reveals (R35) can still
  sit. A party that has not revealed by the reveal deadline forfeits (cannot win).
  At tier 1 the choices are the proposals made before the flip opened (if any).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel
from sqlalchemy import Connection

from accord.clock import isoformat
from accord.conflicts import Tier
from accord.crypto import Signer
from accord.dcp07.negotiation import (
    CoinFlip,
    CoinOutcome,
    Negotiation,
    Proposal,
)
from accord.dcp07.refusal import refused
from accord.dcp07.resolution_record import ResolutionRecord
from accord.dcp07.signing import cosigned
from accord.dcp07.vocabulary import ResolutionType
from accord.disputes.tiers import step_rows
from accord.disputes.tiers.dispute_port import TierDispute
from accord.disputes.tiers.tier_context import TierContext, check_text, party_signed

PROPOSAL_EVENT = "dispute_negotiation_proposal"
_TIER1 = (Tier.DIRECT_NEGOTIATION,)
_NEGOTIATING = "negotiating"
_COIN_TIERS = (Tier.DIRECT_NEGOTIATION, Tier.CONTEXTUAL_ARBITRATION)
MAX_CHOICE = 256


class NegotiationStep(BaseModel):
    """What a tier-1 step did: the negotiation after it, and the resolution if it resolved."""

    negotiation: Negotiation
    resolution: ResolutionRecord | None = None


class Negotiating:
    """Tier-1 steps on persisted disputes."""

    def __init__(self, context: TierContext) -> None:
        self._c = context

    def agent_of(self, signer: Signer) -> str:
        """The party ``signer``'s registered agent key belongs to (``UnknownActor`` else)."""
        return self._c.actor(signer, "agent")

    # -- negotiation ------------------------------------------------------------------------

    def negotiation(self, dispute_id: str) -> Negotiation:
        """The dispute's tier-1 state as stored (once the dispute has no deadline any more —
        resolved, withdrawn, abandoned — its deadline reads as long past)."""
        with self._c.db.read() as conn:
            dispute = self._c.desk.load_within(conn, dispute_id)
            deadline = dispute.tier_deadline or datetime.min.replace(tzinfo=UTC)
            return step_rows.negotiation_within(conn, dispute_id, dispute.party_ids, deadline)

    def propose(
        self,
        dispute_id: str,
        signer: Signer,
        terms: str,
        *,
        responds_to: str | None = None,
    ) -> Proposal:
        """The signing party proposes ``terms`` (and accepts them)."""
        check_text(terms, "terms", "R7")
        now = self._c.clock.now()
        with self._c.desk.transaction() as conn:
            agent = self._c.actor_within(conn, signer, "agent")
            dispute, state = self._open(conn, dispute_id)
            after = state.propose(
                agent,
                terms,
                at=now,
                responds_to=responds_to,
                proposal_id=self._c.ids.new_id("prop", now),
            )
            proposal = after.proposals[-1]
            self._record(conn, dispute, state, after, now)
            draft = self._c.resolution_draft(
                conn,
                dispute_id=dispute_id,
                level=Tier.DIRECT_NEGOTIATION,
                resolution_type=ResolutionType.BINDING_RESOLUTION,
                description=terms,
                reasoning=(
                    f"every party ({', '.join(dispute.party_ids)}) accepted proposal "
                    f"{proposal.proposal_id} by {agent}"
                ),
                at=now,
            )
            signature = self._sign_draft(
                conn, dispute_id, proposal.proposal_id, draft, agent, signer
            )
            record = {
                "dispute_id": dispute_id,
                "step": "proposal",
                "agent_id": agent,
                "proposal_id": proposal.proposal_id,
                "terms": terms,
                "responds_to": responds_to,
                "at": isoformat(now),
                "resolution_signature": signature,
            }
            self._c.step(
                conn,
                dispute,
                PROPOSAL_EVENT,
                agent,
                party_signed(record, signer),
                status=_NEGOTIATING,
            )
            self._resolve_if_agreed(conn, dispute, after, agent)
        return proposal

    def counter_evidence(
        self,
        dispute_id: str,
        signer: Signer,
        *,
        content_hash: str,
        description: str,
        answers: str | None = None,
    ) -> Negotiation:
        """The signing party answers with evidence addressed by ``content_hash`` (R7, R33)."""
        check_text(description, "description", "R7")
        now = self._c.clock.now()
        with self._c.desk.transaction() as conn:
            agent = self._c.actor_within(conn, signer, "agent")
            dispute, state = self._open(conn, dispute_id)
            after = state.submit_counter_evidence(
                agent,
                content_hash=content_hash,
                description=description,
                at=now,
                answers=answers,
                evidence_id=self._c.ids.new_id("evid", now),
            )
            item = after.counter_evidence[-1]
            self._record(conn, dispute, state, after, now)
            record = {
                "dispute_id": dispute_id,
                "step": "counter_evidence",
                "agent_id": agent,
                **step_rows.json_of(item),
            }
            self._c.step(
                conn,
                dispute,
                PROPOSAL_EVENT,
                agent,
                party_signed(record, signer),
                status=_NEGOTIATING,
            )
        return after

    def accept(self, dispute_id: str, signer: Signer, proposal_id: str) -> NegotiationStep:
        """The signing party accepts ``proposal_id``; once every party has, it resolves (R7)."""
        now = self._c.clock.now()
        with self._c.desk.transaction() as conn:
            agent = self._c.actor_within(conn, signer, "agent")
            dispute, state = self._open(conn, dispute_id)
            after = state.accept(agent, proposal_id, at=now)
            self._record(conn, dispute, state, after, now)
            draft = step_rows.agreement_draft_within(conn, proposal_id)
            if draft is None:
                raise refused(
                    "R7",
                    "proposal_id",
                    "the proposal has no resolution draft to sign (it was made before drafts "
                    "were kept): propose the terms again",
                    code="negotiation.no_draft",
                    proposal_id=proposal_id,
                )
            signature = self._sign_draft(conn, dispute_id, proposal_id, draft, agent, signer)
            record = {
                "dispute_id": dispute_id,
                "step": "acceptance",
                "agent_id": agent,
                "proposal_id": proposal_id,
                "at": isoformat(now),
                "resolution_signature": signature,
            }
            self._c.step(
                conn,
                dispute,
                PROPOSAL_EVENT,
                agent,
                party_signed(record, signer),
                status=_NEGOTIATING,
            )
            resolution = self._resolve_if_agreed(conn, dispute, after, agent)
        return NegotiationStep(negotiation=after, resolution=resolution)

    # -- coin flip ----------------------------------------------------------------------------

    def coin_flip(self, dispute_id: str) -> CoinFlip | None:
        """The dispute's coin flip as stored (None before the first commit)."""
        with self._c.db.read() as conn:
            dispute = self._c.desk.load_within(conn, dispute_id)
            return step_rows.coin_flip_within(conn, dispute_id, dispute.party_ids)

    def coin_outcome(self, dispute_id: str) -> CoinOutcome:
        """The flip's outcome once settled (``coin.outcome_too_early`` before, R8)."""
        flip = self.coin_flip(dispute_id)
        if flip is None:
            raise refused("R8", "dispute_id", "nobody has committed yet", code="coin.not_open")
        return flip.outcome(now=self._c.clock.now())

    def commit(self, dispute_id: str, signer: Signer, commitment: str) -> CoinFlip:
        """The signing party commits (``sha256:`` over its nonce and choice, R8)."""
        now = self._c.clock.now()
        with self._c.desk.transaction() as conn:
            agent = self._c.actor_within(conn, signer, "agent")
            dispute = self._c.at_tier(conn, dispute_id, _COIN_TIERS, "R8")
            flip = step_rows.coin_flip_within(conn, dispute_id, dispute.party_ids)
            if flip is None:
                flip = self._open_flip(conn, dispute, now)
            after = flip.commit(agent, commitment, at=now)
            step_rows.add_coin_step(
                conn, dispute_id, step_rows.COMMIT, agent, after.commits[-1], now
            )
            record = {
                "dispute_id": dispute_id,
                "step": "coin_commit",
                "agent_id": agent,
                "commitment": commitment,
                "commit_deadline": isoformat(after.commit_deadline),
                "reveal_deadline": isoformat(after.reveal_deadline),
                "at": isoformat(now),
            }
            self._c.step(
                conn,
                dispute,
                PROPOSAL_EVENT,
                agent,
                party_signed(record, signer),
                status=_coin_status(dispute),
            )
        return after

    def reveal(self, dispute_id: str, signer: Signer, nonce: bytes, choice: str) -> CoinFlip:
        """The signing party reveals; checked against its commitment in constant time (R8)."""
        if not isinstance(choice, str) or len(choice) > MAX_CHOICE:
            raise refused(
                "R8", "choice", f"at most {MAX_CHOICE} characters", code="coin.bad_choice"
            )
        now = self._c.clock.now()
        with self._c.desk.transaction() as conn:
            agent = self._c.actor_within(conn, signer, "agent")
            dispute = self._c.at_tier(conn, dispute_id, _COIN_TIERS, "R8")
            flip = step_rows.coin_flip_within(conn, dispute_id, dispute.party_ids)
            if flip is None:
                raise refused("R8", "dispute_id", "nobody has committed yet", code="coin.not_open")
            after = flip.reveal(agent, nonce, choice, at=now)
            step_rows.add_coin_step(
                conn, dispute_id, step_rows.REVEAL, agent, after.reveals[-1], now
            )
            record = {
                "dispute_id": dispute_id,
                "step": "coin_reveal",
                "agent_id": agent,
                "nonce_hex": nonce.hex(),
                "choice": choice,
                "at": isoformat(now),
            }
            self._c.step(
                conn,
                dispute,
                PROPOSAL_EVENT,
                agent,
                party_signed(record, signer),
                status=_coin_status(dispute),
            )
        return after

    # -- inside ---------------------------------------------------------------------------------

    def _open(self, conn: Connection, dispute_id: str) -> tuple[TierDispute, Negotiation]:
        dispute = self._c.at_tier(conn, dispute_id, _TIER1, "R7")
        return dispute, self._state(conn, dispute)

    def _state(self, conn: Connection, dispute: TierDispute) -> Negotiation:
        deadline = self._c.deadline_of(dispute, "R9")
        return step_rows.negotiation_within(conn, dispute.dispute_id, dispute.party_ids, deadline)

    def _open_flip(self, conn: Connection, dispute: TierDispute, now: datetime) -> CoinFlip:
        deadline = self._c.deadline_of(dispute, "R8")
        left = deadline - now
        if left.total_seconds() <= 0:
            raise refused("R9", "at", "the tier's deadline has passed", code="coin.tier_closed")
        options: tuple[str, ...] = ()
        if dispute.level is Tier.DIRECT_NEGOTIATION:
            options = tuple(p.proposal_id for p in self._state(conn, dispute).proposals)
        flip = CoinFlip(
            dispute_id=dispute.dispute_id,
            parties=dispute.party_ids,
            commit_deadline=now + left / 3,
            reveal_deadline=now + left * 2 / 3,
            options=options,
        )
        step_rows.open_coin_flip(conn, flip, now)
        return flip

    def _record(
        self,
        conn: Connection,
        dispute: TierDispute,
        before: Negotiation,
        after: Negotiation,
        now: datetime,
    ) -> None:
        steps: list[tuple[str, str, BaseModel]] = []
        steps += [
            (step_rows.PROPOSAL, p.proposed_by, p) for p in after.proposals[len(before.proposals) :]
        ]
        steps += [
            (step_rows.ACCEPTANCE, a.agent_id, a)
            for a in after.acceptances[len(before.acceptances) :]
        ]
        steps += [
            (step_rows.COUNTER_EVIDENCE, e.submitted_by, e)
            for e in after.counter_evidence[len(before.counter_evidence) :]
        ]
        step_rows.add_negotiation_steps(conn, dispute.dispute_id, steps, now)

    def _sign_draft(
        self,
        conn: Connection,
        dispute_id: str,
        proposal_id: str,
        draft: ResolutionRecord,
        agent: str,
        signer: Signer,
    ) -> dict[str, Any]:
        """The party's signature added to the proposal's §6 draft (kept); returns it."""
        signed = cosigned(draft, agent, signer)
        step_rows.keep_agreement_draft(conn, dispute_id, proposal_id, signed)
        return signed.signatures[-1].model_dump(mode="json")

    def _resolve_if_agreed(
        self,
        conn: Connection,
        dispute: TierDispute,
        after: Negotiation,
        agent: str,
    ) -> ResolutionRecord | None:
        """Resolve once every party accepted one proposal, with its draft as every party
        signed it."""
        agreement = after.agreement
        if agreement is None:
            return None
        resolution = step_rows.agreement_draft_within(conn, agreement.proposal.proposal_id)
        assert resolution is not None  # each acceptance of the proposal signed its draft
        self._c.resolver.resolve_within(conn, dispute, resolution, actor=agent)
        return resolution


def _coin_status(dispute: TierDispute) -> str | None:
    """A coin flip at tier 1 starts the negotiation; at tier 2 it only seeds the panel."""
    return _NEGOTIATING if dispute.level is Tier.DIRECT_NEGOTIATION else None
