"""DCP-07 disputes, persisted: the store, the lifecycle's steps and the ``Disputes`` service.

``Accord.disputes`` is a :class:`Disputes`. Every step is one transaction writing the
dispute's rows, one signed and chained ledger event (R30) and its deadline row; a refused
step writes nothing.
"""

from accord.dcp07.deadlines import DEADLINE_ACTOR
from accord.disputes.arbitrators import AgentArbitrator, PanelDeliberation
from accord.disputes.arbitrators.agent import DEFAULT_MAX_TOKENS
from accord.disputes.compliance import ComplianceOutcome
from accord.disputes.compliance.actions import TrackedAction
from accord.disputes.compliance.flags import StoredFlag
from accord.disputes.compliance.report import MAX_NOTE_CHARS, MAX_REPORTED_ENTRIES
from accord.disputes.counts import dispute_counts
from accord.disputes.deadline_port import DisputeDeadlines
from accord.disputes.events import ACCORD_EVENTS, DISPUTE_EVENTS, R30_EVENTS
from accord.disputes.filing import (
    MAX_CONDITIONS,
    MAX_DETAIL_TEXT,
    MAX_EVIDENCE_ITEMS,
    MAX_RESPONDENTS,
    DisputeFiling,
    EvidenceInput,
)
from accord.disputes.input_file import objects_in, read_input_file
from accord.disputes.listing import DEFAULT_PAGE, MAX_PAGE, DisputeQuery
from accord.disputes.objections import StoredObjection, StoredStay
from accord.disputes.objections.filing import MAX_REASONING_CHARS, MAX_REFERENCES, MAX_SUMMARY_CHARS
from accord.disputes.objections.stay import MAX_REASON_CHARS
from accord.disputes.refusals import DisputeNotFound
from accord.disputes.service import MAX_FILINGS_PER_CALL, Disputes
from accord.disputes.steps import status_at
from accord.disputes.tiers import AppealProposal, DisputeTiers
from accord.disputes.tiers.arbitration import MAX_NOMINEES, PanelEscalation
from accord.disputes.tiers.negotiating import MAX_CHOICE, NegotiationStep
from accord.disputes.tiers.panel_rows import BallotPaper, SeatedPanel
from accord.disputes.tiers.prepared import (
    Nominations,
    PayloadSignature,
    PreparedStep,
    StepOutcome,
    sign_payloads,
)
from accord.disputes.tiers.prepared.models import payload_of
from accord.disputes.tiers.prepared.service import MAX_SIGNATURES
from accord.disputes.tiers.prepared.step_kinds import PreparedStepArgs
from accord.disputes.tiers.tier_context import MAX_TEXT
from accord.disputes.views import DisputePage, DisputeSummary, StoredDispute

__all__ = [
    "ACCORD_EVENTS",
    "DEADLINE_ACTOR",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_PAGE",
    "DISPUTE_EVENTS",
    "MAX_CHOICE",
    "MAX_CONDITIONS",
    "MAX_DETAIL_TEXT",
    "MAX_EVIDENCE_ITEMS",
    "MAX_FILINGS_PER_CALL",
    "MAX_NOMINEES",
    "MAX_NOTE_CHARS",
    "MAX_PAGE",
    "MAX_REASONING_CHARS",
    "MAX_REASON_CHARS",
    "MAX_REFERENCES",
    "MAX_REPORTED_ENTRIES",
    "MAX_RESPONDENTS",
    "MAX_SIGNATURES",
    "MAX_SUMMARY_CHARS",
    "MAX_TEXT",
    "R30_EVENTS",
    "AgentArbitrator",
    "AppealProposal",
    "BallotPaper",
    "ComplianceOutcome",
    "DisputeDeadlines",
    "DisputeFiling",
    "DisputeNotFound",
    "DisputePage",
    "DisputeQuery",
    "DisputeSummary",
    "DisputeTiers",
    "Disputes",
    "EvidenceInput",
    "NegotiationStep",
    "Nominations",
    "PanelDeliberation",
    "PanelEscalation",
    "PayloadSignature",
    "PreparedStep",
    "PreparedStepArgs",
    "SeatedPanel",
    "StepOutcome",
    "StoredDispute",
    "StoredFlag",
    "StoredObjection",
    "StoredStay",
    "TrackedAction",
    "dispute_counts",
    "objects_in",
    "payload_of",
    "read_input_file",
    "sign_payloads",
    "status_at",
]
