"""The one builder of the §8 objection record (R27, R40): id, times, chain link, signature."""

from __future__ import annotations

from datetime import datetime

from accord.clock import isoformat
from accord.crypto import Ed25519Signer
from accord.dcp07.chain import ChainLink
from accord.dcp07.objection_record import Grounds, ObjectionRecord, RequestedRemedy
from accord.dcp07.parties import ObjectingParty
from accord.dcp07.signing import signed
from accord.dcp07.vocabulary import ObjectionStatus, ObjectionType
from accord.ids import new_id


def build_objection(
    *,
    dispute_id: str,
    resolution_id: str,
    objecting_party: ObjectingParty,
    objection_type: ObjectionType,
    grounds: Grounds,
    requested_remedy: RequestedRemedy,
    status: ObjectionStatus,
    at: datetime,
    link: ChainLink,
    signer: Ed25519Signer,
) -> ObjectionRecord:
    """A signed objection filed at ``at``, chained after the ledger entry ``link`` names."""
    moment = isoformat(at)
    draft = ObjectionRecord(
        objection_id=new_id("obj", at),
        dispute_id=dispute_id,
        resolution_id=resolution_id,
        objecting_party=objecting_party,
        objection_type=objection_type,
        grounds=grounds,
        requested_remedy=requested_remedy,
        status=status,
        filed_at=moment,
        timestamp=moment,
        prev_hash=link.prev_hash,
        prev_hash_secondary=link.prev_hash_secondary,
    )
    return signed(draft, signer)
