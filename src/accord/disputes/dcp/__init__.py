"""DCP-07 records: the §4 dispute, §6 resolution and §8 objection records, typed and frozen.

Signed under ``DCP-DISPUTE-SIG-v2`` (:func:`signed`, :func:`cosigned`), chained to the previous
ledger entry (:func:`chain_link`), published as JSON Schemas (:func:`schema_files`), exported
to and imported from the reference SDK's smaller format, and checked against the requirement
list by the conformance table; the flooding rules of R33/R34 are checked on filing. Pure
logic: no I/O except the schema and conformance writers.
"""

from accord.disputes.dcp.chain import ChainLink, chain_link, chain_link_at, verify_chain_link
from accord.disputes.dcp.dispute_record import (
    DisputeRecord,
    PrecedentCitation,
    Subject,
    TimelineEvent,
)
from accord.disputes.dcp.documents import (
    DcpRecord,
    read_any_record,
    read_record,
    record_canonical_bytes,
    record_document,
)
from accord.disputes.dcp.evidence_check import evidence_content_hash, verified_evidence
from accord.disputes.dcp.evidence_item import EvidenceItem
from accord.disputes.dcp.filing_rules import (
    FilingPolicy,
    PastFiling,
    check_filing,
    evidence_bar,
    filing_policy,
    filing_score,
)
from accord.disputes.dcp.json_schemas import DCP07_MODELS, schema_files
from accord.disputes.dcp.objection_record import Grounds, ObjectionRecord, RequestedRemedy
from accord.disputes.dcp.parties import ObjectingParty, Party
from accord.disputes.dcp.resolution_record import (
    Outcome,
    Panel,
    PanelMember,
    PrecedentApplication,
    RequiredAction,
    ResolutionRecord,
    Threshold,
)
from accord.disputes.dcp.sdk_export import (
    export_dispute,
    export_objection,
    export_resolution,
    sdk_document,
)
from accord.disputes.dcp.sdk_format import (
    SdkArbitrationResolution,
    SdkDisputeRecord,
    SdkObjectionRecord,
)
from accord.disputes.dcp.sdk_import import import_dispute, import_objection, import_resolution
from accord.disputes.dcp.signature_fields import DisputeSignature, SignerSignature
from accord.disputes.dcp.signing import cosigned, signed, verify_resolution, verify_signed
from accord.disputes.dcp.vocabulary import (
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
    "ChainLink",
    "DcpRecord",
    "DisputeRecord",
    "DisputeSignature",
    "EvidenceItem",
    "FilingPolicy",
    "Grounds",
    "ObjectingParty",
    "ObjectionRecord",
    "ObjectionStatus",
    "ObjectionType",
    "Outcome",
    "Panel",
    "PanelMember",
    "Party",
    "PastFiling",
    "PrecedentApplication",
    "PrecedentCitation",
    "RecordType",
    "RequestedRemedy",
    "RequiredAction",
    "ResolutionRecord",
    "ResolutionType",
    "SdkArbitrationResolution",
    "SdkDisputeRecord",
    "SdkObjectionRecord",
    "SignerSignature",
    "Subject",
    "Threshold",
    "TimelineEvent",
    "Vote",
    "chain_link",
    "chain_link_at",
    "check_filing",
    "cosigned",
    "evidence_bar",
    "evidence_content_hash",
    "export_dispute",
    "export_objection",
    "export_resolution",
    "filing_policy",
    "filing_score",
    "import_dispute",
    "import_objection",
    "import_resolution",
    "read_any_record",
    "read_record",
    "record_canonical_bytes",
    "record_document",
    "schema_files",
    "sdk_document",
    "signed",
    "verified_evidence",
    "verify_chain_link",
    "verify_resolution",
    "verify_signed",
]
