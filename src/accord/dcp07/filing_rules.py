"""Flooding rules checked when a dispute is filed (R34).

* a per-agent rate limit: at most ``max_filings`` disputes per ``window`` (default 10 per 24 h);
* a filing score: one point for each earlier dispute resolved against its filer; each point
  raises the number of evidence items that filer must attach (up to a cap);
* a critical dispute carries supporting evidence at filing.

Pure: the caller passes the filer's earlier filings (from storage) and the time (its Clock).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Annotated, Any, Self

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, StrictInt, model_validator
from pydantic import ValidationError as PydanticValidationError

from accord.dcp07.dispute_record import DisputeRecord
from accord.dcp07.refusal import from_pydantic, refused
from accord.dcp07.vocabulary import Severity

DEFAULT_MAX_FILINGS = 10
DEFAULT_WINDOW = timedelta(hours=24)


class FilingPolicy(BaseModel):
    """How much filing an agent may do (R34's defaults; every figure configurable)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_filings: Annotated[StrictInt, Field(ge=1)] = DEFAULT_MAX_FILINGS
    window: timedelta = DEFAULT_WINDOW
    evidence_per_point: Annotated[StrictInt, Field(ge=0)] = 1
    max_evidence_bar: Annotated[StrictInt, Field(ge=0)] = 5
    critical_min_evidence: Annotated[StrictInt, Field(ge=1)] = 1

    @model_validator(mode="after")
    def _window_is_positive(self) -> Self:
        if self.window <= timedelta(0):
            raise refused(
                "R34", "window", "the rate-limit window is positive", code="dcp.policy_invalid"
            )
        return self


def filing_policy(settings: Mapping[str, Any]) -> FilingPolicy:
    """A :class:`FilingPolicy` from configuration values; refused naming the field (R34)."""
    try:
        return FilingPolicy.model_validate(settings)
    except PydanticValidationError as exc:
        raise from_pydantic(exc, requirement="R34", record="FilingPolicy") from None


class PastFiling(BaseModel):
    """One dispute the agent filed before, and whether it was resolved against it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    filed_at: AwareDatetime
    resolved_against_filer: bool = False


def filing_score(history: Sequence[PastFiling]) -> int:
    """One point per earlier dispute resolved against the filer."""
    return sum(1 for filing in history if filing.resolved_against_filer)


def evidence_bar(score: int, severity: Severity, policy: FilingPolicy) -> int:
    """How many evidence items a filer with ``score`` must attach to a dispute of ``severity``."""
    bar = min(score * policy.evidence_per_point, policy.max_evidence_bar)
    if severity is Severity.CRITICAL:
        bar = max(bar, policy.critical_min_evidence)
    return bar


def check_filing(
    record: DisputeRecord,
    history: Sequence[PastFiling],
    *,
    now: datetime,
    policy: FilingPolicy | None = None,
) -> None:
    """Return if the complainant may file ``record`` now; else refused naming R34 and the rule
    (rate limit first, then the critical-evidence rule, then the filing-score bar)."""
    policy = policy or FilingPolicy()
    filer = record.complainant.agent_id
    since = now - policy.window
    recent = sum(1 for filing in history if since < filing.filed_at <= now)
    if recent >= policy.max_filings:
        raise refused(
            "R34",
            "complainant",
            f"an agent files at most {policy.max_filings} disputes per {_span(policy.window)}",
            code="dcp.rate_limited",
            agent_id=filer,
            filings_in_window=recent,
        )
    given = len(record.evidence)
    if record.severity is Severity.CRITICAL and given < policy.critical_min_evidence:
        raise refused(
            "R34",
            "evidence",
            "a critical dispute carries supporting evidence at filing",
            code="dcp.critical_without_evidence",
            agent_id=filer,
        )
    score = filing_score(history)
    required = evidence_bar(score, record.severity, policy)
    if given < required:
        raise refused(
            "R34",
            "evidence",
            "each dispute resolved against a filer raises the evidence it must attach",
            code="dcp.filing_bar",
            agent_id=filer,
            score=score,
            required=required,
            given=given,
        )


def _span(window: timedelta) -> str:
    hours, rest = divmod(int(window.total_seconds()), 3600)
    return f"{hours} h" if rest == 0 else f"{int(window.total_seconds())} s"
