"""The vocabulary of detection: what kind of conflict, and how severe (ordered)."""

from __future__ import annotations

from enum import StrEnum


class ConflictKind(StrEnum):
    """The four conflict types of the playbook's detection layer."""

    DIRECT_CONTRADICTION = "direct_contradiction"
    NUMERICAL_INCONSISTENCY = "numerical_inconsistency"
    LOGICAL_CONFLICT = "logical_conflict"
    PRIORITY_CONFLICT = "priority_conflict"


_RANKS = {"low": 0, "medium": 1, "high": 2, "critical": 3}


class Severity(StrEnum):
    """DCP-07 severities (R3), ordered ``low < medium < high < critical``.

    Comparisons follow that order, never the alphabet; a plain string that names a severity
    compares as that severity.
    """

    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    CRITICAL = "critical"

    @property
    def rank(self) -> int:
        """0 for ``low`` up to 3 for ``critical``."""
        return _RANKS[self.value]

    def __lt__(self, other: str) -> bool:
        return _RANKS[self.value] < _rank_of(other)

    def __le__(self, other: str) -> bool:
        return _RANKS[self.value] <= _rank_of(other)

    def __gt__(self, other: str) -> bool:
        return _RANKS[self.value] > _rank_of(other)

    def __ge__(self, other: str) -> bool:
        return _RANKS[self.value] >= _rank_of(other)


def _rank_of(other: str) -> int:
    rank = _RANKS.get(other) if isinstance(other, str) else None
    if rank is None:
        raise TypeError(f"cannot order a Severity against {other!r}")
    return rank
