"""The llm room's errors: one ``ModelError`` family with stable codes.

Codes: ``llm.error``, ``llm.timeout``, ``llm.unreachable``, ``llm.http_error``,
``llm.rate_limited``, ``llm.bad_output`` (refined as ``llm.bad_json``,
``llm.schema_violation``, ``llm.bad_response``, ``llm.judge_non_party``),
``llm.over_cap`` (and ``llm.budget_exhausted``), ``llm.config``, ``llm.script_exhausted``.
"""

from __future__ import annotations

from typing import Any

from accord.errors import AccordError
from accord.llm.messages import TokenUsage


class ModelError(AccordError):
    """A language-model call failed; ``spent`` holds the tokens it still consumed, if known."""

    code = "llm.error"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        spent: TokenUsage | None = None,
        **context: Any,
    ) -> None:
        if spent is not None:
            context = {**context, **spent.model_dump()}
        super().__init__(message, code=code, **context)
        self.spent = spent


class ModelTimeout(ModelError):
    """The provider did not answer within the timeout."""

    code = "llm.timeout"


class ModelUnreachable(ModelError):
    """The provider could not be reached or the connection broke."""

    code = "llm.unreachable"


class ModelHTTPError(ModelError):
    """The provider answered with an error status; ``context`` has ``status`` and ``body``."""

    code = "llm.http_error"


class ModelRateLimited(ModelHTTPError):
    """The provider answered 429; ``context['retry_after']`` is its hint in seconds, if any."""

    code = "llm.rate_limited"


class ModelBadOutput(ModelError):
    """The answer is unusable: not JSON, off-schema, a malformed envelope or a non-party winner."""

    code = "llm.bad_output"


class ModelOverCap(ModelError):
    """The answer used more tokens than allowed, or the token budget cannot cover a request."""

    code = "llm.over_cap"


class ModelConfigError(ModelError):
    """A model is configured wrongly: unknown provider, missing key variable, bad URL."""

    code = "llm.config"


class ModelScriptExhausted(ModelError):
    """A ``ScriptedModel`` was asked for more answers than it was given."""

    code = "llm.script_exhausted"
