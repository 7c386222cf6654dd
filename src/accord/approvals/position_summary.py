"""One agent's position as a person sees it in the approval queue."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field


class PositionSummary(BaseModel):
    """The agent, its answer, how sure it was and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent: Annotated[str, Field(min_length=1, max_length=256)]
    answer: Any = None
    confidence: Annotated[float, Field(ge=0.0, le=1.0)] | None = None
    reasoning: str = ""
