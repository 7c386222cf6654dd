"""Resolving a dispute from any tier: the dispute store marks it resolved (``dispute_resolved``,
deadline cancelled) and, when a registry is wired, the resolution becomes a jurisprudence
bundle in the precedent registry (R23) — both in the tier's transaction, so a dispute is never
resolved without its bundle: a bundle that cannot be written refuses the resolution."""

from __future__ import annotations

from typing import Protocol

from sqlalchemy import Connection

from accord.crypto.hashing import content_hash
from accord.dcp07.documents import record_document
from accord.dcp07.resolution_record import ResolutionRecord
from accord.disputes.tiers.dispute_port import DisputeDesk, TierDispute
from accord.precedents.bundle import BundleDraft, JurisprudenceBundle


class BundleRegistry(Protocol):
    """Where a resolved dispute's bundle is filed (:class:`~accord.precedents.Precedents`)."""

    def add_within(self, conn: Connection, draft: BundleDraft) -> JurisprudenceBundle:
        """Build, sign and store the bundle inside ``conn``'s write transaction."""
        ...


class Resolver:
    """Hands a tier's resolution to the dispute store and files its precedent, together."""

    def __init__(self, desk: DisputeDesk, precedents: BundleRegistry | None) -> None:
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
        """Resolve ``dispute`` by ``resolution`` and file its bundle, both inside ``conn``."""
        self._desk.resolve_within(conn, dispute.dispute_id, resolution, actor=actor)
        if self._precedents is not None:
            self._precedents.add_within(conn, precedent_draft(dispute, resolution, dissent))


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
