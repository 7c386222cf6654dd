"""The signed, hash-chained, Merkle-checkpointed ledger every Accord event goes into."""

from accord.ledger.checkpoint import Checkpoint
from accord.ledger.entry import ChainHead, LedgerEntry, SealedEntry
from accord.ledger.ledger import Ledger, PreparedEvent
from accord.ledger.proofs import ConsistencyProof, InclusionProof
from accord.ledger.verify import VerificationReport

__all__ = [
    "ChainHead",
    "Checkpoint",
    "ConsistencyProof",
    "InclusionProof",
    "Ledger",
    "LedgerEntry",
    "PreparedEvent",
    "SealedEntry",
    "VerificationReport",
]
