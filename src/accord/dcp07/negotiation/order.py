"""What a tier-1 negotiation strategy (R8) answers: the parties in the order they go, and
whether that order was decided or only a tie the strategy could not break."""

from __future__ import annotations

from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator


class NegotiatedOrder(BaseModel):
    """``order[0]`` goes first. ``decided`` is False when the strategy's facts tie at the top
    (the caller tries another strategy or escalates; the order is then only a tie-broken
    listing, never a decision)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    strategy: str
    order: tuple[str, ...] = Field(min_length=1)
    decided: bool
    rationale: str

    @model_validator(mode="after")
    def _distinct(self) -> Self:
        if len(set(self.order)) != len(self.order):
            raise ValueError("each party appears once in an order")
        return self

    @property
    def first(self) -> str | None:
        """Who goes first, when decided."""
        return self.order[0] if self.decided else None
