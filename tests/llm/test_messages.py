from __future__ import annotations

from typing import Any

import pydantic
import pytest

from accord.llm import Message, ModelRequest, ModelResponse, TokenUsage

from ._requests import ANSWER_SCHEMA, ask


def test_a_request_needs_at_least_one_message() -> None:
    with pytest.raises(pydantic.ValidationError, match="messages"):
        ModelRequest(messages=(), max_tokens=10)


@pytest.mark.parametrize("cap", [0, -5])
def test_a_request_cap_must_be_at_least_one_token(cap: int) -> None:
    with pytest.raises(pydantic.ValidationError, match="max_tokens"):
        ask(max_tokens=cap)


def test_a_request_cap_must_be_a_true_integer() -> None:
    with pytest.raises(pydantic.ValidationError, match="max_tokens"):
        ModelRequest(messages=(Message(role="user", content="hi"),), max_tokens=10.5)  # type: ignore[arg-type]


def test_a_request_defaults_to_temperature_zero_without_schema_purpose_or_case() -> None:
    request = ask()
    assert request.temperature == 0.0
    assert request.json_schema is None
    assert request.purpose == ""
    assert request.case_id is None


def test_messages_and_requests_are_frozen() -> None:
    request = ask()
    with pytest.raises(pydantic.ValidationError):
        request.max_tokens = 999  # type: ignore[misc]
    with pytest.raises(pydantic.ValidationError):
        request.messages[0].content = "changed"  # type: ignore[misc]


def test_an_unknown_role_is_refused() -> None:
    with pytest.raises(pydantic.ValidationError, match="role"):
        Message(role="tool", content="x")


def test_a_schema_must_describe_an_object() -> None:
    with pytest.raises(pydantic.ValidationError, match="must describe an object"):
        ask(schema={"type": "string"})


@pytest.mark.parametrize(
    ("schema", "problem"),
    [
        ({"type": "object", "pattern": "x"}, "unsupported JSON Schema keyword"),
        ({"type": "object", "properties": {"a": {"type": "date"}}}, "unsupported type"),
        ({"type": "object", "additionalProperties": True}, "additionalProperties may only"),
        ({"type": "object", "additionalProperties": {"type": "string"}}, "may only be false"),
        ({"type": "object", "properties": {"a": {"enum": []}}}, "enum must be a non-empty"),
        ({"type": "object", "required": "a"}, "required must be a list"),
        ({"type": "object", "properties": {"a": {"minimum": "0"}}}, "minimum must be a number"),
        ({"type": "object", "properties": ["a"]}, "properties must be a mapping"),
        ({"type": "object", "properties": {"a": "string"}}, r"\$\.a: a schema must be a mapping"),
        ({"type": "object", "properties": {"a": {"items": {"format": "x"}}}}, r"\$\.a\[\]"),
    ],
)
def test_a_schema_outside_the_supported_subset_is_refused_naming_the_place(
    schema: dict[str, Any], problem: str
) -> None:
    with pytest.raises(pydantic.ValidationError, match=problem):
        ask(schema=schema)


def test_the_system_prompt_joins_every_system_message() -> None:
    request = ModelRequest(
        messages=(
            Message(role="system", content="Be neutral."),
            Message(role="user", content="Decide."),
            Message(role="system", content="Answer in JSON."),
        ),
        max_tokens=5,
    )
    assert request.system_prompt == "Be neutral.\n\nAnswer in JSON."


def test_token_usage_totals_and_adds_up() -> None:
    first = TokenUsage(input_tokens=10, output_tokens=3)
    second = TokenUsage(input_tokens=1, output_tokens=2)
    assert first.total == 13
    assert first + second == TokenUsage(input_tokens=11, output_tokens=5)


def test_token_counts_cannot_be_negative() -> None:
    with pytest.raises(pydantic.ValidationError):
        TokenUsage(input_tokens=-1, output_tokens=0)


def test_a_response_says_by_default_that_its_usage_was_reported() -> None:
    response = ModelResponse(text="hi", usage=TokenUsage(), model="m")
    assert response.usage_estimated is False
    assert response.parsed is None
    assert response.finish_reason is None


def test_the_answer_schema_used_in_these_tests_is_accepted() -> None:
    assert ask(schema=ANSWER_SCHEMA).json_schema == ANSWER_SCHEMA
