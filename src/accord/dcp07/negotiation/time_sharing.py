"""R8 time-sharing: the parties take the contested resource in turns (round-robin).

Parties are sorted by agent id, rotated by ``rotation`` (e.g. how many times this resource
was time-shared before, so nobody always goes first), and given consecutive slots of equal
length from ``starts_at``. Always decided: a rotation has no ties.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from pydantic import BaseModel, ConfigDict

from accord.dcp07.negotiation.order import NegotiatedOrder
from accord.dcp07.negotiation.refusals import NegotiationRefused

STRATEGY = "time_sharing"


class TimeSlot(BaseModel):
    """One party's turn with the resource: ``[starts_at, ends_at)``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_id: str
    starts_at: datetime
    ends_at: datetime


class TimeShare(BaseModel):
    """The turn order and the slots it gives."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    order: NegotiatedOrder
    slots: tuple[TimeSlot, ...]


def time_sharing(
    parties: Sequence[str],
    *,
    starts_at: datetime,
    slot: timedelta,
    rounds: int = 1,
    rotation: int = 0,
) -> TimeShare:
    """Round-robin slots for ``parties``: ``rounds`` passes of one ``slot`` each."""
    _check(parties, slot, rounds)
    ordered = sorted(parties)
    shift = rotation % len(ordered)
    turn = ordered[shift:] + ordered[:shift]
    slots = []
    at = starts_at
    for _ in range(rounds):
        for agent_id in turn:
            slots.append(TimeSlot(agent_id=agent_id, starts_at=at, ends_at=at + slot))
            at += slot
    order = NegotiatedOrder(
        strategy=STRATEGY,
        order=tuple(turn),
        decided=True,
        rationale=f"round-robin by agent id, rotated by {shift}, slots of {slot}",
    )
    return TimeShare(order=order, slots=tuple(slots))


def _check(parties: Sequence[str], slot: timedelta, rounds: int) -> None:
    if len(parties) < 2 or len(set(parties)) != len(parties):
        raise NegotiationRefused(
            "time-sharing needs at least two distinct parties",
            code="negotiation.bad_parties",
            requirement="R8",
            field="parties",
            rule="two or more distinct agent ids",
        )
    if slot <= timedelta(0) or rounds < 1:
        raise NegotiationRefused(
            "time-sharing needs a positive slot length and at least one round",
            code="negotiation.bad_slots",
            requirement="R8",
            field="slot" if slot <= timedelta(0) else "rounds",
            rule="slot > 0 and rounds >= 1",
        )
