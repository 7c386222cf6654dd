"""Measuring prose detection on a labelled corpus: accuracy, false and missed conflicts by kind.

A corpus is JSON Lines, one case a line::

    {"id": "amount-003", "domain": "business", "kind": "amount", "tags": ["same_sentence_change"],
     "question": "What is the total of invoice 4411?", "reference": "2024-05-01T09:00:00+00:00",
     "answers": ["Invoice 4411 comes to €1,200.", "Invoice 4411 comes to €1,450."],
     "expected": "conflict", "settings": {"prose": {"locale": "de_DE"}}}

``expected`` is ``agree`` (the answers say the same thing: a paraphrase) or ``conflict``.
Each case is run through :func:`accord.conflicts.detect` and predicted ``agree``,
``conflict`` or ``not_comparable``. Per kind (and per tag): the **false-conflict rate** is the
share of paraphrases called a conflict, the **missed-conflict rate** the share of conflicts
called an agreement; a not-comparable prediction is neither, but it is not correct either (it
lowers accuracy and is reported on its own).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic import ValidationError as PydanticValidationError

from accord.conflicts.detection import detect
from accord.conflicts.position import Position
from accord.conflicts.settings import DetectionSettings
from accord.conflicts.text import SemanticComparator
from accord.errors import ValidationError

Expected = Literal["agree", "conflict"]
Predicted = Literal["agree", "conflict", "not_comparable"]

MAX_CASES = 100_000
"""Most cases one corpus may hold."""
MAX_ANSWER_CHARS = 100_000
"""Longest answer a corpus case may give (the reader's own ``max_chars`` applies after)."""


class CorpusCase(BaseModel):
    """One labelled case of a prose corpus (see the module doc)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1, max_length=200)
    kind: str = Field(min_length=1, max_length=100)
    expected: Expected
    answers: tuple[str, ...] = Field(min_length=2, max_length=100)
    domain: str = Field(default="", max_length=100)
    tags: tuple[str, ...] = Field(default=(), max_length=50)
    question: str | None = Field(default=None, max_length=10_000)
    reference: datetime | None = None
    settings: dict[str, Any] | None = None

    @field_validator("answers")
    @classmethod
    def _answer_sizes(cls, answers: tuple[str, ...]) -> tuple[str, ...]:
        for index, answer in enumerate(answers):
            if len(answer) > MAX_ANSWER_CHARS:
                raise ValueError(f"answers[{index}] is longer than {MAX_ANSWER_CHARS:,} characters")
        return answers

    @field_validator("reference")
    @classmethod
    def _aware(cls, reference: datetime | None) -> datetime | None:
        if reference is not None and reference.tzinfo is None:
            raise ValueError("reference needs a timezone (say 2024-05-01T09:00:00+00:00)")
        return reference


class Rates(BaseModel):
    """How a set of cases (a kind, a tag, or all) was judged."""

    model_config = ConfigDict(frozen=True)

    name: str
    cases: int
    paraphrases: int
    conflicts: int
    correct: int
    false_conflicts: int
    missed_conflicts: int
    not_comparable: int

    @property
    def accuracy(self) -> float:
        """Correct predictions over cases (not comparable counts as wrong)."""
        return self.correct / self.cases if self.cases else 0.0

    @property
    def false_conflict_rate(self) -> float:
        """Paraphrases called a conflict, over paraphrases."""
        return self.false_conflicts / self.paraphrases if self.paraphrases else 0.0

    @property
    def missed_conflict_rate(self) -> float:
        """Conflicts called an agreement, over conflicts."""
        return self.missed_conflicts / self.conflicts if self.conflicts else 0.0

    @property
    def not_comparable_rate(self) -> float:
        """Cases that could not be compared, over cases."""
        return self.not_comparable / self.cases if self.cases else 0.0

    def summary(self) -> dict[str, Any]:
        """The counts and the four rates, for JSON."""
        return {
            **self.model_dump(),
            "accuracy": round(self.accuracy, 4),
            "false_conflict_rate": round(self.false_conflict_rate, 4),
            "missed_conflict_rate": round(self.missed_conflict_rate, 4),
            "not_comparable_rate": round(self.not_comparable_rate, 4),
        }


class Judged(BaseModel):
    """One case's prediction, with what detection said."""

    model_config = ConfigDict(frozen=True)

    id: str
    kind: str
    tags: tuple[str, ...]
    expected: Expected
    predicted: Predicted
    description: str

    @property
    def correct(self) -> bool:
        """True when the prediction is the expected outcome."""
        return self.predicted == self.expected


class ProseEvaluation(BaseModel):
    """The rates overall, by kind and by tag, and every case judged."""

    model_config = ConfigDict(frozen=True)

    mode: str
    total: Rates
    by_kind: tuple[Rates, ...]
    by_tag: tuple[Rates, ...]
    judged: tuple[Judged, ...]

    def summary(self) -> dict[str, Any]:
        """Everything as plain JSON, wrong cases listed (right ones counted only)."""
        return {
            "mode": self.mode,
            "total": self.total.summary(),
            "by_kind": [rates.summary() for rates in self.by_kind],
            "by_tag": [rates.summary() for rates in self.by_tag],
            "misjudged": [j.model_dump() for j in self.judged if not j.correct],
        }


def read_corpus(lines: Iterable[str], *, source: str) -> list[CorpusCase]:
    """The cases of a JSON Lines corpus; a bad line raises ``ValidationError`` naming the
    source, the line, the field and the rule (``prose.invalid_corpus``)."""
    cases: list[CorpusCase] = []
    seen: set[str] = set()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if len(cases) >= MAX_CASES:
            raise _corpus_error(source, number, "corpus", f"at most {MAX_CASES:,} cases")
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise _corpus_error(source, number, "line", f"not JSON: {exc.msg}") from None
        try:
            case = CorpusCase.model_validate(data)
        except PydanticValidationError as exc:
            first = exc.errors(include_url=False)[0]
            field = ".".join(str(part) for part in first["loc"]) or "case"
            raise _corpus_error(source, number, field, first["msg"]) from None
        if case.id in seen:
            raise _corpus_error(source, number, "id", f"{case.id!r} appears twice")
        seen.add(case.id)
        cases.append(case)
    if not cases:
        raise _corpus_error(source, 0, "corpus", "at least one case")
    return cases


def _corpus_error(source: str, line: int, field: str, rule: str) -> ValidationError:
    where = f"{source}:{line}" if line else source
    return ValidationError(
        f"{where}: {field}: {rule}",
        code="prose.invalid_corpus",
        field=field,
        line=line,
        rule=rule,
        position=None,
    )


def evaluate_prose(
    cases: Sequence[CorpusCase],
    *,
    base: DetectionSettings | None = None,
    semantic: SemanticComparator | None = None,
    source: str = "corpus",
    on_case: Callable[[Judged], None] | None = None,
) -> ProseEvaluation:
    """Judge every case with :func:`detect` (``base`` settings, each case's own on top)."""
    base = base or DetectionSettings()
    judged: list[Judged] = []
    for case in cases:
        settings = base
        if case.settings:
            merged = {**base.model_dump(exclude_defaults=True), **case.settings}
            settings = DetectionSettings.from_mapping(
                merged, source=f"{source} ({case.id})", key_prefix="settings"
            )
        positions = [
            Position(agent=f"agent:{index}", output=answer)
            for index, answer in enumerate(case.answers)
        ]
        detection = detect(
            positions, settings, semantic, question=case.question, reference=case.reference
        )
        predicted: Predicted
        if not detection.has_conflict:
            predicted = "agree"
        elif detection.comparable:
            predicted = "conflict"
        else:
            predicted = "not_comparable"
        one = Judged(
            id=case.id,
            kind=case.kind,
            tags=case.tags,
            expected=case.expected,
            predicted=predicted,
            description=detection.description,
        )
        judged.append(one)
        if on_case is not None:
            on_case(one)
    kinds = sorted({j.kind for j in judged})
    tags = sorted({t for j in judged for t in j.tags})
    return ProseEvaluation(
        mode=base.text_mode + (f" + {semantic.name}" if semantic is not None else ""),
        total=_rates("all", judged),
        by_kind=tuple(_rates(kind, [j for j in judged if j.kind == kind]) for kind in kinds),
        by_tag=tuple(_rates(tag, [j for j in judged if tag in j.tags]) for tag in tags),
        judged=tuple(judged),
    )


def _rates(name: str, judged: Sequence[Judged]) -> Rates:
    return Rates(
        name=name,
        cases=len(judged),
        paraphrases=sum(j.expected == "agree" for j in judged),
        conflicts=sum(j.expected == "conflict" for j in judged),
        correct=sum(j.correct for j in judged),
        false_conflicts=sum(j.expected == "agree" and j.predicted == "conflict" for j in judged),
        missed_conflicts=sum(j.expected == "conflict" and j.predicted == "agree" for j in judged),
        not_comparable=sum(j.predicted == "not_comparable" for j in judged),
    )
