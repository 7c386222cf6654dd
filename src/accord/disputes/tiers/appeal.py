"""Tier 3 on a persisted dispute (R16): the responsible principals' final decision.

The responsible principals are the parties' principals. They decide together: each is a
:class:`~accord.approvals.Reviewer` authenticated by its registered reviewer key (the approval
queue's credential), and each signs the §6 resolution (``resolution_level`` ``human_appeal``,
``binding_resolution``) under ``DCP-DISPUTE-SIG-v2``. The decision is final: the dispute is
resolved and no tier acts on it again. Principals who cannot agree decide nothing here —
organisational procedure applies, outside the protocol (R16).

Two ways to decide:

* :meth:`HumanAppeal.decide_appeal` — every responsible principal's key in one call.
* In turn, each with only its own key: :meth:`HumanAppeal.propose_appeal` drafts the decision
  (outcome and reasoning) and signs it; each other principal co-signs that draft with
  :meth:`HumanAppeal.sign_appeal`, naming it by ``proposal_id``. A principal who wants a
  different decision proposes it instead: the new draft replaces the pending one and the
  earlier signatures are dropped (they were given to other words), so signing the replaced
  draft is refused. The signature that leaves no principal outstanding resolves the dispute
  in its own transaction. Each proposal and co-signature is a ``dispute_negotiation_proposal``
  event (``step`` ``appeal_proposal`` / ``appeal_signature``, the R30 proposal event tier 1
  and the coin flip use too) signed with the principal's reviewer key
  (``party_signature``), carrying the principal's signature over the draft.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Connection

from accord.approvals import Principal, Reviewer
from accord.clock import isoformat
from accord.conflicts import Tier
from accord.crypto import Ed25519Signer
from accord.dcp07.refusal import refused
from accord.dcp07.resolution_record import ResolutionRecord
from accord.dcp07.signing import cosigned
from accord.dcp07.vocabulary import ResolutionType
from accord.disputes.reviewers import reviewer_for
from accord.disputes.tiers import appeal_proposal
from accord.disputes.tiers.appeal_proposal import AppealProposal
from accord.disputes.tiers.dispute_port import TierDispute
from accord.disputes.tiers.negotiating import PROPOSAL_EVENT
from accord.disputes.tiers.resolutions import tier_resolution
from accord.disputes.tiers.tier_context import TierContext, check_text, party_signed
from accord.errors import AccordError
from accord.ledger.ledger import registry_within
from accord.store.tables import dispute_appeal_decisions

_TIER3 = (Tier.HUMAN_APPEAL,)
PROPOSAL_STEP = "appeal_proposal"
SIGNATURE_STEP = "appeal_signature"
MAX_PROPOSAL_ID = 64


class HumanAppeal:
    """Tier-3 decisions on persisted disputes."""

    def __init__(self, context: TierContext) -> None:
        self._c = context

    def decide_appeal(
        self, dispute_id: str, reviewers: Sequence[Reviewer], *, outcome: str, reasoning: str
    ) -> ResolutionRecord:
        """The responsible principals' final, binding decision (R16), all keys at once."""
        check_text(outcome, "outcome", "R16")
        check_text(reasoning, "reasoning", "R16")
        for reviewer in reviewers:
            if not isinstance(reviewer, Reviewer) or reviewer.signer is None:
                raise refused(
                    "R16",
                    "reviewers",
                    "each principal signs with a registered reviewer key",
                    code="appeal.unsigned",
                )
        deciders = [r.principal_id for r in reviewers]
        if len(set(deciders)) != len(deciders):
            raise refused(
                "R16", "reviewers", "each principal decides once", code="appeal.duplicate"
            )
        now = self._c.clock.now()
        with self._c.desk.transaction() as conn:
            dispute = self._c.at_tier(conn, dispute_id, _TIER3, "R16")
            responsible = responsible_principals(dispute)
            if sorted(deciders) != list(responsible):
                raise refused(
                    "R16",
                    "reviewers",
                    "the responsible principals of all parties decide, and only they (each "
                    "with only its own key: propose_appeal, then sign_appeal)",
                    code="appeal.wrong_principals",
                    responsible=list(responsible),
                    deciding=sorted(deciders),
                )
            record = _draft(conn, dispute_id, outcome, reasoning, now)
            for reviewer in sorted(reviewers, key=lambda r: r.principal_id):
                assert reviewer.signer is not None
                record = cosigned(record, reviewer.principal_id, reviewer.signer)
            pending = appeal_proposal.pending_within(conn, dispute_id)
            if pending is not None:
                appeal_proposal.drop(conn, pending.resolution_id)
            self._resolve(conn, dispute, record, responsible, now)
        return record

    def pending_appeal(self, dispute_id: str) -> AppealProposal | None:
        """The appeal decision awaiting the other principals' signatures (None if none)."""
        with self._c.db.read() as conn:
            dispute = self._c.desk.load_within(conn, dispute_id)
            draft = appeal_proposal.pending_within(conn, dispute_id)
        return None if draft is None else AppealProposal.of(draft, responsible_principals(dispute))

    def propose_appeal(
        self, dispute_id: str, signer: Ed25519Signer, *, outcome: str, reasoning: str
    ) -> AppealProposal:
        """The signing principal (its reviewer key) proposes the final decision and signs it;
        it replaces any pending proposal, whose signatures are dropped (R16). A principal
        responsible for every party decides at once."""
        check_text(outcome, "outcome", "R16")
        check_text(reasoning, "reasoning", "R16")
        now = self._c.clock.now()
        with self._c.desk.transaction() as conn:
            principal = _principal_within(conn, signer)
            dispute = self._c.at_tier(conn, dispute_id, _TIER3, "R16")
            responsible = _responsible_for(dispute, principal)
            replaced = appeal_proposal.pending_within(conn, dispute_id)
            if replaced is not None:
                appeal_proposal.drop(conn, replaced.resolution_id)
            record = cosigned(_draft(conn, dispute_id, outcome, reasoning, now), principal, signer)
            step = {
                "dispute_id": dispute_id,
                "step": PROPOSAL_STEP,
                "principal_id": principal,
                "proposal_id": record.resolution_id,
                "outcome": outcome,
                "reasoning": reasoning,
                "replaces": None if replaced is None else replaced.resolution_id,
                "at": isoformat(now),
                "resolution_signature": record.signatures[-1].model_dump(mode="json"),
            }
            self._c.step(conn, dispute, PROPOSAL_EVENT, principal, party_signed(step, signer))
            return self._settle(conn, dispute, record, responsible, now)

    def sign_appeal(
        self, dispute_id: str, signer: Ed25519Signer, proposal_id: str
    ) -> AppealProposal:
        """The signing principal (its reviewer key) signs the pending proposal
        ``proposal_id``; the last responsible principal's signature resolves the dispute,
        final and binding (R16)."""
        if not isinstance(proposal_id, str) or not 0 < len(proposal_id) <= MAX_PROPOSAL_ID:
            raise refused(
                "R16",
                "proposal_id",
                f"the pending proposal's id (1 to {MAX_PROPOSAL_ID} characters)",
                code="appeal.bad_proposal_id",
            )
        now = self._c.clock.now()
        with self._c.desk.transaction() as conn:
            principal = _principal_within(conn, signer)
            dispute = self._c.at_tier(conn, dispute_id, _TIER3, "R16")
            responsible = _responsible_for(dispute, principal)
            pending = appeal_proposal.pending_within(conn, dispute_id)
            if pending is None or pending.resolution_id != proposal_id:
                raise refused(
                    "R16",
                    "proposal_id",
                    "sign the pending appeal proposal (this one was replaced, or never made)"
                    if pending is not None
                    else "no appeal decision awaits signatures: propose one",
                    code="appeal.not_pending" if pending is not None else "appeal.nothing_to_sign",
                    proposal_id=proposal_id,
                    pending=None if pending is None else pending.resolution_id,
                )
            if any(s.agent_id == principal for s in pending.signatures):
                raise refused(
                    "R16",
                    "key",
                    "each principal signs the decision once",
                    code="appeal.already_signed",
                    principal_id=principal,
                )
            record = cosigned(pending, principal, signer)
            step = {
                "dispute_id": dispute_id,
                "step": SIGNATURE_STEP,
                "principal_id": principal,
                "proposal_id": proposal_id,
                "at": isoformat(now),
                "resolution_signature": record.signatures[-1].model_dump(mode="json"),
            }
            self._c.step(conn, dispute, PROPOSAL_EVENT, principal, party_signed(step, signer))
            return self._settle(conn, dispute, record, responsible, now)

    # -- inside ---------------------------------------------------------------------------------

    def _settle(
        self,
        conn: Connection,
        dispute: TierDispute,
        record: ResolutionRecord,
        responsible: tuple[str, ...],
        now: datetime,
    ) -> AppealProposal:
        """Resolve once every responsible principal has signed; else keep the draft."""
        if {s.agent_id for s in record.signatures} < set(responsible):
            appeal_proposal.keep(conn, record)
            return AppealProposal.of(record, responsible)
        appeal_proposal.drop(conn, record.resolution_id)
        self._resolve(conn, dispute, record, responsible, now)
        return AppealProposal.of(record, responsible, resolved=True)

    def _resolve(
        self,
        conn: Connection,
        dispute: TierDispute,
        record: ResolutionRecord,
        responsible: tuple[str, ...],
        now: datetime,
    ) -> None:
        conn.execute(
            dispute_appeal_decisions.insert().values(
                dispute_id=dispute.dispute_id,
                resolution_id=record.resolution_id,
                principals=json.dumps(list(responsible)),
                decided_at=isoformat(now),
            )
        )
        self._c.resolver.resolve_within(conn, dispute, record, actor=deciders_id(responsible))


def responsible_principals(dispute: TierDispute) -> tuple[str, ...]:
    """The principals of the dispute's parties, who decide its appeal (R16), sorted."""
    return tuple(sorted({p.principal_id for p in dispute.parties}))


def deciders_id(principals: Sequence[str]) -> str:
    """The actor of a joint decision: the principals' ids joined by ``+``."""
    return "+".join(principals)


def _draft(
    conn: Connection, dispute_id: str, outcome: str, reasoning: str, now: datetime
) -> ResolutionRecord:
    return tier_resolution(
        conn,
        dispute_id=dispute_id,
        level=Tier.HUMAN_APPEAL,
        resolution_type=ResolutionType.BINDING_RESOLUTION,
        description=outcome,
        reasoning=reasoning,
        at=now,
    )


def _principal_within(conn: Connection, signer: Ed25519Signer) -> str:
    """The principal whose registered, unrevoked reviewer key ``signer`` is."""
    try:
        reviewer = reviewer_for(registry_within(conn), signer, lambda p: Principal(principal_id=p))
    except AccordError:
        raise refused(
            "R16",
            "key",
            "a principal decides with its registered, unrevoked reviewer key",
            code="appeal.unsigned",
            kid=signer.kid,
        ) from None
    return reviewer.principal_id


def _responsible_for(dispute: TierDispute, principal: str) -> tuple[str, ...]:
    """The dispute's responsible principals, refused unless ``principal`` is one of them."""
    responsible = responsible_principals(dispute)
    if principal not in responsible:
        raise refused(
            "R16",
            "key",
            f"{principal} is not a responsible principal of this dispute's parties (the "
            f"responsible principals are {', '.join(responsible)})",
            code="appeal.not_responsible",
            responsible=list(responsible),
            principal_id=principal,
        )
    return responsible
