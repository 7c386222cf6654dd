from __future__ import annotations

import pytest

from accord.llm import ModelBadOutput, ModelOverCap, TokenUsage
from accord.llm.answers import checked_response, parse_json_object

from ._requests import ANSWER_SCHEMA, ask

USAGE = TokenUsage(input_tokens=10, output_tokens=8)


def test_plain_json_is_parsed() -> None:
    assert parse_json_object(' {"total": 1} \n') == {"total": 1}


@pytest.mark.parametrize(
    "text",
    [
        '```json\n{"total": 1}\n```',
        '```\n{"total": 1}\n```',
        'Here is my answer:\n```JSON\n{"total": 1}\n```\nThanks.',
    ],
)
def test_a_single_fenced_block_is_tolerated(text: str) -> None:
    assert parse_json_object(text) == {"total": 1}


def test_two_fenced_blocks_are_not_guessed_between() -> None:
    text = '```json\n{"total": 1}\n```\n```json\n{"total": 2}\n```'
    with pytest.raises(ModelBadOutput) as caught:
        parse_json_object(text)
    assert caught.value.code == "llm.bad_json"


@pytest.mark.parametrize("text", ["not json", '{"total": 1', '{"total": NaN}', "{'a': 1}", ""])
def test_text_that_is_not_json_is_bad_json(text: str) -> None:
    with pytest.raises(ModelBadOutput) as caught:
        parse_json_object(text)
    assert caught.value.code == "llm.bad_json"


@pytest.mark.parametrize("text", ["[1, 2]", '"total"', "12"])
def test_json_that_is_not_an_object_is_bad_json(text: str) -> None:
    with pytest.raises(ModelBadOutput, match="must be a JSON object") as caught:
        parse_json_object(text)
    assert caught.value.code == "llm.bad_json"


def test_an_answer_within_its_cap_and_without_a_schema_is_returned_as_text() -> None:
    response = checked_response(ask(max_tokens=8), text="hello", usage=USAGE, model="m")
    assert response.text == "hello"
    assert response.parsed is None
    assert response.usage == USAGE


def test_an_answer_over_its_cap_raises_over_cap_carrying_what_it_spent() -> None:
    with pytest.raises(ModelOverCap) as caught:
        checked_response(ask(max_tokens=7), text="hello", usage=USAGE, model="m")
    error = caught.value
    assert error.code == "llm.over_cap"
    assert error.spent == USAGE
    assert error.context["max_tokens"] == 7
    assert error.context["output_tokens"] == 8


def test_a_schema_answer_is_parsed_and_validated() -> None:
    request = ask(schema=ANSWER_SCHEMA)
    response = checked_response(
        request, text='{"total": 1200, "currency": "EUR"}', usage=USAGE, model="m"
    )
    assert response.parsed == {"total": 1200, "currency": "EUR"}


def test_a_schema_violation_names_the_path_and_keeps_the_usage() -> None:
    request = ask(schema=ANSWER_SCHEMA)
    with pytest.raises(ModelBadOutput, match=r"\$\.currency") as caught:
        checked_response(request, text='{"total": 1, "currency": "GBP"}', usage=USAGE, model="m")
    assert caught.value.code == "llm.schema_violation"
    assert caught.value.context["path"] == "$.currency"
    assert caught.value.context["value"] == "GBP"
    assert caught.value.spent == USAGE


def test_a_violating_container_value_is_left_out_of_the_error_context() -> None:
    request = ask(schema=ANSWER_SCHEMA)
    with pytest.raises(ModelBadOutput) as caught:
        checked_response(request, text='{"total": [1], "currency": "EUR"}', usage=USAGE, model="m")
    assert caught.value.context["path"] == "$.total"
    assert caught.value.context["value"] is None


def test_a_long_violating_string_is_cut_in_the_error_context() -> None:
    request = ask(schema=ANSWER_SCHEMA)
    text = '{"total": 1, "currency": "' + "X" * 500 + '"}'
    with pytest.raises(ModelBadOutput) as caught:
        checked_response(request, text=text, usage=USAGE, model="m")
    assert caught.value.context["value"] == "X" * 200


def test_bad_json_under_a_schema_keeps_the_usage_and_an_excerpt() -> None:
    with pytest.raises(ModelBadOutput) as caught:
        checked_response(ask(schema=ANSWER_SCHEMA), text="sorry, no", usage=USAGE, model="m")
    assert caught.value.code == "llm.bad_json"
    assert caught.value.spent == USAGE
    assert caught.value.context["excerpt"] == "sorry, no"
