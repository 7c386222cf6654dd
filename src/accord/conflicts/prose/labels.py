"""Label vocabularies, built-in and configured, indexed for reading prose.

A label is a word or phrase of a vocabulary; synonyms share one canonical label
(``urgent`` → ``p1`` if configured so). Two labels of one vocabulary are comparable; labels
that sit in one incompatible set (``accept`` / ``reject``) make a logical conflict.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cached_property

from accord.conflicts.prose._phrases import PhraseTable
from accord.conflicts.prose.vocabularies import (
    CUED_VOCABULARIES,
    builtin_vocabularies,
    decision_phrases,
)

CONFIGURED = "labels"
"""The vocabulary of the detection settings' ``label_values`` and ``incompatible_sets``."""


def _words(text: str) -> str:
    return " ".join(text.lower().replace("-", " ").split()).strip(" .,;:!?")


class LabelIndex:
    """Every known label phrase → ``vocabulary|canonical``; and which labels are incompatible.

    Configured phrases win over built-in ones; the built-in verdict words are labels too (an
    answer ``Approve`` is the label ``approve`` of the ``verdict`` vocabulary), read as
    verdicts in prose.
    """

    def __init__(
        self,
        *,
        label_values: Iterable[str] = (),
        incompatible_sets: Iterable[Iterable[str]] = (),
        vocabularies: Mapping[str, Mapping[str, tuple[str, ...]]] | None = None,
        builtin: bool = True,
    ) -> None:
        phrases: dict[str, str] = {}
        sets = [frozenset(_words(label) for label in labels) for labels in incompatible_sets]
        if builtin:
            for name, labels in builtin_vocabularies().items():
                for canonical, synonyms in labels.items():
                    for phrase in (canonical, *synonyms):
                        phrases[_words(phrase)] = f"{name}|{canonical}"
            for phrase, canonical in decision_phrases().items():
                phrases[_words(phrase)] = f"verdict|{canonical}"
            for word in ("yes", "no"):
                phrases[word] = f"answer|{word}"
        for name, labels in (vocabularies or {}).items():
            for canonical, synonyms in labels.items():
                for phrase in (canonical, *synonyms):
                    phrases[_words(phrase)] = f"{name}|{_words(canonical)}"
        for label in (*label_values, *(label for labels in sets for label in labels)):
            phrases.setdefault(_words(label), f"{CONFIGURED}|{_words(label)}")
        self._phrases = phrases
        self._sets = sets

    @cached_property
    def table(self) -> PhraseTable:
        """The phrases, for finding labels among an answer's words."""
        return PhraseTable(self._phrases)

    def label_of(self, text: str) -> tuple[str, str] | None:
        """``(vocabulary, canonical)`` when the whole of ``text`` is a known label."""
        found = self._phrases.get(_words(text))
        if found is None:
            return None
        vocabulary, _, canonical = found.partition("|")
        return vocabulary, canonical

    def incompatible(self, a: str, b: str) -> bool:
        """True when labels (or phrases) ``a`` and ``b`` differ and share an incompatible set."""
        a, b = _words(a), _words(b)
        return a != b and any(a in labels and b in labels for labels in self._sets)

    @staticmethod
    def cues(vocabulary: str) -> frozenset[str] | None:
        """The cue words a label of ``vocabulary`` needs beside it in prose (``risk is
        high``), or None when it needs none."""
        return CUED_VOCABULARIES.get(vocabulary)
