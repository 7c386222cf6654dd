"""DCP-07 records: the §4 dispute, §6 resolution and §8 objection records, typed and frozen.

Signed under ``DCP-DISPUTE-SIG-v2`` (:func:`signed`, :func:`cosigned`), chained to the previous
ledger entry (:func:`chain_link`), published as JSON Schemas (:func:`schema_files`), exported
to and imported from the reference SDK's smaller format, and checked against the requirement
list by the conformance table; the flooding rules of R33/R34 are checked on filing. Pure
logic: no I/O except the schema and conformance writers.
"""

from accord.dcp07.chain import ChainLink, chain_link, chain_link_at, verify_chain_link
from accord.dcp07.cross_chain import (
    MAX_ENTRIES,
    MAX_PARTIES,
    CrossChainReport,
    ExportedEntry,
    cross_check,
    entries_of,
    parse_exported_chain,
)
from accord.dcp07.dispute_record import (
    DisputeRecord,
    PrecedentCitation,
    Subject,
    TimelineEvent,
)
from accord.dcp07.documents import (
    DcpRecord,
    read_any_record,
    read_record,
    record_canonical_bytes,
    record_document,
)
from accord.dcp07.evidence_check import evidence_content_hash, verified_evidence
from accord.dcp07.evidence_item import EvidenceItem
from accord.dcp07.fields import SHA256_PATTERN, UUID_PATTERN
from accord.dcp07.filing_rules import (
    FilingPolicy,
    PastFiling,
    check_filing,
    evidence_bar,
    filing_policy,
    filing_score,
)
from accord.dcp07.json_schemas import (
    DCP07_MODELS,
    schema_files,
    stale_schema_files,
    write_schema_files,
)
from accord.dcp07.negotiation import (
    CoinFlip,
    CoinOutcome,
    Negotiation,
    Proposal,
    commitment,
    new_nonce,
)
from accord.dcp07.objection_record import Grounds, ObjectionRecord, RequestedRemedy
from accord.dcp07.panels import PanelFormation, PanelTally, PanelVote, VoteChoice
from accord.dcp07.parties import ObjectingParty, Party
from accord.dcp07.refusal import from_pydantic
from accord.dcp07.resolution_record import (
    Outcome,
    Panel,
    PanelMember,
    PrecedentApplication,
    RequiredAction,
    ResolutionRecord,
    Threshold,
)
from accord.dcp07.sdk_export import (
    export_bundle,
    export_dispute,
    export_objection,
    export_resolution,
    sdk_document,
)
from accord.dcp07.sdk_format import (
    SdkArbitrationResolution,
    SdkDisputeRecord,
    SdkJurisprudenceBundle,
    SdkObjectionRecord,
)
from accord.dcp07.sdk_import import import_dispute, import_objection, import_resolution
from accord.dcp07.signature_fields import DisputeSignature, SignerSignature
from accord.dcp07.signing import cosigned, signed, verify_resolution, verify_signed
from accord.dcp07.statuses import CaseStatus
from accord.dcp07.vocabulary import (
    DCP_VERSION,
    ObjectionStatus,
    ObjectionType,
    RecordType,
    ResolutionType,
    Vote,
)

__all__ = [
    "DCP07_MODELS",
    "DCP_VERSION",
    "MAX_ENTRIES",
    "MAX_PARTIES",
    "SHA256_PATTERN",
    "UUID_PATTERN",
    "CaseStatus",
    "ChainLink",
    "CoinFlip",
    "CoinOutcome",
    "CrossChainReport",
    "DcpRecord",
    "DisputeRecord",
    "DisputeSignature",
    "EvidenceItem",
    "ExportedEntry",
    "FilingPolicy",
    "Grounds",
    "Negotiation",
    "ObjectingParty",
    "ObjectionRecord",
    "ObjectionStatus",
    "ObjectionType",
    "Outcome",
    "Panel",
    "PanelFormation",
    "PanelMember",
    "PanelTally",
    "PanelVote",
    "Party",
    "PastFiling",
    "PrecedentApplication",
    "PrecedentCitation",
    "Proposal",
    "RecordType",
    "RequestedRemedy",
    "RequiredAction",
    "ResolutionRecord",
    "ResolutionType",
    "SdkArbitrationResolution",
    "SdkDisputeRecord",
    "SdkJurisprudenceBundle",
    "SdkObjectionRecord",
    "SignerSignature",
    "Subject",
    "Threshold",
    "TimelineEvent",
    "Vote",
    "VoteChoice",
    "chain_link",
    "chain_link_at",
    "check_filing",
    "commitment",
    "cosigned",
    "cross_check",
    "entries_of",
    "evidence_bar",
    "evidence_content_hash",
    "export_bundle",
    "export_dispute",
    "export_objection",
    "export_resolution",
    "filing_policy",
    "filing_score",
    "from_pydantic",
    "import_dispute",
    "import_objection",
    "import_resolution",
    "new_nonce",
    "parse_exported_chain",
    "read_any_record",
    "read_record",
    "record_canonical_bytes",
    "record_document",
    "schema_files",
    "sdk_document",
    "signed",
    "stale_schema_files",
    "verified_evidence",
    "verify_chain_link",
    "verify_resolution",
    "verify_signed",
    "write_schema_files",
]
