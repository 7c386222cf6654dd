"""Every record the disputes room signs into the ledger, as a frozen validated model.

One builder per record type; ``record()`` is the exact dict signed (it equals
``model_dump(mode="json")``, with answers shared rather than copied). :data:`RECORD_TYPES`
maps each ledger event type to the models that may carry it (the case audit's description
is checked against them).
"""

from __future__ import annotations

from collections.abc import Mapping

from accord.cases.records.abandoned import CaseAbandoned
from accord.cases.records.escalated import CaseEscalated, CaseHandedOver
from accord.cases.records.opening import CaseOpened, ConsensusRecorded, OutputsMerged
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
    CaseResolved,
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
    "dispute_opened": (CaseOpened,),
    "dispute_escalated": (CaseHandedOver, CaseEscalated),
    "dispute_resolved": (ResolvedOnTheLadder, ResolvedByPerson, ResolvedByProbe),
    "dispute_abandoned": (CaseAbandoned,),
}

__all__ = [
    "RECORD_TYPES",
    "AttemptRecord",
    "ByPerson",
    "ByProbe",
    "CaseAbandoned",
    "CaseEscalated",
    "CaseHandedOver",
    "CaseOpened",
    "CaseResolved",
    "ConsensusRecorded",
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
