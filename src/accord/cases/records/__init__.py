"""Every record the disputes room signs into the ledger, as a frozen validated model.

One builder per record type; ``record()`` is the exact dict signed (it equals
``model_dump(mode="json")``, with answers shared rather than copied). :data:`RECORD_TYPES`
maps each ledger event type to the models that may carry it (the case audit's description
is checked against them).
"""

from __future__ import annotations

from collections.abc import Mapping

from accord.cases.records.abandoned import DisputeAbandoned
from accord.cases.records.escalated import DisputeEscalated, DisputeHandedOver
from accord.cases.records.opening import ConsensusRecorded, DisputeOpened, OutputsMerged
from accord.cases.records.parts import (
    AttemptRecord,
    DissentEntry,
    LogFields,
    PartyIds,
    PositionRecord,
    Tokens,
    dissent_entries,
    log_fields,
    position_record,
)
from accord.cases.records.resolved import (
    ByPerson,
    ByProbe,
    DisputeResolved,
    HowResolved,
    OnTheLadder,
    ResolvedByPerson,
    ResolvedByProbe,
    ResolvedOnTheLadder,
    dispute_resolved,
)
from accord.ledger.signed_record import SignedRecord

RECORD_TYPES: Mapping[str, tuple[type[SignedRecord], ...]] = {
    "consensus_recorded": (ConsensusRecorded,),
    "outputs_merged": (OutputsMerged,),
    "dispute_opened": (DisputeOpened,),
    "dispute_escalated": (DisputeHandedOver, DisputeEscalated),
    "dispute_resolved": (ResolvedOnTheLadder, ResolvedByPerson, ResolvedByProbe),
    "dispute_abandoned": (DisputeAbandoned,),
}

__all__ = [
    "RECORD_TYPES",
    "AttemptRecord",
    "ByPerson",
    "ByProbe",
    "ConsensusRecorded",
    "DisputeAbandoned",
    "DisputeEscalated",
    "DisputeHandedOver",
    "DisputeOpened",
    "DisputeResolved",
    "DissentEntry",
    "HowResolved",
    "LogFields",
    "OnTheLadder",
    "OutputsMerged",
    "PartyIds",
    "PositionRecord",
    "ResolvedByPerson",
    "ResolvedByProbe",
    "ResolvedOnTheLadder",
    "SignedRecord",
    "Tokens",
    "dispute_resolved",
    "dissent_entries",
    "log_fields",
    "position_record",
]
