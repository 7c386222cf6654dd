"""A semantic text comparator backed by the ``LanguageModel`` port (for text outputs).

Used by detection when ``settle.semantic`` is configured: two free-text answers are the same
answer when the model says they state the same conclusion. Every call is capped, schema-checked
and counted like any other model call; a failing model makes the texts count as different,
so a model outage can only cause an escalation, never a silent agreement.
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
    'else {"equivalent": false}. Judge meaning, not style.'
)


class ModelSemanticComparator:
    """``SemanticComparator`` that asks a model whether two texts say the same thing."""

    def __init__(self, model: LanguageModel, *, max_tokens: int = 16) -> None:
        self.model = model
        self.max_tokens = max_tokens
        self._memo: dict[tuple[str, str], bool] = {}

    def equivalent(self, a: str, b: str) -> bool:
        key = (a, b) if a <= b else (b, a)
        if key in self._memo:
            return self._memo[key]
        request = ModelRequest(
            messages=(
                Message(role="system", content=_SYSTEM),
                Message(role="user", content=f"Answer A:\n{key[0]}\n\nAnswer B:\n{key[1]}"),
            ),
            max_tokens=self.max_tokens,
            json_schema=_SCHEMA,
            purpose="semantic_compare",
        )
        try:
            response = complete_sync(self.model, request)
        except ModelError as exc:
            log.warning("semantic_compare.failed", code=exc.code, error=exc.message)
            return False
        same = bool(response.parsed and response.parsed.get("equivalent") is True)
        self._memo[key] = same
        return same
