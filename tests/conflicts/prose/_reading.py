"""Small helpers for the prose tests: read one answer, compare a few."""

from __future__ import annotations

from datetime import UTC, datetime

from accord.conflicts import Detection, DetectionSettings, Position, detect
from accord.conflicts.prose import Fact, FactKind, LabelIndex, ProseReader, ProseSettings
from accord.conflicts.prose import ReadContext as Context

REFERENCE = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)
"""A Wednesday: the time relative dates count from in these tests."""


def read(
    text: str,
    *,
    reference: datetime | None = REFERENCE,
    question: str | None = None,
    settings: ProseSettings | None = None,
) -> tuple[Fact, ...]:
    """The facts of ``text``."""
    context = Context(settings or ProseSettings(), LabelIndex(), reference, question)
    return ProseReader().read(text, context).facts


def of_kind(facts: tuple[Fact, ...], kind: FactKind) -> list[Fact]:
    """The facts of one kind."""
    return [fact for fact in facts if fact.kind is kind]


def compare(
    *answers: str,
    question: str | None = None,
    reference: datetime | None = REFERENCE,
    settings: DetectionSettings | None = None,
) -> Detection:
    """``detect`` over agents ``a0``, ``a1``, … answering ``answers``."""
    positions = [Position(agent=f"a{i}", output=answer) for i, answer in enumerate(answers)]
    return detect(
        positions, settings or DetectionSettings(), question=question, reference=reference
    )
