"""The checks every provider applies to what comes back: the token cap, then the JSON schema."""

from __future__ import annotations

import json
import re
from typing import Any

from accord.llm.errors import ModelBadOutput, ModelOverCap
from accord.llm.json_schema import first_violation
from accord.llm.messages import ModelRequest, ModelResponse, TokenUsage

_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\r?\n(.*?)```", re.DOTALL)


def checked_response(
    request: ModelRequest,
    *,
    text: str,
    usage: TokenUsage,
    model: str,
    finish_reason: str | None = None,
    usage_estimated: bool = False,
) -> ModelResponse:
    """Build the response, or raise ``ModelOverCap`` / ``ModelBadOutput`` carrying the usage."""
    if usage.output_tokens > request.max_tokens:
        raise ModelOverCap(
            f"the answer used {usage.output_tokens} output tokens, over the cap of "
            f"{request.max_tokens}",
            spent=usage,
            max_tokens=request.max_tokens,
            model=model,
        )
    parsed: dict[str, Any] | None = None
    if request.json_schema is not None:
        try:
            parsed = parse_json_object(text)
            violation = first_violation(parsed, request.json_schema)
        except ModelBadOutput as error:
            raise ModelBadOutput(
                error.message, code=error.code, spent=usage, model=model, **error.context
            ) from None
        if violation is not None:
            raise ModelBadOutput(
                f"answer violates the schema at {violation.path}: {violation.problem}",
                code="llm.schema_violation",
                spent=usage,
                path=violation.path,
                value=_scalar(violation.value),
                model=model,
            )
    return ModelResponse(
        text=text,
        parsed=parsed,
        usage=usage,
        model=model,
        finish_reason=finish_reason,
        usage_estimated=usage_estimated,
    )


def parse_json_object(text: str) -> dict[str, Any]:
    """Parse an answer that must be one JSON object, tolerating a single fenced block.

    ``NaN`` and ``Infinity`` are refused: they are not JSON.
    """
    fenced = _FENCE.findall(text)
    body = fenced[0] if len(fenced) == 1 else text
    try:
        value = json.loads(body.strip(), parse_constant=_refuse_constant)
    except ValueError as error:
        raise ModelBadOutput(
            f"answer is not valid JSON: {error}", code="llm.bad_json", excerpt=text[:200]
        ) from None
    if not isinstance(value, dict):
        raise ModelBadOutput(
            f"answer must be a JSON object, got {type(value).__name__}",
            code="llm.bad_json",
            excerpt=text[:200],
        )
    return value


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _scalar(value: Any) -> str | int | float | bool | None:
    """A JSON scalar kept for the error's context (long strings cut); containers dropped."""
    if isinstance(value, str):
        return value[:200]
    return value if isinstance(value, int | float | bool) else None
