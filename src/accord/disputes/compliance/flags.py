"""Repeated non-compliance, flagged (R22): a signed record each time an agent's failed
actions reach the threshold or pass it, for a person to weigh termination for cause
(DCP-05). Accord flags; it never terminates an agent itself."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, ClassVar, Final, Literal

from pydantic import BaseModel, ConfigDict
from sqlalchemy import Connection, insert, select

from accord.clock import isoformat
from accord.ids import new_id
from accord.ledger.signed_record import SignedRecord
from accord.store.tables import compliance_flags

DEFAULT_FLAG_AFTER: Final = 2
"""Failed actions (across disputes) from which an agent is flagged (R22), unless configured."""

_c = compliance_flags.c


class NonComplianceFlag(SignedRecord):
    """The signed flag (event ``agent_noncompliance_flagged``); built by :func:`flag_record`."""

    event_type: ClassVar[str] = "agent_noncompliance_flagged"

    record_type: Literal["noncompliance_flag"]
    requirement: Literal["R22"]
    flag_id: str
    agent_id: str
    failures: int
    threshold: int
    dispute_id: str
    action_id: str
    flagged_at: str
    recommendation: Literal["review_termination_for_cause"]


def flag_record(
    *, agent_id: str, failures: int, threshold: int, dispute_id: str, action_id: str, at: datetime
) -> NonComplianceFlag:
    """The one builder of a non-compliance flag."""
    return NonComplianceFlag(
        record_type="noncompliance_flag",
        requirement="R22",
        flag_id=new_id("flag", at),
        agent_id=agent_id,
        failures=failures,
        threshold=threshold,
        dispute_id=dispute_id,
        action_id=action_id,
        flagged_at=isoformat(at),
        recommendation="review_termination_for_cause",
    )


class StoredFlag(BaseModel):
    """A flag as stored, with the ledger entry that signs it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    flag_id: str
    agent_id: str
    failures: int
    threshold: int
    dispute_id: str
    flagged_at: str
    ledger_seq: int

    def to_json_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


def insert_flag(conn: Connection, flag: NonComplianceFlag, ledger_seq: int) -> StoredFlag:
    stored = StoredFlag(
        flag_id=flag.flag_id,
        agent_id=flag.agent_id,
        failures=flag.failures,
        threshold=flag.threshold,
        dispute_id=flag.dispute_id,
        flagged_at=flag.flagged_at,
        ledger_seq=ledger_seq,
    )
    conn.execute(insert(compliance_flags), [stored.model_dump()])
    return stored


def flags_where(conn: Connection, agent_id: str | None) -> Sequence[StoredFlag]:
    query = select(compliance_flags).order_by(_c.flagged_at, _c.flag_id)
    if agent_id is not None:
        query = query.where(_c.agent_id == agent_id)
    return [StoredFlag.model_validate(dict(row)) for row in conn.execute(query).mappings()]
