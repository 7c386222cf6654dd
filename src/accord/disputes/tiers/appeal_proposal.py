"""A human-appeal decision proposed by one responsible principal and signed in turn by the
others (R16), kept as a draft §6 record in ``dispute_agreement_drafts`` — the table tier 1
keeps its agreement drafts in — until every responsible principal has signed it.

A dispute has at most one pending appeal proposal: its draft is the dispute's only draft at
``resolution_level`` ``human_appeal`` (a new proposal deletes the one it replaces).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict
from sqlalchemy import Connection, delete, select

from accord.conflicts import Tier
from accord.dcp07.resolution_record import ResolutionRecord
from accord.disputes.tiers import step_rows
from accord.store.tables import dispute_agreement_drafts


class AppealProposal(BaseModel):
    """A proposed appeal decision: its §6 record as signed so far, who has signed it and who
    still must. ``resolution`` is that record once it resolved the dispute (else None)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dispute_id: str
    proposal_id: str
    """The draft record's ``resolution_id``: what a co-signer names to sign this decision."""
    proposed_by: str
    responsible: tuple[str, ...]
    signed_by: tuple[str, ...]
    outstanding: tuple[str, ...]
    record: ResolutionRecord
    resolution: ResolutionRecord | None = None

    @classmethod
    def of(
        cls, record: ResolutionRecord, responsible: Sequence[str], *, resolved: bool = False
    ) -> AppealProposal:
        """The proposal ``record`` is, for the dispute's ``responsible`` principals."""
        signed = tuple(s.agent_id for s in record.signatures)
        return cls(
            dispute_id=record.dispute_id,
            proposal_id=record.resolution_id,
            proposed_by=signed[0] if signed else "",
            responsible=tuple(sorted(responsible)),
            signed_by=tuple(sorted(signed)),
            outstanding=tuple(p for p in sorted(responsible) if p not in signed),
            record=record,
            resolution=record if resolved else None,
        )


def pending_within(conn: Connection, dispute_id: str) -> ResolutionRecord | None:
    """The dispute's pending appeal draft, or None."""
    bodies = conn.execute(
        select(dispute_agreement_drafts.c.resolution)
        .where(dispute_agreement_drafts.c.dispute_id == dispute_id)
        .order_by(dispute_agreement_drafts.c.proposal_id)
    ).scalars()
    for body in bodies:
        draft = ResolutionRecord.model_validate_json(body)
        if draft.resolution_level is Tier.HUMAN_APPEAL:
            return draft
    return None


def keep(conn: Connection, record: ResolutionRecord) -> None:
    """Store (a new proposal) or update (a co-signature) the pending appeal draft."""
    step_rows.keep_agreement_draft(conn, record.dispute_id, record.resolution_id, record)


def drop(conn: Connection, proposal_id: str) -> None:
    """Delete a replaced or decided appeal draft (its steps stay in the ledger)."""
    conn.execute(
        delete(dispute_agreement_drafts).where(
            dispute_agreement_drafts.c.proposal_id == proposal_id
        )
    )
