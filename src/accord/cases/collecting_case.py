"""A collecting case: a question put to named agents, waiting for each one's own position.

Each expected party submits its position itself (in its own process, with its own
credential); when the last one arrives — or the deadline passes with at least two in — the
positions go to settle as one case. Its status moves only through
:func:`accord.cases.lifecycle.move_collecting`.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Any, Self

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, model_validator

from accord.cases.statuses import CollectingStatus

MIN_COLLECT_FOR = timedelta(seconds=1)
"""The shortest collection window."""
MAX_COLLECT_FOR = timedelta(days=30)
"""The longest collection window: a question nobody answers for a month is abandoned."""


class CollectingCase(BaseModel):
    """A collecting case as stored; ``submitted`` names the parties whose positions are in
    (their contents stay private to the case until it settles)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    collecting_id: str
    subject: str
    task_type: str
    session_id: str | None
    parties: tuple[str, ...]
    submitted: tuple[str, ...]
    signed: tuple[str, ...] = ()
    """The parties whose positions carry their own signature (by their registered key)."""
    opened_by: str
    opened_at: AwareDatetime
    deadline_at: AwareDatetime
    status: CollectingStatus
    case_id: Annotated[str | None, Field(max_length=64)] = None
    closed_at: AwareDatetime | None = None
    closed_reason: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if not set(self.signed) <= set(self.submitted) <= set(self.parties):
            raise ValueError("only expected parties submit (and sign) positions")
        if (self.status is CollectingStatus.SETTLED) != (self.case_id is not None):
            raise ValueError("a collecting case names its case once, and only once, settled")
        if (self.status is CollectingStatus.COLLECTING) != (self.closed_at is None):
            raise ValueError("a collecting case is closed at an instant once, and only once")
        return self

    @property
    def missing(self) -> tuple[str, ...]:
        """The parties whose positions have not arrived, in the order they were named."""
        done = set(self.submitted)
        return tuple(p for p in self.parties if p not in done)

    def to_json_dict(self) -> dict[str, Any]:
        """The case as the CLI prints it and the service answers: its fields and ``missing``."""
        return {**self.model_dump(mode="json"), "missing": list(self.missing)}

    def is_due(self, now: datetime) -> bool:
        """Whether its collection window has closed at ``now``."""
        return now >= self.deadline_at
