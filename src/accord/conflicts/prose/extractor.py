"""The extractor port: one object per family of facts, each replaceable.

A :class:`FactExtractor` reads a :class:`PreparedText` and yields the facts it finds. The
reader runs the extractors in order; each may ``claim`` the spans it read so that the later
ones leave them alone (a date's digits are not also a number). An extractor that raises is
logged and skipped for that answer: its facts are missing, the others stand.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from accord.conflicts.prose._text import Prepared
from accord.conflicts.prose.facts import Fact
from accord.conflicts.prose.labels import LabelIndex
from accord.conflicts.prose.settings import ProseSettings

PreparedText = Prepared
"""An answer cleaned once and shared by the extractors (words, sentences, quotes, claims)."""


@dataclass(frozen=True)
class ReadContext:
    """What reading an answer depends on besides its text.

    ``reference`` resolves relative dates (``tomorrow``, ``next Friday``): the case's time,
    from the injected clock — never the wall clock; without it relative dates are compared as
    written. ``question`` tells what a bare yes or no answers.
    """

    settings: ProseSettings
    labels: LabelIndex
    reference: datetime | None = None
    question: str | None = None


class FactExtractor(Protocol):
    """Reads one family of facts out of an answer."""

    name: str

    def extract(self, text: PreparedText, context: ReadContext) -> Iterable[Fact]:
        """The facts of this family in ``text`` (claiming the spans it reads)."""
        ...
