"""A2A interactions between agents: the fact R32's independence check needs ("no interaction
with a party in the last 30 days"). The model and the port live here; the database-backed log
is :mod:`accord.org.interaction_store`.

An interaction is symmetric: ``last_interaction(a, b) == last_interaction(b, a)``. It is kept
as an ordered pair (``agent_a < agent_b``), whichever of the two started it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Interaction(BaseModel):
    """Two distinct agents interacted at ``at`` (an aware instant); ``agent_a < agent_b``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_a: str = Field(min_length=1, max_length=256)
    agent_b: str = Field(min_length=1, max_length=256)
    at: datetime

    @model_validator(mode="after")
    def _ordered_pair(self) -> Self:
        if self.agent_a >= self.agent_b:
            raise ValueError("an interaction is between two distinct agents, agent_a < agent_b")
        if self.at.tzinfo is None:
            raise ValueError("an interaction time is timezone-aware")
        return self

    @classmethod
    def between(cls, a: str, b: str, at: datetime) -> Interaction:
        """The interaction of ``a`` and ``b`` at ``at``, in either order."""
        low, high = sorted((a, b))
        return cls(agent_a=low, agent_b=high, at=at)


class InteractionHistory(Protocol):
    """Answers when two agents last interacted (None when never)."""

    def last_interaction(self, a: str, b: str) -> datetime | None: ...
