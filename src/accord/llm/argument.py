"""A party's capped argument in a one-round structured debate (seed 000, strategy 2)."""

from __future__ import annotations

from accord.llm.messages import Message, ModelRequest

ARGUMENT_SYSTEM_PROMPT = """\
You are {party}, one party in a structured debate with a single round. A neutral judge will
read your argument next to the opposing one and decide.
Argue for your position: be factually accurate and cite verifiable sources where you can,
reason coherently, answer the opposing position directly, and end with your confidence
in your position as a number from 0 to 1.
You have at most {max_tokens} tokens. Be concise: an argument cut off at the limit is rejected."""


def build_argument_request(
    party_label: str,
    position_summary: str,
    opponent_summary: str,
    *,
    max_tokens: int,
    case_id: str | None = None,
    question: str | None = None,
) -> ModelRequest:
    """Ask ``party_label`` for its argument, capped at ``max_tokens`` (purpose ``argument``)."""
    asked = f"Question:\n{question}\n\n" if question else ""
    return ModelRequest(
        messages=(
            Message(
                role="system",
                content=ARGUMENT_SYSTEM_PROMPT.format(party=party_label, max_tokens=max_tokens),
            ),
            Message(
                role="user",
                content=f"{asked}Your position:\n{position_summary}\n\n"
                f"Opposing position:\n{opponent_summary}",
            ),
        ),
        max_tokens=max_tokens,
        purpose="argument",
        case_id=case_id,
    )
