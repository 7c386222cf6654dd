"""Rung 1: source verification — a registered verifier looks the answer up in ground truth."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from pydantic import BaseModel, ConfigDict, JsonValue

from accord.conflicts import normalize_text
from accord.errors import ValidationError
from accord.ladder.outcome import RungAttempt
from accord.ladder.rung_context import RungContext


class SourceFinding(BaseModel):
    """What a source of truth says the answer is, and where that came from."""

    model_config = ConfigDict(frozen=True)

    answer: JsonValue
    source: str
    detail: str = ""


class SourceVerifier(Protocol):
    """Looks up ground truth for a subject (a database row, an API, a file)."""

    def lookup(
        self, subject: str, task_type: str, answers: Sequence[JsonValue]
    ) -> SourceFinding | None:
        """The verified answer, or None when the source has nothing to say."""
        ...


class VerifierRegistry:
    """Source verifiers by task type (``"*"`` serves every task type)."""

    def __init__(self) -> None:
        self._by_task: dict[str, SourceVerifier] = {}

    def register(self, task_type: str, verifier: SourceVerifier) -> None:
        if not task_type:
            raise ValidationError(
                "a verifier needs a task type ('*' for all)",
                code="settle.bad_verifier",
                field="task_type",
            )
        if not callable(getattr(verifier, "lookup", None)):
            raise ValidationError(
                "a verifier must have a lookup(subject, task_type, answers) method",
                code="settle.bad_verifier",
                field="verifier",
            )
        self._by_task[task_type] = verifier

    def for_task(self, task_type: str) -> SourceVerifier | None:
        verifier = self._by_task.get(task_type)
        return verifier if verifier is not None else self._by_task.get("*")


_ROUNDING = 1e-12
"""Relative gaps within this of the tolerance count as on it (as in detection)."""


def _matches(truth: JsonValue, answer: JsonValue, tolerance: float) -> bool:
    if isinstance(truth, bool) or isinstance(answer, bool):
        return truth is answer
    if isinstance(truth, (int, float)) and isinstance(answer, (int, float)):
        scale = max(abs(truth), abs(answer))
        return scale == 0 or abs(truth - answer) / scale <= tolerance + _ROUNDING
    if isinstance(truth, str) and isinstance(answer, str):
        return normalize_text(truth) == normalize_text(answer)
    return truth == answer


def _closest(truth: JsonValue, candidates: list[tuple[int, JsonValue]]) -> list[int]:
    """The candidates nearest a numeric ``truth`` (all of them when not comparable)."""
    if isinstance(truth, bool) or not isinstance(truth, (int, float)):
        return [i for i, _ in candidates]
    distances: list[tuple[float, int]] = []
    for index, answer in candidates:
        if isinstance(answer, bool) or not isinstance(answer, (int, float)):
            return [i for i, _ in candidates]
        distances.append((abs(answer - truth), index))
    best = min(d for d, _ in distances)
    return [i for d, i in distances if d <= best + _ROUNDING * max(abs(truth), 1.0)]


def source_verification(
    ctx: RungContext, verifiers: VerifierRegistry, *, tolerance: float
) -> RungAttempt:
    """Decide for the group whose answer the registered source confirms."""
    verifier = verifiers.for_task(ctx.task_type)
    if verifier is None:
        return RungAttempt(
            rung="source_verification",
            decided=False,
            detail=f"no verifier registered for task type {ctx.task_type!r}",
        )
    answers = [g.answer for g in ctx.detection.groups]
    finding = verifier.lookup(ctx.subject, ctx.task_type, answers)
    if finding is None:
        return RungAttempt(
            rung="source_verification", decided=False, detail="the source had no answer"
        )
    matching = [i for i, a in enumerate(answers) if _matches(finding.answer, a, tolerance)]
    if len(matching) > 1:
        # Several answers lie within the tolerance (a task may count a 1 % gap as a conflict
        # while the source check allows 10 %): the one strictly closest to the source wins.
        matching = _closest(finding.answer, [(i, answers[i]) for i in matching])
    if len(matching) != 1:
        what = "no position matches" if not matching else "several positions match"
        return RungAttempt(
            rung="source_verification",
            decided=False,
            detail=f"{what} the source ({finding.source})",
        )
    return RungAttempt(
        rung="source_verification",
        decided=True,
        group=matching[0],
        confidence=1.0,
        detail=f"confirmed by {finding.source}",
    )
