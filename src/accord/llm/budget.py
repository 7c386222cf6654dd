"""A token budget: requests are refused when their cap could overrun it; usage is deducted."""

from __future__ import annotations

from accord.llm.errors import ModelError, ModelOverCap
from accord.llm.messages import ModelRequest, ModelResponse, TokenUsage
from accord.llm.protocol import LanguageModel


class TokenBudget:
    """At most ``max_total_tokens`` (input + output) across every call charged to it.

    A call first reserves its ``max_tokens``; when it ends the reservation is replaced
    by what it actually spent, so concurrent calls cannot jointly overrun the output cap.
    """

    def __init__(self, max_total_tokens: int) -> None:
        if max_total_tokens < 0:
            raise ValueError("max_total_tokens cannot be negative")
        self.max_total_tokens = max_total_tokens
        self._spent = 0
        self._reserved = 0

    @property
    def spent(self) -> int:
        """Tokens actually used so far."""
        return self._spent

    @property
    def remaining(self) -> int:
        """Tokens still available to new requests (never negative)."""
        return max(0, self.max_total_tokens - self._spent - self._reserved)

    def reserve(self, request: ModelRequest) -> None:
        """Hold ``request.max_tokens`` or raise ``ModelOverCap`` (``llm.budget_exhausted``)."""
        if request.max_tokens > self.remaining:
            raise ModelOverCap(
                f"request cap of {request.max_tokens} tokens exceeds the remaining budget "
                f"of {self.remaining}",
                code="llm.budget_exhausted",
                max_tokens=request.max_tokens,
                remaining=self.remaining,
                purpose=request.purpose,
                case_id=request.case_id,
            )
        self._reserved += request.max_tokens

    def settle(self, request: ModelRequest, usage: TokenUsage | None) -> None:
        """Release the reservation and deduct what the call spent."""
        self._reserved -= request.max_tokens
        self._spent += usage.total if usage is not None else 0


class BudgetedModel:
    """A ``LanguageModel`` that charges every call to a ``TokenBudget``."""

    def __init__(self, inner: LanguageModel, budget: TokenBudget) -> None:
        self.name = inner.name
        self.inner = inner
        self.budget = budget

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Reserve, delegate, then settle with the actual usage (failed calls included)."""
        self.budget.reserve(request)
        try:
            response = await self.inner.complete(request)
        except BaseException as error:
            self.budget.settle(request, error.spent if isinstance(error, ModelError) else None)
            raise
        self.budget.settle(request, response.usage)
        return response
