"""A stay of a resolution, ordered by a human principal on an objection (R28).

The record is signed by the principal's reviewer key (``Reviewer.signed``, as approval
decisions are), so the principal is the credential's, never a caller's claim; the service
key then signs the ledger entry ``dispute_stay_ordered`` that carries it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from accord.approvals import Reviewer
from accord.clock import isoformat

STAY_EVENT: Final = "dispute_stay_ordered"
MAX_REASON_CHARS: Final = 4096


class StayOrder(BaseModel):
    """What the principal orders: the resolution is not in force while the objection is heard."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    record_type: Literal["resolution_stay"] = "resolution_stay"
    requirement: Literal["R28"] = "R28"
    objection_id: str
    dispute_id: str
    resolution_id: str
    ordered_by: str
    ordered_at: str
    reason: str = Field(max_length=MAX_REASON_CHARS)

    def signed_by(self, reviewer: Reviewer) -> dict[str, Any]:
        """The order with the reviewer's credential and signature (the ledger record)."""
        return reviewer.signed(self.model_dump(mode="json"))


def stay_order(
    *,
    objection_id: str,
    dispute_id: str,
    resolution_id: str,
    reviewer: Reviewer,
    at: datetime,
    reason: str,
) -> StayOrder:
    """The one builder of a stay order, by ``reviewer``'s principal at ``at``."""
    return StayOrder(
        objection_id=objection_id,
        dispute_id=dispute_id,
        resolution_id=resolution_id,
        ordered_by=reviewer.principal_id,
        ordered_at=isoformat(at),
        reason=reason,
    )
