"""A model that answers from a script: for tests and offline demos, shipped in the library."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from accord.llm.answers import checked_response
from accord.llm.errors import ModelScriptExhausted
from accord.llm.messages import ModelRequest, ModelResponse, TokenUsage
from accord.llm.tokens import DEFAULT_TOKENS_PER_CHAR, estimate_tokens

Answer = str | dict[str, Any]
ScriptStep = Answer | Callable[[ModelRequest], Answer] | Exception
"""A scripted answer: text, a JSON object, a function of the request, or an error to raise."""


class ScriptedModel:
    """Answers in script order, counting tokens from text length; records every request.

    It obeys the provider contract: an answer over ``max_tokens`` raises ``ModelOverCap``,
    an answer off the requested schema raises ``ModelBadOutput``.
    """

    def __init__(
        self,
        responses: Sequence[ScriptStep],
        *,
        name: str = "scripted",
        tokens_per_char: float = DEFAULT_TOKENS_PER_CHAR,
    ) -> None:
        if not tokens_per_char > 0:
            raise ValueError("tokens_per_char must be positive")
        self.name = name
        self.requests: list[ModelRequest] = []
        self._script = list(responses)
        self._tokens_per_char = tokens_per_char

    @property
    def remaining(self) -> int:
        """How many scripted steps are left."""
        return len(self._script) - len(self.requests)

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """The next scripted answer, checked like a real provider's."""
        step_index = len(self.requests)
        self.requests.append(request)
        if step_index >= len(self._script):
            raise ModelScriptExhausted(
                f"{self.name} was given {len(self._script)} answer(s) and asked for another",
                script_length=len(self._script),
                purpose=request.purpose,
            )
        step = self._script[step_index]
        if isinstance(step, Exception):
            raise step
        answer = step(request) if callable(step) else step
        text = answer if isinstance(answer, str) else json.dumps(answer)
        prompt = "\n".join(m.content for m in request.messages)
        usage = TokenUsage(
            input_tokens=estimate_tokens(prompt, self._tokens_per_char),
            output_tokens=estimate_tokens(text, self._tokens_per_char),
        )
        return checked_response(request, text=text, usage=usage, model=self.name)
