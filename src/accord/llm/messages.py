"""What goes to a model and what comes back: messages, requests, usage, responses."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from accord.llm.json_schema import check_schema

Role = Literal["system", "user", "assistant"]


class Message(BaseModel):
    """One chat message."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: Role
    content: str


class ModelRequest(BaseModel):
    """One model call. ``max_tokens`` is a hard cap on the answer, passed to the provider.

    With ``json_schema`` set, the answer must be a JSON object valid against it (the
    subset of ``accord.llm.json_schema``); ``purpose`` and ``case_id`` are for metering.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    messages: tuple[Message, ...] = Field(min_length=1)
    max_tokens: int = Field(ge=1, strict=True)
    json_schema: dict[str, Any] | None = None
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    purpose: str = ""
    case_id: str | None = None

    @field_validator("json_schema")
    @classmethod
    def _schema_in_subset(cls, schema: dict[str, Any] | None) -> dict[str, Any] | None:
        if schema is not None:
            if schema.get("type") != "object":
                raise ValueError("a json_schema must describe an object (type: object)")
            check_schema(schema)
        return schema

    @property
    def system_prompt(self) -> str:
        """The system messages' contents, joined by blank lines."""
        return "\n\n".join(m.content for m in self.messages if m.role == "system")


class TokenUsage(BaseModel):
    """Tokens read and written by one call (or a sum of calls)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    input_tokens: int = Field(default=0, ge=0)
    output_tokens: int = Field(default=0, ge=0)

    @property
    def total(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
        )


class ModelResponse(BaseModel):
    """A checked answer: within its cap and, when a schema was asked for, ``parsed`` and valid.

    ``usage_estimated`` is true when the provider reported no usage and Accord estimated it.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    parsed: dict[str, Any] | None = None
    usage: TokenUsage
    model: str
    finish_reason: str | None = None
    usage_estimated: bool = False
