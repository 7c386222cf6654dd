"""A semantic text comparator backed by the ``LanguageModel`` port (for text outputs).

Used by detection when ``settle.semantic`` is configured — the last layer, asked only about
free-text answers whose facts cannot tell them apart: two answers are the same answer when the
model says they state the same conclusion to the question. Every call is capped,
schema-checked and counted like any other model call; a failing model answers "cannot tell"
(None), so a model outage can only leave answers not comparable (escalated), never a silent
agreement.
"""

from __future__ import annotations

from accord.llm import LanguageModel, Message, ModelError, ModelRequest, complete_sync
from accord.log import get_logger

log = get_logger("accord.semantic")

_SCHEMA = {
    "type": "object",
    "properties": {"equivalent": {"type": "boolean"}},
    "required": ["equivalent"],
    "additionalProperties": False,
}
_SYSTEM = (
    "You compare two answers to the same question. Reply with JSON "
    '{"equivalent": true} when they state the same conclusion (wording may differ), '
    'else {"equivalent": false}. Judge meaning, not style: a "No." can agree with '
    '"LGTM, merge it." when the question asks whether anything blocks.'
)


class ModelSemanticComparator:
    """``SemanticComparator`` that asks a model whether two texts say the same thing."""

    name = "model"

    def __init__(self, model: LanguageModel, *, max_tokens: int = 16) -> None:
        self.model = model
        self.max_tokens = max_tokens
        self._memo: dict[tuple[str, str, str], bool] = {}

    def equivalent(self, a: str, b: str, *, question: str | None = None) -> bool | None:
        """The model's judgement; None when the model failed (the answers stay undecided)."""
        first, second = (a, b) if a <= b else (b, a)
        key = (first, second, question or "")
        if key in self._memo:
            return self._memo[key]
        asked = f"Question:\n{question}\n\n" if question else ""
        request = ModelRequest(
            messages=(
                Message(role="system", content=_SYSTEM),
                Message(
                    role="user", content=f"{asked}Answer A:\n{first}\n\nAnswer B:\n{second}"
                ),
            ),
            max_tokens=self.max_tokens,
            json_schema=_SCHEMA,
            purpose="semantic_compare",
        )
        try:
            response = complete_sync(self.model, request)
        except ModelError as exc:
            log.warning("semantic_compare.failed", code=exc.code, error=exc.message)
            return None
        same = bool(response.parsed and response.parsed.get("equivalent") is True)
        self._memo[key] = same
        return same
