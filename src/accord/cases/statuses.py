"""A settle case's status vocabulary: Accord's outcome word, every outcome Accord records and
the pair of fields each sets (the table in :mod:`accord.cases.lifecycle`, which owns how a case
moves between them), and a collecting case's status."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from accord.dcp07.statuses import CaseStatus


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


class CollectingStatus(StrEnum):
    """A collecting case's status: positions arrive while ``collecting``; it is ``settled``
    once its positions went to settle (the case it became is named beside it), ``abandoned``
    when its deadline passed with fewer than two positions in."""

    COLLECTING = "collecting"
    SETTLED = "settled"
    ABANDONED = "abandoned"
