"""Counting calls and tokens per case and in total, by wrapping a model."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from accord.llm.errors import ModelError
from accord.llm.messages import ModelRequest, ModelResponse, TokenUsage
from accord.llm.protocol import LanguageModel


class CaseUsage(BaseModel):
    """Calls (failed ones included) and tokens spent for one case, or in total."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    calls: int = Field(default=0, ge=0)
    failed_calls: int = Field(default=0, ge=0)
    input_tokens: int = Field(default=0, ge=0)
    output_tokens: int = Field(default=0, ge=0)

    @property
    def total_tokens(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens

    def plus(self, usage: TokenUsage | None, *, failed: bool) -> CaseUsage:
        """This tally with one more call."""
        spent = usage or TokenUsage()
        return CaseUsage(
            calls=self.calls + 1,
            failed_calls=self.failed_calls + int(failed),
            input_tokens=self.input_tokens + spent.input_tokens,
            output_tokens=self.output_tokens + spent.output_tokens,
        )


class UsageMeter:
    """Tallies per ``case_id`` (``None`` for calls outside any case) and overall."""

    def __init__(self) -> None:
        self._by_case: dict[str | None, CaseUsage] = {}
        self._total = CaseUsage()

    def record(self, case_id: str | None, usage: TokenUsage | None, *, failed: bool) -> None:
        """Count one call and the tokens it spent (known even for some failures)."""
        self._by_case[case_id] = self.for_case(case_id).plus(usage, failed=failed)
        self._total = self._total.plus(usage, failed=failed)

    def for_case(self, case_id: str | None) -> CaseUsage:
        """The tally for one case; zero for a case never seen."""
        return self._by_case.get(case_id, CaseUsage())

    def total(self) -> CaseUsage:
        """The tally over every call."""
        return self._total

    def cases(self) -> tuple[str | None, ...]:
        """The case ids seen, in first-seen order."""
        return tuple(self._by_case)


class MeteredModel:
    """A ``LanguageModel`` that reports every call to a ``UsageMeter``."""

    def __init__(self, inner: LanguageModel, meter: UsageMeter) -> None:
        self.name = inner.name
        self.inner = inner
        self.meter = meter

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Delegate, then count the call whether it succeeded or failed."""
        try:
            response = await self.inner.complete(request)
        except Exception as error:
            spent = error.spent if isinstance(error, ModelError) else None
            self.meter.record(request.case_id, spent, failed=True)
            raise
        self.meter.record(request.case_id, response.usage, failed=False)
        return response
