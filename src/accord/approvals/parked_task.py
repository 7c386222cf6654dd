"""A task an agent parked while people decide, and what it gets back when it resumes."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, model_validator

from accord.approvals.item import ApprovalDecision
from accord.approvals.verdict import DecisionVerdict, verdict_of_decision
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
    """Everything an agent needs to pick its task up again: its context and the decision.

    Branch on ``verdict`` (``chosen``, ``written``, ``denied``, ``expired``), not on
    ``decision.outcome``: that says ``approved`` for any chosen option, "reject" included."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task_id: str
    agent_id: str
    context: dict[str, Any]
    verdict: DecisionVerdict = Field(
        description="What was decided: chosen (see decision.choice), written (see "
        "decision.written_outcome), denied or expired; branch on this, not decision.outcome."
    )
    decision: ApprovalDecision

    @model_validator(mode="before")
    @classmethod
    def _verdict_from_decision(cls, data: Any) -> Any:
        if isinstance(data, dict) and "verdict" not in data and "decision" in data:
            decision = ApprovalDecision.model_validate(data["decision"])
            return {**data, "verdict": verdict_of_decision(decision)}
        return data

    @model_validator(mode="after")
    def _verdict_matches_decision(self) -> Resumption:
        if self.verdict != verdict_of_decision(self.decision):
            raise ValueError("the verdict must say what the decision decided")
        return self
