"""Small request builders shared by the llm tests."""

from __future__ import annotations

from typing import Any

from accord.llm import Message, ModelRequest

ANSWER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "total": {"type": "number", "minimum": 0},
        "currency": {"type": "string", "enum": ["EUR", "USD"]},
    },
    "required": ["total", "currency"],
    "additionalProperties": False,
}


def ask(
    text: str = "What is the total of invoice 4411?",
    *,
    max_tokens: int = 50,
    schema: dict[str, Any] | None = None,
    system: str | None = None,
    case_id: str | None = None,
    purpose: str = "",
) -> ModelRequest:
    messages = [Message(role="system", content=system)] if system else []
    messages.append(Message(role="user", content=text))
    return ModelRequest(
        messages=tuple(messages),
        max_tokens=max_tokens,
        json_schema=schema,
        case_id=case_id,
        purpose=purpose,
    )
