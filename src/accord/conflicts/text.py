"""Comparing free text: a normalizer for exact-enough comparison, and a port for meaning."""

from __future__ import annotations

import unicodedata
from typing import Protocol

_KEPT = frozenset("%‰‱٪﹪％")  # percent signs are units, not punctuation, here
_ASCII_EDGE = " " + "".join(
    c for c in map(chr, range(128)) if unicodedata.category(c).startswith("P") and c not in _KEPT
)


def normalize_text(text: str) -> str:
    """NFKC, casefold, whitespace collapsed to single spaces, edge punctuation stripped.

    ``"  Approve. "`` and ``"APPROVE"`` both become ``"approve"``. Only Unicode punctuation
    (category ``P*``, except percent signs) and whitespace are stripped from the two ends, so
    ``$100`` and ``50 %`` keep their units.
    """
    if text.isascii():
        return " ".join(text.lower().split()).strip(_ASCII_EDGE)
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    collapsed = " ".join(folded.split())
    start, end = 0, len(collapsed)
    while start < end and _is_edge(collapsed[start]):
        start += 1
    while end > start and _is_edge(collapsed[end - 1]):
        end -= 1
    return collapsed[start:end]


def _is_edge(char: str) -> bool:
    return char.isspace() or (unicodedata.category(char).startswith("P") and char not in _KEPT)


class SemanticComparator(Protocol):
    """Decides whether two texts say the same thing (a model- or embedding-backed port)."""

    def equivalent(self, a: str, b: str) -> bool:
        """True when ``a`` and ``b`` mean the same answer."""
        ...
