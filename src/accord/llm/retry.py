"""Retrying transient failures with exponential backoff; the sleep function is injected."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field

from accord.llm.errors import ModelError, ModelHTTPError, ModelTimeout, ModelUnreachable

Sleep = Callable[[float], Awaitable[None]]
"""How to wait, e.g. ``asyncio.sleep``; tests pass a recorder and never really sleep."""

T = TypeVar("T")

RETRYABLE_STATUSES = frozenset({429, 500, 502, 503, 504})


class RetryPolicy(BaseModel):
    """How often and how patiently to retry: ``attempts`` counts the first call too.

    Delays double from ``base_delay`` up to ``max_delay``; a server's ``Retry-After``
    (in seconds) replaces the computed delay but is also capped at ``max_delay``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    attempts: int = Field(default=3, ge=1)
    base_delay: float = Field(default=0.5, ge=0.0)
    max_delay: float = Field(default=8.0, ge=0.0)
    retry_statuses: frozenset[int] = RETRYABLE_STATUSES
    retry_timeouts: bool = True
    retry_unreachable: bool = True

    def should_retry(self, error: ModelError) -> bool:
        """Whether ``error`` is worth another attempt under this policy."""
        if isinstance(error, ModelHTTPError):
            return error.context.get("status") in self.retry_statuses
        if isinstance(error, ModelTimeout):
            return self.retry_timeouts
        if isinstance(error, ModelUnreachable):
            return self.retry_unreachable
        return False

    def delay(self, failures: int, retry_after: float | None = None) -> float:
        """Seconds to wait after the ``failures``-th failed attempt (1-based)."""
        wanted = retry_after if retry_after is not None else self.base_delay * 2 ** (failures - 1)
        return min(wanted, self.max_delay)

    async def run(self, operation: Callable[[], Awaitable[T]], sleep: Sleep) -> T:
        """Await ``operation`` until it succeeds, fails for good, or attempts run out."""
        failures = 0
        while True:
            try:
                return await operation()
            except ModelError as error:
                failures += 1
                if failures >= self.attempts or not self.should_retry(error):
                    raise
                await sleep(self.delay(failures, error.context.get("retry_after")))
