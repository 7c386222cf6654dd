"""A binding resolution's required actions as tracked rows (R20), both ways."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

from pydantic import AwareDatetime, BaseModel, ConfigDict
from sqlalchemy import Connection, func, insert, select, update

from accord.clock import isoformat
from accord.disputes.compliance.refusals import ComplianceRefused
from accord.store.tables import compliance_actions

_c = compliance_actions.c


class ActionState(StrEnum):
    """Where a required action stands: owed, shown done, failed (R21), or stayed (R28)."""

    PENDING = "pending"
    VERIFIED = "verified"
    FAILED = "failed"
    STAYED = "stayed"


class TrackedAction(BaseModel):
    """One ``actions_required`` entry of a binding resolution, and what became of it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    action_id: str
    dispute_id: str
    resolution_id: str
    position: int
    """Its index in the resolution's ``outcome.actions_required``."""
    agent_id: str
    action: str
    method: str
    due_at: AwareDatetime
    resolution_seq: int
    """The ledger entry that recorded the resolution: reported entries must come after it."""
    state: ActionState = ActionState.PENDING
    settled_at: AwareDatetime | None = None
    ledger_seq: int | None = None
    """The signed ``dispute_compliance_verified`` / ``_failed`` entry."""
    failure: str | None = None
    followup_dispute_id: str | None = None
    """The ``policy_conflict`` dispute opened for the failure (R21)."""

    def to_json_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


def insert_actions(conn: Connection, actions: Sequence[TrackedAction]) -> None:
    if actions:
        conn.execute(insert(compliance_actions), [_row(a) for a in actions])


def _row(action: TrackedAction) -> dict[str, Any]:
    return {
        **action.model_dump(mode="json", exclude={"due_at", "settled_at", "state"}),
        "state": action.state.value,
        "due_at": isoformat(action.due_at),
        "settled_at": None if action.settled_at is None else isoformat(action.settled_at),
    }


def _from_row(row: Mapping[Any, Any]) -> TrackedAction:
    return TrackedAction.model_validate(dict(row))


def load_action(conn: Connection, action_id: str) -> TrackedAction | None:
    row = (
        conn.execute(select(compliance_actions).where(_c.action_id == action_id)).mappings().first()
    )
    return None if row is None else _from_row(row)


def actions_where(conn: Connection, *conditions: Any) -> list[TrackedAction]:
    rows = conn.execute(
        select(compliance_actions)
        .where(*conditions)
        .order_by(_c.dispute_id, _c.resolution_id, _c.position)
    ).mappings()
    return [_from_row(row) for row in rows]


def settle_action(conn: Connection, settled: TrackedAction) -> None:
    """Store what became of a pending action (compare-and-set: it must still be pending)."""
    result = conn.execute(
        update(compliance_actions)
        .where(_c.action_id == settled.action_id)
        .where(_c.state == ActionState.PENDING.value)
        .values(
            state=settled.state.value,
            settled_at=None if settled.settled_at is None else isoformat(settled.settled_at),
            ledger_seq=settled.ledger_seq,
            failure=settled.failure,
            followup_dispute_id=settled.followup_dispute_id,
        )
    )
    if result.rowcount != 1:
        raise ComplianceRefused(
            f"action {settled.action_id} is no longer pending",
            code="compliance.conflict",
            action_id=settled.action_id,
            field="action_id",
            rule="an action is settled once",
            requirement="R20",
        )


def failures_of(conn: Connection, agent_id: str) -> int:
    """How many of ``agent_id``'s required actions failed, across every dispute (R22)."""
    count = conn.execute(
        select(func.count())
        .select_from(compliance_actions)
        .where(_c.agent_id == agent_id, _c.state == ActionState.FAILED.value)
    ).scalar_one()
    return int(count)
