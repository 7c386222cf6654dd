"""One settled case as the learning room sees it: a row of the resolution log (playbook §8)."""

from __future__ import annotations

from typing import Annotated

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, model_validator

Name = Annotated[str, Field(min_length=1)]


class CaseOutcome(BaseModel):
    """How one case ended: who won, who lost, whether it escalated, and its root cause.

    ``winner`` is None when nobody won (escalated, merged, or a tie); ``winners`` is the
    whole winning group (every agent who gave the winning answer; empty means ``winner``
    alone); ``cause`` is None when no root cause was recorded. ``decided_at`` must carry a
    timezone.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    case_id: Name
    task_type: Name
    kind: Name
    severity: Name
    strategy: Name
    winner: Name | None = None
    winners: tuple[Name, ...] = ()
    losers: tuple[Name, ...] = ()
    escalated: bool = False
    cause: str | None = None
    decided_at: AwareDatetime

    @model_validator(mode="after")
    def _parties_are_distinct(self) -> CaseOutcome:
        if len(set(self.losers)) != len(self.losers):
            raise ValueError("losers holds the same agent twice")
        if self.winner is not None and self.winner in self.losers:
            raise ValueError("the winner cannot also be a loser")
        if set(self.winners) & set(self.losers) or len(set(self.winners)) != len(self.winners):
            raise ValueError("winners holds an agent twice, or one of the losers")
        if self.winners and self.winner not in self.winners:
            raise ValueError("winners must include the winner")
        return self

    @property
    def winning_agents(self) -> tuple[str, ...]:
        """Every agent who won this case (the winning group, or the winner alone)."""
        if self.winners:
            return self.winners
        return (self.winner,) if self.winner is not None else ()
