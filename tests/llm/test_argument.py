from __future__ import annotations

from accord.llm import build_argument_request


def test_an_argument_request_is_capped_and_tells_the_party_its_cap() -> None:
    request = build_argument_request(
        "agent:billing",
        "The total is 1200 EUR.",
        "The total is 1450 EUR.",
        max_tokens=256,
        case_id="case-3",
    )
    assert request.max_tokens == 256
    assert request.purpose == "argument"
    assert request.case_id == "case-3"
    assert request.json_schema is None
    system = request.system_prompt
    assert system.startswith("You are agent:billing, one party in a structured debate")
    assert "at most 256 tokens" in system
    assert "verifiable sources" in system
    assert "confidence" in system


def test_an_argument_request_shows_both_positions_and_the_question_when_given() -> None:
    request = build_argument_request(
        "agent:audit", "1450 EUR.", "1200 EUR.", max_tokens=64, question="Total of 4411?"
    )
    assert request.messages[-1].content == (
        "Question:\nTotal of 4411?\n\nYour position:\n1450 EUR.\n\nOpposing position:\n1200 EUR."
    )


def test_without_a_question_the_positions_come_first() -> None:
    request = build_argument_request("A", "mine", "theirs", max_tokens=8)
    assert request.messages[-1].content.startswith("Your position:\nmine")
    assert request.case_id is None
