"""Deterministic token estimates for answers whose provider reports no usage."""

from __future__ import annotations

import math

from accord.llm.messages import ModelRequest, TokenUsage

DEFAULT_TOKENS_PER_CHAR = 0.25


def estimate_tokens(text: str, tokens_per_char: float = DEFAULT_TOKENS_PER_CHAR) -> int:
    """About four characters a token (``len(text) // 4``), never less than one."""
    return max(1, math.floor(len(text) * tokens_per_char))


def usage_or_estimate(
    request: ModelRequest, text: str, input_tokens: int | None, output_tokens: int | None
) -> tuple[TokenUsage, bool]:
    """The reported usage, with any missing count estimated; the flag says whether one was."""
    estimated = input_tokens is None or output_tokens is None
    if input_tokens is None:
        input_tokens = estimate_tokens("\n".join(m.content for m in request.messages))
    if output_tokens is None:
        output_tokens = estimate_tokens(text)
    return TokenUsage(input_tokens=input_tokens, output_tokens=output_tokens), estimated
