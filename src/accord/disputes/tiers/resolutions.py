"""The one builder of the §6 resolution record a tier writes when it resolves a dispute (R7,
R15, R16, R19): level, type, outcome, reasoning, the panel section for tier 2, chained to the
ledger's last entry inside the writing transaction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection

from accord.clock import isoformat
from accord.conflicts import Tier
from accord.dcp07.chain import chain_link_at
from accord.dcp07.panels.question import COMPLIANCE_METHOD
from accord.dcp07.resolution_record import (
    PrecedentApplication,
    RequiredAction,
    ResolutionRecord,
)
from accord.dcp07.vocabulary import ResolutionType
from accord.ids import new_id
from accord.ledger.entry import ChainHead
from accord.ledger.ledger import head_within


def tier_resolution(
    conn: Connection,
    *,
    dispute_id: str,
    level: Tier,
    resolution_type: ResolutionType,
    description: str,
    reasoning: str,
    at: datetime,
    panel: Mapping[str, Any] | None = None,
    resolution_id: str | None = None,
    head: ChainHead | None = None,
    actions_required: Sequence[RequiredAction] = (),
    compliance_verification_method: str = COMPLIANCE_METHOD,
    compliance_deadline: str | None = None,
    precedents_applied: Sequence[PrecedentApplication] = (),
) -> ResolutionRecord:
    """An unsigned resolution of ``dispute_id`` decided at ``level`` at ``at``, chained to
    ``head`` (default: the ledger's last entry in ``conn``), named ``resolution_id`` (default:
    a new ``res:`` id); the outcome's actions, compliance method and deadline and the
    precedents applied are a panel's proposal's (none by default)."""
    link = chain_link_at(head_within(conn) if head is None else head)
    moment = isoformat(at)
    return ResolutionRecord.model_validate(
        {
            "resolution_id": resolution_id or new_id("res", at),
            "dispute_id": dispute_id,
            "resolution_level": level.value,
            "resolution_type": resolution_type.value,
            "outcome": {
                "description": description,
                "actions_required": [a.model_dump(mode="json") for a in actions_required],
                "compliance_verification_method": compliance_verification_method,
                "compliance_deadline": compliance_deadline,
            },
            "reasoning": reasoning,
            "precedents_applied": [p.model_dump(mode="json") for p in precedents_applied],
            "panel": None if panel is None else dict(panel),
            "effective_at": moment,
            "timestamp": moment,
            "prev_hash": link.prev_hash,
            "prev_hash_secondary": link.prev_hash_secondary,
        }
    )
