"""Cases: their model, how they are decided at tier 1, persisted and signed."""

from accord.cases.case import (
    Case,
    CaseStatus,
    Decision,
    DissentRecord,
    EscalationPayload,
    SettleStatus,
)
from accord.cases.collecting import MAX_COLLECT_FOR, MAX_PAGE, MIN_COLLECT_FOR, CollectingCase
from accord.cases.collecting.party_signature import sign_position
from accord.cases.deadlines import CASE_TIER, case_tier_action
from accord.cases.evidence_gathering import Justification, Justifier
from accord.cases.gate import gate_positions
from accord.cases.settle import Settler, SettleRequest
from accord.cases.settle_format import SettleCase, settle_case, settle_file_schema
from accord.cases.store import VALID_STATUSES, CaseStore
from accord.cases.triage import TriageSettings

__all__ = [
    "CASE_TIER",
    "MAX_COLLECT_FOR",
    "MAX_PAGE",
    "MIN_COLLECT_FOR",
    "VALID_STATUSES",
    "Case",
    "CaseStatus",
    "CaseStore",
    "CollectingCase",
    "Decision",
    "DissentRecord",
    "EscalationPayload",
    "Justification",
    "Justifier",
    "SettleCase",
    "SettleRequest",
    "SettleStatus",
    "Settler",
    "TriageSettings",
    "case_tier_action",
    "gate_positions",
    "settle_case",
    "settle_file_schema",
    "sign_position",
]
