"""The wire format of ``/api/v1/disputes``: request bodies (unknown fields refused) and the
answers the dispute service's own models do not already give.

Bodies bound every string (no NUL, which PostgreSQL refuses), list and count with the
library's own limits; the DCP-07 rules (types R1, severities R3, tiers R38, evidence hashes
R33, flooding R34) are the library's to check, so a refusal names its R-number. No body
names the complainant, the submitter or the escalating party: that is the key's agent.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from accord.api.schemas import NO_NUL
from accord.dcp07 import MAX_ENTRIES, MAX_PARTIES, SHA256_PATTERN, UUID_PATTERN, DisputeRecord
from accord.disputes import (
    DEFAULT_MAX_TOKENS,
    MAX_CHOICE,
    MAX_CONDITIONS,
    MAX_DETAIL_TEXT,
    MAX_EVIDENCE_ITEMS,
    MAX_FILINGS_PER_CALL,
    MAX_NOMINEES,
    MAX_NOTE_CHARS,
    MAX_REASONING_CHARS,
    MAX_REFERENCES,
    MAX_REPORTED_ENTRIES,
    MAX_RESPONDENTS,
    MAX_SUMMARY_CHARS,
    MAX_TEXT,
    StoredDispute,
)

DISPUTE_ID_PATTERN = rf"^disp:{UUID_PATTERN}$"
ID_PATTERN = r"^[^\s\x00]+$"
"""An agent, principal, organisation or reference id: no whitespace, no NUL."""

MAX_DELIBERATION_TOKENS = 8_192
"""The most tokens a member's model call may be given over HTTP."""
BASE64 = r"^[A-Za-z0-9+/=]+$"
Id = Annotated[str, Field(min_length=1, max_length=256, pattern=ID_PATTERN)]
Prose = Annotated[str, Field(min_length=1, max_length=65_536, pattern=NO_NUL)]
Reason = Annotated[str, Field(max_length=MAX_DETAIL_TEXT, pattern=NO_NUL)]
Refs = Annotated[list[Id], Field(max_length=64)]


class _Body(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PartyIn(_Body):
    """A respondent named in full (an agent id alone takes its principal and organisation
    from the org chart)."""

    agent_id: Id
    principal_id: Id
    organization_id: Id


class SubjectIn(_Body):
    description: Prose
    resource_identifiers: Refs = []
    related_intent_ids: Refs = []
    related_policy_ids: Refs = []
    related_audit_entries: Refs = []


class EvidenceIn(_Body):
    """One piece of evidence: its content (any JSON value, integers only — signed records
    carry no floats) and optionally the ``sha256:`` you computed over it, which must match
    (R33)."""

    evidence_type: Id
    reference: Id
    description: Prose
    content: Any
    content_hash: Annotated[str, Field(pattern=SHA256_PATTERN)] | None = None


class EvidenceBatchIn(_Body):
    """Evidence submitted as one event (one item, or several)."""

    evidence: Annotated[list[EvidenceIn], Field(min_length=1, max_length=MAX_EVIDENCE_ITEMS)]


class DisputeOpenIn(_Body):
    """File a dispute as the key's agent (the complainant)."""

    dispute_type: Annotated[
        str,
        Field(
            max_length=64,
            pattern=NO_NUL,
            description="resource_conflict, directive_conflict, capability_conflict or "
            "policy_conflict (R1)",
        ),
    ]
    severity: Annotated[
        str, Field(max_length=64, pattern=NO_NUL, description="low, medium, high or critical (R3)")
    ]
    respondents: Annotated[list[Id | PartyIn], Field(min_length=1, max_length=MAX_RESPONDENTS)]
    subject: Prose | SubjectIn
    evidence: Annotated[list[EvidenceIn], Field(max_length=MAX_EVIDENCE_ITEMS)] = []
    start_at_appeal: bool = False
    """Only a critical dispute may start at human appeal (R18)."""
    conditions: Annotated[list[Id], Field(max_length=MAX_CONDITIONS)] = []
    """Conditions that hold, for the precedents cited on opening (R24)."""


class EscalateIn(_Body):
    """Escalate to the next tier, or to any tier above (``human_appeal`` at any time, R17)."""

    to_tier: Annotated[str, Field(max_length=64, pattern=NO_NUL)] | None = None
    reason: Reason = ""


class WithdrawIn(_Body):
    reason: Reason = ""


class ImportIn(_Body):
    """An SDK dispute record to check against the stored dispute it names (nothing is
    written). Without keys, its composite signature is checked against the service key."""

    record: Annotated[dict[str, Any], Field(max_length=64)]
    classical_public_key_b64: Annotated[str, Field(max_length=64, pattern=BASE64)] | None = None
    pq_public_key_b64: Annotated[str, Field(max_length=4_096, pattern=BASE64)] | None = None
    require_hybrid: bool = False


class ImportOut(BaseModel):
    """What the SDK record describes: the stored record when they agree (``agrees``), else
    an unsigned draft carrying the SDK's status and level."""

    agrees: bool
    record: DisputeRecord


class EvidenceContentOut(BaseModel):
    """An evidence item's stored content: a JSON value (``media: json``), or bytes submitted
    through the library (``media: bytes``, base64 in ``content_b64``)."""

    dispute_id: str
    evidence_id: str
    media: Literal["json", "bytes"]
    content: Any = None
    content_b64: str | None = None


# --- the tiers (tier 1 negotiation and coin flip, tier 2 panel, tier 3 appeal) ------------

Terms = Annotated[str, Field(min_length=1, max_length=MAX_TEXT, pattern=NO_NUL)]


class ProposeIn(_Body):
    """Terms the key's agent proposes (and so accepts), optionally countering a proposal."""

    terms: Terms
    responds_to: Id | None = None


class AcceptIn(_Body):
    """Accepting a proposal takes no fields (the key says whose acceptance it is): a body,
    when sent, is an empty object; any field in it is refused, naming it."""


class CounterEvidenceIn(_Body):
    """Counter-evidence addressed by the ``sha256:`` of its content (R7, R33)."""

    content_hash: Annotated[str, Field(pattern=SHA256_PATTERN)]
    description: Terms
    answers: Id | None = None


class CommitIn(_Body):
    """``sha256:`` over your nonce and choice (``accord.dcp07.negotiation.commitment``):
    draw and keep the nonce yourself, and reveal it later (R8)."""

    commitment: Annotated[str, Field(pattern=SHA256_PATTERN)]


class RevealIn(_Body):
    nonce_hex: Annotated[str, Field(min_length=64, max_length=256, pattern=r"^(?:[0-9a-f]{2})+$")]
    choice: Annotated[str, Field(min_length=1, max_length=MAX_CHOICE, pattern=NO_NUL)]


class NominateIn(_Body):
    """Candidates from the pre-approved arbitrator pool (R10)."""

    agent_ids: Annotated[list[Id], Field(min_length=1, max_length=MAX_NOMINEES)]


class RequiredActionIn(_Body):
    """What one party must do, and by when (R19, R20)."""

    agent_id: Id
    action: Terms
    deadline: AwareDatetime


class PrecedentIn(_Body):
    """A precedent the proposal applies; ``applicability`` ``departed`` with its reasoning
    for a departure (R25)."""

    jurisprudence_id: Id
    applicability: Terms
    departure_reasoning: Terms | None = None


class ProposedTermsIn(_Body):
    """A proposed §6 resolution's terms beyond its description (R19): the actions it
    requires, the compliance method and deadline (default: the last action's deadline), the
    precedents it applies."""

    actions_required: Annotated[list[RequiredActionIn], Field(max_length=32)] = []
    compliance_verification_method: Id = "audit_chain_review"
    compliance_deadline: AwareDatetime | None = None
    precedents_applied: Annotated[list[PrecedentIn], Field(max_length=32)] = []

    def terms(self) -> dict[str, Any]:
        """The keyword arguments of ``form_panel`` / ``propose`` these fields are."""
        return {
            "actions_required": [a.model_dump() for a in self.actions_required],
            "compliance_verification_method": self.compliance_verification_method,
            "compliance_deadline": self.compliance_deadline,
            "precedents_applied": [
                p.model_dump(exclude_none=True) for p in self.precedents_applied
            ],
        }


class FormPanelIn(ProposedTermsIn):
    """The question the panel votes on: one argument per party, and the §6 resolution
    proposed (which finds for ``favours``; ``resolution`` is its outcome's description)."""

    question: Terms
    positions: Annotated[dict[str, Terms], Field(min_length=1, max_length=MAX_RESPONDENTS + 1)]
    favours: Id
    resolution: Terms


class PanelProposalIn(ProposedTermsIn):
    """A member's proposed §6 resolution, put to the panel in place of the one before (R14)."""

    favours: Id
    description: Terms


class VoteIn(_Body):
    vote: Literal["approve", "dissent"]
    reasoning: Terms


class AppealDecisionIn(_Body):
    """The responsible principals' final, binding decision (R16)."""

    outcome: Terms
    reasoning: Terms


# --- after a resolution: compliance (R20–R22), objections and stays (R27–R29) ---------------


class ComplianceReportIn(_Body):
    """The ledger entries (by seq) that show the key's agent did what the resolution
    required, and a short note (R20)."""

    entries: Annotated[
        list[Annotated[int, Field(ge=1, le=2**62)]],
        Field(min_length=1, max_length=MAX_REPORTED_ENTRIES),
    ]
    note: Annotated[str, Field(max_length=MAX_NOTE_CHARS, pattern=NO_NUL)] = ""


class GroundsIn(_Body):
    summary: Annotated[str, Field(min_length=1, max_length=MAX_SUMMARY_CHARS, pattern=NO_NUL)]
    detailed_reasoning: Annotated[
        str, Field(min_length=1, max_length=MAX_REASONING_CHARS, pattern=NO_NUL)
    ]
    evidence_references: Annotated[list[Id], Field(max_length=MAX_REFERENCES)] = []
    precedent_references: Annotated[list[Id], Field(max_length=MAX_REFERENCES)] = []


class RemedyIn(_Body):
    type: Id
    description: Annotated[str, Field(min_length=1, max_length=MAX_SUMMARY_CHARS, pattern=NO_NUL)]


class ObjectionIn(_Body):
    """The key's agent objects to the dispute's resolution (R27): ``objection_type`` is
    substantive, procedural, precedent or rights (a rights objection goes to human appeal,
    R29)."""

    resolution_id: Id
    objection_type: Annotated[str, Field(max_length=64, pattern=NO_NUL)]
    grounds: GroundsIn
    remedy: RemedyIn


class StayIn(_Body):
    reason: Reason = ""


# --- gaps closed for parity with the library ------------------------------------------------


class DisputeBatchIn(_Body):
    """Disputes filed in one transaction, each with the key's agent as complainant: all of
    them, or (one refused, its ``index`` named) none (``Accord.disputes.open_many``)."""

    filings: Annotated[list[DisputeOpenIn], Field(min_length=1, max_length=MAX_FILINGS_PER_CALL)]


class DisputeBatchOut(BaseModel):
    """The disputes filed, in the order given."""

    items: list[StoredDispute]


class DeliberateIn(_Body):
    """How many tokens each of the member's two model calls may use (positions swapped)."""

    max_tokens: Annotated[int, Field(ge=1, le=MAX_DELIBERATION_TOKENS)] = DEFAULT_MAX_TOKENS


class CrossCheckIn(_Body):
    """Each party's exported chain (``accord ledger tail --json``: an array of ledger
    entries), by party name, and the dispute to check (default: the one every chain
    references). Pure: nothing is read or written (R31)."""

    chains: Annotated[
        dict[
            Annotated[str, Field(min_length=1, max_length=256, pattern=NO_NUL)],
            Annotated[list[dict[str, Any]], Field(max_length=MAX_ENTRIES)],
        ],
        Field(min_length=1, max_length=MAX_PARTIES),
    ]
    dispute_id: Annotated[str, Field(max_length=64, pattern=DISPUTE_ID_PATTERN)] | None = None
