"""Time as an injected dependency: no Accord code reads the wall clock directly."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    """Source of the current time (always timezone-aware UTC)."""

    def now(self) -> datetime: ...


class SystemClock:
    """The real clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class FrozenClock:
    """A clock that only moves when told to; for tests and reproducible demos."""

    def __init__(self, start: datetime | None = None) -> None:
        start = start or datetime(2026, 1, 1, tzinfo=UTC)
        if start.tzinfo is None:
            raise ValueError("FrozenClock needs a timezone-aware start time")
        self._now = start.astimezone(UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, delta: timedelta) -> None:
        """Move the clock forward (never backward)."""
        if delta < timedelta(0):
            raise ValueError("a clock never moves backward")
        self._now += delta


def isoformat(moment: datetime) -> str:
    """Render a UTC instant the way signed records carry it: ``2026-01-01T00:00:00.000000Z``."""
    if moment.tzinfo is not UTC:
        moment = moment.astimezone(UTC)
    # datetime.isoformat is C and several times faster than strftime; UTC ends in "+00:00"
    return moment.isoformat(timespec="microseconds")[:-6] + "Z"
