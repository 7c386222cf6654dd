"""Resolving a dispute from any tier: the dispute store marks it resolved (``dispute_resolved``,
deadline cancelled) in the tier's transaction, and, once that commits, the resolution becomes
a jurisprudence bundle in the precedent registry (R23) when a registry is wired."""

from __future__ import annotations

from sqlalchemy import Connection

from accord.crypto.hashing import content_hash
from accord.disputes.dcp.documents import record_document
from accord.disputes.dcp.resolution_record import ResolutionRecord
from accord.disputes.tiers.dispute_port import DisputeDesk, TierDispute
from accord.errors import AccordError
from accord.log import get_logger
from accord.precedents import Precedents
from accord.precedents.bundle import BundleDraft
from accord.store import Database

_log = get_logger(__name__)


class Resolver:
    """Hands a tier's resolution to the dispute store, then files its precedent."""

    def __init__(self, db: Database, desk: DisputeDesk, precedents: Precedents | None) -> None:
        self._db = db
        self._desk = desk
        self._precedents = precedents

    def resolve_within(
        self,
        conn: Connection,
        dispute: TierDispute,
        resolution: ResolutionRecord,
        *,
        actor: str,
        dissent: str | None = None,
    ) -> None:
        """Resolve ``dispute`` by ``resolution`` inside ``conn``; file the bundle after commit."""
        self._desk.resolve_within(conn, dispute.dispute_id, resolution, actor=actor)
        if self._precedents is not None:
            draft = precedent_draft(dispute, resolution, dissent)
            self._db.after_commit(conn, lambda: self._file(draft))

    def _file(self, draft: BundleDraft) -> None:
        assert self._precedents is not None
        try:
            self._precedents.add(draft)
        except AccordError as error:  # the dispute is resolved; a missing bundle is logged
            _log.warning(
                "no jurisprudence bundle for the resolved dispute",
                dispute_id=draft.dispute_id,
                code=error.code,
                error=error.message,
            )


def precedent_draft(
    dispute: TierDispute, resolution: ResolutionRecord, dissent: str | None
) -> BundleDraft:
    """The R23 bundle draft of a resolved dispute (authority = the tier that decided)."""
    return BundleDraft.model_validate(
        {
            "dispute_id": dispute.dispute_id,
            "resolution_id": resolution.resolution_id,
            "classification": {
                "dispute_type": dispute.dispute_type,
                "resource_category": "dispute",
                "resolution_pattern": resolution.resolution_type.value,
                "tags": [resolution.resolution_level.value],
            },
            "summary": {
                "facts": f"{dispute.dispute_type} dispute between " + ", ".join(dispute.party_ids),
                "holding": resolution.outcome.description,
                "rationale": resolution.reasoning,
                "dissent": dissent,
            },
            "applicability": {"applicable_dispute_types": [dispute.dispute_type]},
            "authority_level": resolution.resolution_level.value,
            "dispute_record_hash": dispute.record_hash,
            "resolution_record_hash": content_hash(record_document(resolution)),
        }
    )
