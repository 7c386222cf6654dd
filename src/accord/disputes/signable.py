"""Values made fit for signed records: dcp-jcs-v1 allows integers only.

Agents' outputs may hold fractions (``1200.5``); signed records carry them as
``{"$decimal": "1200.5"}`` (the shortest repr that round-trips), and confidences as basis points.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from accord.crypto import content_hash


def signable(value: Any) -> Any:
    """``value`` with every float replaced by ``{"$decimal": repr}`` (recursively)."""
    if isinstance(value, float):
        return {"$decimal": repr(value)}
    if isinstance(value, Mapping):
        return {str(k): signable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [signable(v) for v in value]
    return value


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
    """Memoized :func:`answer_hash` for one batch of cases (answers repeat across records)."""

    __slots__ = ("_memo",)

    def __init__(self) -> None:
        self._memo: dict[str, str] = {}

    def __call__(self, value: Any) -> str:
        key = repr(value)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = answer_hash(value)
        return found
