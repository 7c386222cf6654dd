"""One armed deadline as a frozen record, and its table row both ways."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from accord.clock import isoformat

#: How many times a failing handler is tried (once per sweep) before its row is set aside.
MAX_ATTEMPTS = 5

Kind = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z][a-z0-9_]*$")]
SubjectId = Annotated[str, Field(min_length=1, max_length=64)]


class DeadlineState(StrEnum):
    """``armed`` until a sweeper fires it or its subject cancels it; ``failed`` when its
    handler failed :data:`MAX_ATTEMPTS` times (kept, with the last error, for a person)."""

    ARMED = "armed"
    FIRED = "fired"
    CANCELLED = "cancelled"
    FAILED = "failed"


class Deadline(BaseModel):
    """A deadline row: ``kind`` picks the handler, ``subject_id`` what it is the deadline of
    (an approval item, a dispute), ``tier`` the rung the subject was at when it was armed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    deadline_id: str
    kind: Kind
    subject_id: SubjectId
    tier: str | None = Field(default=None, max_length=40)
    due_at: AwareDatetime
    state: DeadlineState = DeadlineState.ARMED
    armed_at: AwareDatetime
    fired_at: AwareDatetime | None = None
    cancelled_at: AwareDatetime | None = None
    fired_by: str | None = Field(default=None, max_length=128)
    outcome: str | None = Field(default=None, max_length=40)
    attempts: int = Field(default=0, ge=0)
    last_error: str | None = None
    version: int = Field(default=1, ge=1)


def deadline_row(deadline: Deadline) -> dict[str, Any]:
    """Every column of ``deadlines`` for ``deadline``."""
    return {
        "deadline_id": deadline.deadline_id,
        "kind": deadline.kind,
        "subject_id": deadline.subject_id,
        "tier": deadline.tier,
        "due_at": isoformat(deadline.due_at),
        "state": deadline.state.value,
        "armed_at": isoformat(deadline.armed_at),
        "fired_at": _iso(deadline.fired_at),
        "cancelled_at": _iso(deadline.cancelled_at),
        "fired_by": deadline.fired_by,
        "outcome": deadline.outcome,
        "attempts": deadline.attempts,
        "last_error": deadline.last_error,
        "version": deadline.version,
    }


def deadline_from_row(row: Mapping[Any, Any]) -> Deadline:
    """The record a ``deadlines`` row holds (timestamps are ISO text in the table)."""
    return Deadline.model_validate(
        {
            **row,
            "due_at": _parse(row["due_at"]),
            "armed_at": _parse(row["armed_at"]),
            "fired_at": _parse(row["fired_at"]),
            "cancelled_at": _parse(row["cancelled_at"]),
        }
    )


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else isoformat(moment)


def _parse(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)
