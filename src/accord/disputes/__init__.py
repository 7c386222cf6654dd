"""Cases: their model, how they are decided at tier 1, persisted and signed."""

from accord.disputes.case import (
    Case,
    CaseStatus,
    Decision,
    DissentRecord,
    EscalationPayload,
    SettleStatus,
)
from accord.disputes.case_store import CaseStore
from accord.disputes.decide import DecideSettings
from accord.disputes.evidence_gathering import Justification, Justifier
from accord.disputes.settle import Settler, SettleRequest

__all__ = [
    "Case",
    "CaseStatus",
    "CaseStore",
    "DecideSettings",
    "Decision",
    "DissentRecord",
    "EscalationPayload",
    "Justification",
    "Justifier",
    "SettleRequest",
    "SettleStatus",
    "Settler",
]
