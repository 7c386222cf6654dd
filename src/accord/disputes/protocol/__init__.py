"""DCP-07 disputes, persisted: the store, the lifecycle's steps and the ``Disputes`` service.

``Accord.disputes`` is a :class:`Disputes`. Every step is one transaction writing the
dispute's rows, one signed and chained ledger event (R30) and its deadline row; a refused
step writes nothing.
"""

from accord.disputes.protocol.deadline_port import DisputeDeadlines
from accord.disputes.protocol.filing import DisputeFiling, EvidenceInput
from accord.disputes.protocol.listing import DisputeQuery
from accord.disputes.protocol.refusals import DisputeNotFound
from accord.disputes.protocol.service import Disputes
from accord.disputes.protocol.steps import DEADLINE_ACTOR, status_at
from accord.disputes.protocol.views import DisputePage, DisputeSummary, StoredDispute
from accord.disputes.records.dispute_event import ACCORD_EVENTS, DISPUTE_EVENTS, R30_EVENTS

__all__ = [
    "ACCORD_EVENTS",
    "DEADLINE_ACTOR",
    "DISPUTE_EVENTS",
    "R30_EVENTS",
    "DisputeDeadlines",
    "DisputeFiling",
    "DisputeNotFound",
    "DisputePage",
    "DisputeQuery",
    "DisputeSummary",
    "Disputes",
    "EvidenceInput",
    "StoredDispute",
    "status_at",
]
