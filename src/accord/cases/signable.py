"""Answers and confidences as signed records carry them: dcp-jcs-v1 allows integers only.

An answer is pinned by the hash of its signable form (floats as ``{"$decimal": "1200.5"}``,
:func:`accord.values.signable`); a confidence is carried as basis points.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from accord.crypto import content_hash
from accord.values import signable


def answer_hash(value: Any) -> str:
    """``sha256:`` over the canonical bytes of the signable form."""
    return content_hash(signable(value))


def basis_points(fraction: float | None) -> int | None:
    """0.8512 → 8512 (None stays None)."""
    return None if fraction is None else round(fraction * 10_000)


def answer_key(value: Any) -> str:
    """A stable text key for an answer (used to compare answers across cases)."""
    return answer_hash(value)


class AnswerHashes:
    """Memoized :func:`answer_hash` for one batch of cases (answers repeat across records).

    Scalars are memoized by value; mappings and lists by identity (the records of a case share
    the position's output object), so no key ever costs the size of a large output."""

    __slots__ = ("_memo",)

    def __init__(self) -> None:
        self._memo: dict[tuple[Any, ...], tuple[Any, str]] = {}

    @classmethod
    def joined(cls, parts: Iterable[AnswerHashes]) -> AnswerHashes:
        """One memo holding what every part has computed."""
        out = cls()
        for part in parts:
            out._memo.update(part._memo)
        return out

    def __call__(self, value: Any) -> str:
        scalar = value is None or isinstance(value, (str, int, float))
        key = (type(value), value) if scalar else ("id", id(value))
        found = self._memo.get(key)
        if found is None:  # the value is kept with its hash, so its id is not reused
            found = self._memo[key] = (value, answer_hash(value))
        return found[1]
