"""Prose: the facts a free-text answer commits to, and comparing answers by them.

:class:`ProseReader` reads an answer with a list of :class:`FactExtractor` s (dates,
identifiers and lists, numbers, verdicts, labels, names — each replaceable) into a
:class:`Reading`; :func:`compare_readings` tells whether two readings agree, conflict or cannot
tell; :func:`compare_texts` groups many answers, asking the semantic layers only where facts
cannot tell. :func:`accord.conflicts.detect` uses it for every string output (text mode
``facts``). See ``docs/prose-detection.md``.
"""

from accord.conflicts.prose.comparison import Difference, PairOutcome, compare_readings
from accord.conflicts.prose.dates import DateExtractor
from accord.conflicts.prose.entities import EntityExtractor, NameExtractor
from accord.conflicts.prose.extractor import FactExtractor, PreparedText, ReadContext
from accord.conflicts.prose.facts import Fact, FactKind, Reading
from accord.conflicts.prose.labels import LabelIndex
from accord.conflicts.prose.numbers import NumberExtractor
from accord.conflicts.prose.reader import ProseReader, default_extractors
from accord.conflicts.prose.settings import ProseSettings
from accord.conflicts.prose.texts import ProseDetail, TextComparison, TextSettings, compare_texts
from accord.conflicts.prose.verdicts import LabelExtractor, VerdictExtractor

__all__ = [
    "DateExtractor",
    "Difference",
    "EntityExtractor",
    "Fact",
    "FactExtractor",
    "FactKind",
    "LabelExtractor",
    "LabelIndex",
    "NameExtractor",
    "NumberExtractor",
    "PairOutcome",
    "PreparedText",
    "ProseDetail",
    "ProseReader",
    "ProseSettings",
    "ReadContext",
    "Reading",
    "TextComparison",
    "TextSettings",
    "VerdictExtractor",
    "compare_readings",
    "compare_texts",
    "default_extractors",
]
