"""A case's status vocabulary: Accord's outcome word, the eight DCP-07 statuses (R6), every
outcome Accord records and the pair of fields each sets (the table in
:mod:`accord.disputes.lifecycle`, which owns how a case moves between them)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum


class SettleStatus(StrEnum):
    """How the case stands: ``settle``'s outcome, then final once people deny it or its
    approval item (or its last tier deadline, R6) expires undecided (``denied``, ``expired``:
    nothing is left in the queue)."""

    SETTLED = "settled"
    MERGED = "merged"
    NO_CONFLICT = "no_conflict"
    ESCALATED = "escalated"
    DENIED = "denied"
    EXPIRED = "expired"


class CaseStatus(StrEnum):
    """The eight DCP-07 dispute statuses (R6)."""

    OPEN = "open"
    NEGOTIATING = "negotiating"
    ESCALATED = "escalated"
    ARBITRATING = "arbitrating"
    APPEALING = "appealing"
    RESOLVED = "resolved"
    WITHDRAWN = "withdrawn"
    ABANDONED = "abandoned"


class Outcome(StrEnum):
    """Every outcome Accord records for a case (the table in this module's docstring)."""

    SETTLED = "settled"
    MERGED = "merged"
    CONSENSUS = "consensus"
    ESCALATED = "escalated"
    QUEUED = "queued"
    DENIED = "denied"
    EXPIRED = "expired"


OUTCOMES: Mapping[Outcome, tuple[SettleStatus, CaseStatus]] = {
    Outcome.SETTLED: (SettleStatus.SETTLED, CaseStatus.RESOLVED),
    Outcome.MERGED: (SettleStatus.MERGED, CaseStatus.RESOLVED),
    Outcome.CONSENSUS: (SettleStatus.NO_CONFLICT, CaseStatus.RESOLVED),
    Outcome.ESCALATED: (SettleStatus.ESCALATED, CaseStatus.ESCALATED),
    Outcome.QUEUED: (SettleStatus.ESCALATED, CaseStatus.APPEALING),
    Outcome.DENIED: (SettleStatus.DENIED, CaseStatus.ABANDONED),
    Outcome.EXPIRED: (SettleStatus.EXPIRED, CaseStatus.ABANDONED),
}
"""Each outcome → the ``(status, dcp_status)`` pair it sets."""

LEGAL_PAIRS: frozenset[tuple[SettleStatus, CaseStatus]] = frozenset(OUTCOMES.values())
"""The only ``(status, dcp_status)`` pairs a stored case may carry."""

FINAL: frozenset[CaseStatus] = frozenset(
    {CaseStatus.RESOLVED, CaseStatus.WITHDRAWN, CaseStatus.ABANDONED}
)
"""Statuses nothing leaves."""


class CollectingStatus(StrEnum):
    """A collecting case's status: positions arrive while ``collecting``; it is ``settled``
    once its positions went to settle (the case it became is named beside it), ``abandoned``
    when its deadline passed with fewer than two positions in."""

    COLLECTING = "collecting"
    SETTLED = "settled"
    ABANDONED = "abandoned"
