"""One agent's position as a person sees it in the approval queue."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from accord.printable import PrintableId


class PositionSummary(BaseModel):
    """The agent, its answer, how sure it was and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent: PrintableId
    answer: Any = None
    confidence: Annotated[float, Field(ge=0.0, le=1.0)] | None = None
    reasoning: str = ""
