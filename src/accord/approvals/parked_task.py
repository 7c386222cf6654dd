"""A task an agent parked while people decide, and what it gets back when it resumes."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from accord.approvals.item import ApprovalDecision
from accord.printable import PrintableId

TASK_ID_PATTERN = r"^park:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"


class ParkedTask(BaseModel):
    """An agent's task waiting on an approval item, with the agent's serialized context."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task_id: Annotated[str, Field(pattern=TASK_ID_PATTERN)]
    item_id: str
    agent_id: PrintableId
    context: dict[str, Any]
    parked_at: AwareDatetime
    resumed_at: AwareDatetime | None = None


class Resumption(BaseModel):
    """Everything an agent needs to pick its task up again: its context and the decision."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task_id: str
    agent_id: str
    context: dict[str, Any]
    decision: ApprovalDecision
