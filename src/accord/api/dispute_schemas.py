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
Condition = Annotated[str, Field(min_length=1, max_length=256, pattern=NO_NUL)]
"""A condition as a sentence; the library checks it is printable and not only whitespace."""
Reason = Annotated[str, Field(max_length=MAX_DETAIL_TEXT, pattern=NO_NUL)]
Refs = Annotated[list[Id], Field(max_length=64)]


class _Body(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PartyIn(_Body):
    """A respondent named in full (an agent id alone takes its principal and organisation
    from the org chart)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    agent_id: Id
    """The respondent agent."""
    principal_id: Id
    """The principal responsible for it."""
    organization_id: Id
    """Its organisation."""


class SubjectIn(_Body):
    model_config = ConfigDict(use_attribute_docstrings=True)

    description: Prose
    """What the dispute is about."""
    resource_identifiers: Refs = []
    """The resources in dispute."""
    related_intent_ids: Refs = []
    """Intents related to it."""
    related_policy_ids: Refs = []
    """Policies related to it."""
    related_audit_entries: Refs = []
    """Audit entries related to it."""


class EvidenceIn(_Body):
    """One piece of evidence: its content (any JSON value, integers only — signed records
    carry no floats) and optionally the ``sha256:`` you computed over it, which must match
    (R33)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    evidence_type: Id
    """The kind of evidence (e.g. `log`, `policy`)."""
    reference: Id
    """Where it comes from (an id or a reference)."""
    description: Prose
    """What it shows."""
    content: Any
    """The evidence itself: any JSON value, integers only (no floats)."""
    content_hash: Annotated[str, Field(pattern=SHA256_PATTERN)] | None = None
    """`sha256:` you computed over the content; must match (R33)."""


class EvidenceBatchIn(_Body):
    """Evidence submitted as one event (one item, or several)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    evidence: Annotated[list[EvidenceIn], Field(min_length=1, max_length=MAX_EVIDENCE_ITEMS)]
    """The evidence items, submitted as one event."""


class DisputeOpenIn(_Body):
    """File a dispute as the key's agent (the complainant)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

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
    """Whom the dispute is against: agent ids, or parties named in full."""
    subject: Prose | SubjectIn
    """What the dispute is about: a sentence, or a §4 subject object."""
    evidence: Annotated[list[EvidenceIn], Field(max_length=MAX_EVIDENCE_ITEMS)] = []
    """Evidence filed with the dispute."""
    start_at_appeal: bool = False
    """Only a critical dispute may start at human appeal (R18)."""
    conditions: Annotated[list[Condition], Field(max_length=MAX_CONDITIONS)] = []
    """Conditions that hold, as sentences, for the precedents cited on opening (R24):
    compared case- and whitespace-blind."""


class EscalateIn(_Body):
    """Escalate to the next tier, or to any tier above (``human_appeal`` at any time, R17)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    to_tier: Annotated[str, Field(max_length=64, pattern=NO_NUL)] | None = None
    """The tier to escalate to; the next one when omitted."""
    reason: Reason = ""
    """Why the party escalates."""


class WithdrawIn(_Body):
    model_config = ConfigDict(use_attribute_docstrings=True)

    reason: Reason = ""
    """Why the complainant withdraws."""


class ImportIn(_Body):
    """An SDK dispute record to check against the stored dispute it names (nothing is
    written). Without keys, its composite signature is checked against the service key."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    record: Annotated[dict[str, Any], Field(max_length=64)]
    """The SDK dispute record (JSON object)."""
    classical_public_key_b64: Annotated[str, Field(max_length=64, pattern=BASE64)] | None = None
    """The Ed25519 public key to check its signature with (base64); the service key when omitted."""
    pq_public_key_b64: Annotated[str, Field(max_length=4_096, pattern=BASE64)] | None = None
    """The ML-DSA-65 public key for its composite signature (base64)."""
    require_hybrid: bool = False
    """Refuse a record without both signatures."""


class ImportOut(BaseModel):
    """What the SDK record describes: the stored record when they agree (``agrees``), else
    an unsigned draft carrying the SDK's status and level."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    agrees: bool
    """Whether the SDK record agrees with the stored dispute."""
    record: DisputeRecord
    """The stored record when they agree; otherwise an unsigned draft of what the SDK describes."""


class EvidenceContentOut(BaseModel):
    """An evidence item's stored content: a JSON value (``media: json``), or bytes submitted
    through the library (``media: bytes``, base64 in ``content_b64``)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    dispute_id: str
    """The dispute."""
    evidence_id: str
    """The evidence item."""
    media: Literal["json", "bytes"]
    """`json` (content) or `bytes` (content_b64)."""
    content: Any = None
    """The content, a JSON value (media json)."""
    content_b64: str | None = None
    """The content's bytes in base64 (media bytes)."""


# --- the tiers (tier 1 negotiation and coin flip, tier 2 panel, tier 3 appeal) ------------

Terms = Annotated[str, Field(min_length=1, max_length=MAX_TEXT, pattern=NO_NUL)]


class ProposeIn(_Body):
    """Terms the key's agent proposes (and so accepts), optionally countering a proposal."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    terms: Terms
    """The terms proposed (and so accepted by the proposer)."""
    responds_to: Id | None = None
    """The proposal these terms counter, if one."""


class AcceptIn(_Body):
    """Accepting a proposal takes no fields (the key says whose acceptance it is): a body,
    when sent, is an empty object; any field in it is refused, naming it."""


class CounterEvidenceIn(_Body):
    """Counter-evidence addressed by the ``sha256:`` of its content (R7, R33)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    content_hash: Annotated[str, Field(pattern=SHA256_PATTERN)]
    """`sha256:` of the counter-evidence's content (R33)."""
    description: Terms
    """What the counter-evidence shows."""
    answers: Id | None = None
    """The evidence id it answers, if one."""


class CommitIn(_Body):
    """``sha256:`` over your nonce and choice (``accord.dcp07.negotiation.commitment``):
    draw and keep the nonce yourself, and reveal it later (R8)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    commitment: Annotated[str, Field(pattern=SHA256_PATTERN)]
    """`sha256:` over your nonce and choice (see accord.dcp07.negotiation.commitment)."""


class RevealIn(_Body):
    model_config = ConfigDict(use_attribute_docstrings=True)

    nonce_hex: Annotated[str, Field(min_length=64, max_length=256, pattern=r"^(?:[0-9a-f]{2})+$")]
    """The nonce you committed to, hex."""
    choice: Annotated[str, Field(min_length=1, max_length=MAX_CHOICE, pattern=NO_NUL)]
    """The choice you committed to."""


class NominateIn(_Body):
    """Candidates from the pre-approved arbitrator pool (R10)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    agent_ids: Annotated[list[Id], Field(min_length=1, max_length=MAX_NOMINEES)]
    """The arbitrators nominated, from the pre-approved pool (R10)."""


class RequiredActionIn(_Body):
    """What one party must do, and by when (R19, R20)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    agent_id: Id
    """The party that must act (an agent id, no whitespace, at most 256 characters)."""
    action: Terms
    """What it must do (1 to 20,000 characters)."""
    deadline: AwareDatetime
    """By when, with a time zone."""


class PrecedentIn(_Body):
    """A precedent the proposal applies; ``applicability`` ``departed`` with its reasoning
    for a departure (R25)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    jurisprudence_id: Id
    """The precedent's id (``jur:<uuid>``)."""
    applicability: Terms
    """How it applies; ``departed`` when the proposal departs from it (1 to 20,000 characters)."""
    departure_reasoning: Terms | None = None
    """Why the proposal departs: required with ``departed``, refused otherwise (R25)."""


class ProposedTermsIn(_Body):
    """A proposed §6 resolution's terms beyond its description (R19): the actions it
    requires, the compliance method and deadline (default: the last action's deadline), the
    precedents it applies."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    actions_required: Annotated[list[RequiredActionIn], Field(max_length=32)] = []
    """What each party must do, and by when (at most 32 actions)."""
    compliance_verification_method: Id = "audit_chain_review"
    """How compliance is checked (R20): ``audit_chain_review`` unless told."""
    compliance_deadline: AwareDatetime | None = None
    """By when compliance is checked: no earlier than any action's deadline (default: the
    last action's deadline)."""
    precedents_applied: Annotated[list[PrecedentIn], Field(max_length=32)] = []
    """The precedents the resolution applies or departs from (at most 32)."""

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

    model_config = ConfigDict(use_attribute_docstrings=True)

    question: Terms
    """The question the panel votes on."""
    positions: Annotated[dict[str, Terms], Field(min_length=1, max_length=MAX_RESPONDENTS + 1)]
    """Each party's argument, by agent id."""
    favours: Id
    """The party the proposed resolution finds for."""
    resolution: Terms
    """The resolution proposed to the panel."""


class PanelProposalIn(ProposedTermsIn):
    """A member's proposed §6 resolution, put to the panel in place of the one before (R14)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    favours: Id
    """The party the proposed resolution finds for."""
    description: Terms
    """The resolution's terms: its outcome's description (1 to 20,000 characters)."""


class VoteIn(_Body):
    model_config = ConfigDict(use_attribute_docstrings=True)

    vote: Literal["approve", "dissent"]
    """`approve` the proposed resolution, or `dissent`."""
    reasoning: Terms
    """Why the member votes so."""


class AppealDecisionIn(_Body):
    """The responsible principals' final, binding decision (R16)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    outcome: Terms
    """The principals' decision: the outcome the parties must follow."""
    reasoning: Terms
    """Why the principals decided so (recorded and signed)."""


# --- after a resolution: compliance (R20–R22), objections and stays (R27–R29) ---------------


class ComplianceReportIn(_Body):
    """The ledger entries (by seq) that show the key's agent did what the resolution
    required, and a short note (R20)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    entries: Annotated[
        list[Annotated[int, Field(ge=1, le=2**62)]],
        Field(min_length=1, max_length=MAX_REPORTED_ENTRIES),
    ]
    """The ledger entries (by seq) that show the actions done."""
    note: Annotated[str, Field(max_length=MAX_NOTE_CHARS, pattern=NO_NUL)] = ""
    """A short note on what was done."""


class GroundsIn(_Body):
    model_config = ConfigDict(use_attribute_docstrings=True)

    summary: Annotated[str, Field(min_length=1, max_length=MAX_SUMMARY_CHARS, pattern=NO_NUL)]
    """The grounds in a sentence."""
    detailed_reasoning: Annotated[
        str, Field(min_length=1, max_length=MAX_REASONING_CHARS, pattern=NO_NUL)
    ]
    """The grounds in full."""
    evidence_references: Annotated[list[Id], Field(max_length=MAX_REFERENCES)] = []
    """Evidence ids the objection relies on."""
    precedent_references: Annotated[list[Id], Field(max_length=MAX_REFERENCES)] = []
    """Precedent ids the objection relies on."""


class RemedyIn(_Body):
    model_config = ConfigDict(use_attribute_docstrings=True)

    type: Id
    """The kind of remedy asked for."""
    description: Annotated[str, Field(min_length=1, max_length=MAX_SUMMARY_CHARS, pattern=NO_NUL)]
    """The remedy in words."""


class ObjectionIn(_Body):
    """The key's agent objects to the dispute's resolution (R27): ``objection_type`` is
    substantive, procedural, precedent or rights (a rights objection goes to human appeal,
    R29)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    resolution_id: Id
    """The resolution objected to."""
    objection_type: Annotated[str, Field(max_length=64, pattern=NO_NUL)]
    """The objection's type (R28)."""
    grounds: GroundsIn
    """Why the party objects."""
    remedy: RemedyIn
    """What the party asks for instead."""


class StayIn(_Body):
    model_config = ConfigDict(use_attribute_docstrings=True)

    reason: Reason = ""
    """Why the stay is ordered or refused."""


# --- gaps closed for parity with the library ------------------------------------------------


class DisputeBatchIn(_Body):
    """Disputes filed in one transaction, each with the key's agent as complainant: all of
    them, or (one refused, its ``index`` named) none (``Accord.disputes.open_many``)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    filings: Annotated[list[DisputeOpenIn], Field(min_length=1, max_length=MAX_FILINGS_PER_CALL)]
    """The disputes to file, all or none."""


class DisputeBatchOut(BaseModel):
    """The disputes filed, in the order given."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    items: list[StoredDispute]
    """The disputes filed, in the order given."""


class DeliberateIn(_Body):
    """How many tokens each of the member's two model calls may use (positions swapped)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    max_tokens: Annotated[int, Field(ge=1, le=MAX_DELIBERATION_TOKENS)] = DEFAULT_MAX_TOKENS
    """The most tokens each of the member's model calls may use."""


class CrossCheckIn(_Body):
    """Each party's exported chain (``accord ledger tail --json``: an array of ledger
    entries), by party name, and the dispute to check (default: the one every chain
    references). Pure: nothing is read or written (R31)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    chains: Annotated[
        dict[
            Annotated[str, Field(min_length=1, max_length=256, pattern=NO_NUL)],
            Annotated[list[dict[str, Any]], Field(max_length=MAX_ENTRIES)],
        ],
        Field(min_length=1, max_length=MAX_PARTIES),
    ]
    """Each party's exported ledger chain (an array of entries), by party."""
    dispute_id: Annotated[str, Field(max_length=64, pattern=DISPUTE_ID_PATTERN)] | None = None
    """The dispute whose references to check, if one."""
