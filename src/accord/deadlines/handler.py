"""What a sweeper does with a due deadline: the handler registered for its kind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Annotated, Any, Protocol, runtime_checkable

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field
from sqlalchemy import Connection

from accord.deadlines.deadline import Deadline


class Handled(BaseModel):
    """What a handler did: ``outcome`` names it (``escalated``, ``expired``, ``stale`` …);
    ``next_due`` re-arms the subject's deadline for ``next_tier`` (the clock restarts), in
    the same transaction that fires this one. ``value`` hands the caller of the claim what
    the handler produced (e.g. the approval item as changed), not stored."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    outcome: Annotated[str, Field(min_length=1, max_length=40)]
    next_due: AwareDatetime | None = None
    next_tier: str | None = Field(default=None, max_length=40)
    value: Any = Field(default=None, exclude=True, repr=False)


class DeadlineHandler(Protocol):
    """Acts on one due deadline inside the sweeper's write transaction ``conn``.

    Whatever it writes commits with the row marked fired, or not at all: raising rolls
    back its work and leaves the row armed for the next sweep (attempts counted). It may be
    run again after its work was rolled back (another handler in the batch failed), so it
    keeps no state outside the transaction: what the caller needs goes in ``Handled.value``.
    It never cancels or re-arms its own deadline (kind and subject): it returns
    ``next_due``."""

    def __call__(self, conn: Connection, deadline: Deadline, now: datetime) -> Handled: ...


@runtime_checkable
class BatchDeadlineHandler(DeadlineHandler, Protocol):
    """A handler that also acts on several due deadlines of its kind at once (one read and
    one write of its subjects per batch instead of per row).

    ``handle_many`` returns one :class:`Handled` per deadline, in order, and does what calling
    the handler on each in turn would (the deadlines' subjects are distinct: one armed row
    per kind and subject); if it raises, the sweeper rolls its work back and calls the
    handler row by row, so only the failing row's work is lost."""

    def handle_many(
        self, conn: Connection, due: Sequence[Deadline], now: datetime
    ) -> list[Handled]: ...


Handlers = Mapping[str, DeadlineHandler]
"""The registry: deadline kind → its handler. Rows of kinds not in it are left armed."""
