"""DCP-07 compliance (R20–R22): a binding resolution's required actions, checked by the
stated method, failures turned into human-appeal disputes, repeated failures flagged."""

from accord.disputes.compliance.actions import ActionState, TrackedAction
from accord.disputes.compliance.deadline import DISPUTE_COMPLIANCE, ComplianceDeadlineHandler
from accord.disputes.compliance.flags import DEFAULT_FLAG_AFTER, NonComplianceFlag, StoredFlag
from accord.disputes.compliance.methods import AUDIT_CHAIN_REVIEW, SUPPORTED_METHODS
from accord.disputes.compliance.refusals import ComplianceRefused, NoPendingAction
from accord.disputes.compliance.report import ComplianceReport
from accord.disputes.compliance.service import Compliance, ComplianceOutcome

__all__ = [
    "AUDIT_CHAIN_REVIEW",
    "DEFAULT_FLAG_AFTER",
    "DISPUTE_COMPLIANCE",
    "SUPPORTED_METHODS",
    "ActionState",
    "Compliance",
    "ComplianceDeadlineHandler",
    "ComplianceOutcome",
    "ComplianceRefused",
    "ComplianceReport",
    "NoPendingAction",
    "NonComplianceFlag",
    "StoredFlag",
    "TrackedAction",
]
