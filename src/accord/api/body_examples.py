"""Example request bodies for the OpenAPI document: what a client or tool generator shows
for the bodies agents and reviewers send most. ``data: Annotated[Model, SETTLE]`` in a route."""

from __future__ import annotations

from typing import Any

from litestar.openapi.spec import Example
from litestar.params import BodyKwarg


def example(summary: str, value: dict[str, Any]) -> BodyKwarg:
    """A JSON body's OpenAPI metadata with one example."""
    return BodyKwarg(examples=[Example(summary=summary, value=value)])


SETTLE = example(
    "Two agents disagree on a refund",
    {
        "subject": "Refund 1,800 to customer 5521",
        "task_type": "refunds",
        "positions": [
            {"agent": "agent:billing", "output": "approve", "confidence": 0.7,
             "reasoning": "loyal customer, first claim"},
            {"agent": "agent:audit", "output": "reject", "confidence": 0.65,
             "reasoning": "two chargebacks this year"},
        ],
    },
)  # fmt: skip
DECIDE = example(
    "Choose an option, with your reason",
    {"choice": "reject", "reasoning": "the chargebacks outweigh the loyalty"},
)
OPEN_DISPUTE = example(
    "File a resource conflict",
    {
        "dispute_type": "resource_conflict",
        "severity": "medium",
        "respondents": ["agent:audit"],
        "subject": "both booked the GPU for tonight",
    },
)
PROPOSE = example("Propose terms", {"terms": "billing runs first, audit from 02:00"})
OPEN_COLLECTING = example(
    "Ask two agents for their positions",
    {
        "subject": "Total of invoice 7731",
        "parties": ["agent:billing", "agent:audit"],
        "within_seconds": 600,
        "task_type": "invoices",
    },
)
ISSUE_KEY = example(
    "An API key for one agent",
    {"role": "agent", "agent_id": "agent:billing", "label": "billing bot"},
)
ENROL_KEY = example(
    "An agent's own Ed25519 public key (raw, base64)",
    {"agent_id": "agent:billing", "public_key": "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="},
)
