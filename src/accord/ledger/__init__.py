"""The signed, hash-chained, Merkle-checkpointed ledger every Accord event goes into."""

from accord.ledger.anchor import (
    checkpoint_file_text,
    read_anchor_file,
    read_checkpoint_file,
    write_checkpoint_file,
)
from accord.ledger.api_key_events import (
    API_KEY_EVENTS,
    API_KEY_FIELDS,
    API_KEY_ISSUED,
    API_KEY_REVOKED,
    api_key_record,
    record_api_key_event,
)
from accord.ledger.checkpoint import Checkpoint
from accord.ledger.entry import ChainHead, LedgerEntry, SealedEntry
from accord.ledger.key_events import KEY_ROLES, KeyRegistered, KeyRevoked, KeyRole
from accord.ledger.key_registry import KeyRegistry, RegisteredKey
from accord.ledger.ledger import Ledger, PreparedEvent
from accord.ledger.proofs import ConsistencyProof, InclusionProof
from accord.ledger.trust import TrustRoot
from accord.ledger.verify import VerificationReport

__all__ = [
    "API_KEY_EVENTS",
    "API_KEY_FIELDS",
    "API_KEY_ISSUED",
    "API_KEY_REVOKED",
    "KEY_ROLES",
    "ChainHead",
    "Checkpoint",
    "ConsistencyProof",
    "InclusionProof",
    "KeyRegistered",
    "KeyRegistry",
    "KeyRevoked",
    "KeyRole",
    "Ledger",
    "LedgerEntry",
    "PreparedEvent",
    "RegisteredKey",
    "SealedEntry",
    "TrustRoot",
    "VerificationReport",
    "api_key_record",
    "checkpoint_file_text",
    "read_anchor_file",
    "read_checkpoint_file",
    "record_api_key_event",
    "write_checkpoint_file",
]
