"""Comparing free text: a normalizer for exact-enough comparison, and a port for meaning."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Protocol

_KEPT = frozenset("%‰‱٪﹪％")  # percent signs are units, not punctuation, here
_ASCII_EDGE = " " + "".join(
    c for c in map(chr, range(128)) if unicodedata.category(c).startswith("P") and c not in _KEPT
)
_SIGNS = frozenset("-+−(")  # a leading sign or accounting parenthesis is part of the answer


def normalize_text(text: str) -> str:
    """NFKC, casefold, whitespace collapsed to single spaces, edge punctuation stripped.

    ``"  Approve. "`` and ``"APPROVE"`` both become ``"approve"``. Only Unicode punctuation
    (category ``P*``, except percent signs) and whitespace are stripped from the two ends,
    and never a leading sign: ``"-4.0%"`` stays ``"-4.0%"`` (not ``"4.0%"``), ``$100`` and
    ``50 %`` keep their units.
    """
    if text.isascii():
        collapsed = " ".join(text.lower().split())
        stripped = collapsed.strip(_ASCII_EDGE)
        return _keep_sign(collapsed, stripped)
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    collapsed = " ".join(folded.split())
    start, end = 0, len(collapsed)
    while start < end and _is_edge(collapsed[start]):
        start += 1
    while end > start and _is_edge(collapsed[end - 1]):
        end -= 1
    return _keep_sign(collapsed, collapsed[start:end])


def _keep_sign(collapsed: str, stripped: str) -> str:
    """``stripped`` with the sign it lost put back (``-4.0%``, ``(1,200)``)."""
    if not stripped or not stripped[0].isdigit():
        return stripped
    at = collapsed.find(stripped)
    if at > 0 and collapsed[at - 1] in _SIGNS:
        sign = "-" if collapsed[at - 1] in "-−" else collapsed[at - 1]
        if sign == "(":
            close = collapsed.find(")", at + len(stripped))
            return f"({stripped})" if close >= 0 else stripped
        return sign + stripped
    return stripped


def _is_edge(char: str) -> bool:
    return char.isspace() or (unicodedata.category(char).startswith("P") and char not in _KEPT)


class SemanticComparator(Protocol):
    """Decides whether two texts give the same answer (a model- or embedding-backed port).

    Asked only about answers whose facts cannot tell them apart. ``question`` is what the
    answers answer (the case's subject), when known.
    """

    name: str

    def equivalent(self, a: str, b: str, *, question: str | None = None) -> bool | None:
        """True when ``a`` and ``b`` give the same answer, False when they give different
        ones, None when this comparator cannot tell (the next layer, or a person, decides)."""
        ...


class SemanticLayers:
    """Comparators tried in order until one can tell (the cheapest first: a local embedding
    model, then a language model)."""

    def __init__(self, layers: Sequence[SemanticComparator]) -> None:
        if not layers:
            raise ValueError("SemanticLayers needs at least one comparator")
        self.layers = tuple(layers)
        self.name = " then ".join(layer.name for layer in self.layers)

    def equivalent(self, a: str, b: str, *, question: str | None = None) -> bool | None:
        """The first layer's answer that is not None; None when no layer can tell."""
        for layer in self.layers:
            found = layer.equivalent(a, b, question=question)
            if found is not None:
                return found
        return None
