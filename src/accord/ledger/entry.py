"""Ledger entries: how one event is sealed (canonicalized, chained, signed) and re-checked.

An entry's signed body is ``{event_type, prev_hash, prev_hash_secondary, record, record_hash,
record_type, seq, signer_kid, timestamp}``; the signature covers
``UTF8("DCP-DISPUTE-SIG-v2") || 0x00 || canonical(body)``. The entry's canonical bytes are
the body plus its ``signature`` object; the next entry's ``prev_hash`` /
``prev_hash_secondary`` are SHA-256 / SHA3-256 over those bytes, and its Merkle leaf data
is the raw SHA-256 digest.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

from accord.crypto import (
    DISPUTE_SIG_TAG,
    ED25519,
    GENESIS,
    CanonicalizationError,
    Ed25519Signer,
    RecordSignature,
    canonical_bytes,
)
from accord.errors import ValidationError

ENTRY_RECORD_TYPE = "ledger_entry"
EVENT_TYPE_RULE = "lower-case letters, digits, '_' or '.', starting with a letter, at most 64"
_EVENT_TYPE = re.compile(r"^[a-z][a-z0-9_.]{0,63}$")
_TAG_PREFIX = DISPUTE_SIG_TAG.encode("utf-8") + b"\x00"
# Same bytes as canonical_bytes for values already known to be canonicalizable
# (the record was validated once; every other field is a string or an int we made).
_encode_trusted = json.JSONEncoder(
    ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False
).encode


@dataclass(frozen=True, slots=True)
class ChainHead:
    """What the next entry links to: the last sequence number and its two hashes."""

    seq: int
    entry_hash: str
    entry_hash_secondary: str

    @classmethod
    def genesis(cls) -> ChainHead:
        return cls(0, GENESIS, GENESIS)


@dataclass(frozen=True, slots=True)
class SealedEntry:
    """A signed entry ready to persist (the row of ``ledger_entries``)."""

    seq: int
    event_type: str
    timestamp: str
    signer_kid: str
    body: bytes
    signature: bytes
    entry_hash: str
    entry_hash_secondary: str

    def head(self) -> ChainHead:
        return ChainHead(self.seq, self.entry_hash, self.entry_hash_secondary)

    def row(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "event_type": self.event_type,
            "timestamp": self.timestamp,
            "signer_kid": self.signer_kid,
            "body": self.body,
            "signature": self.signature,
            "entry_hash": self.entry_hash,
            "entry_hash_secondary": self.entry_hash_secondary,
        }


class LedgerEntry(BaseModel):
    """One entry as read back from the ledger."""

    model_config = ConfigDict(frozen=True)

    seq: int
    event_type: str
    record: dict[str, Any]
    record_hash: str
    prev_hash: str
    prev_hash_secondary: str
    signer_kid: str
    timestamp: str
    signature: RecordSignature
    entry_hash: str

    def canonical(self) -> bytes:
        """The entry's canonical bytes (what the next entry's prev_hash covers)."""
        return entry_bytes(_body_of(self), self.signature.model_dump())

    def to_json_dict(self) -> dict[str, Any]:
        """The self-contained entry, as an auditor would receive it."""
        data = _body_of(self)
        data["signature"] = self.signature.model_dump()
        return data


def _body_of(entry: LedgerEntry) -> dict[str, Any]:
    return {
        "event_type": entry.event_type,
        "prev_hash": entry.prev_hash,
        "prev_hash_secondary": entry.prev_hash_secondary,
        "record": entry.record,
        "record_hash": entry.record_hash,
        "record_type": ENTRY_RECORD_TYPE,
        "seq": entry.seq,
        "signer_kid": entry.signer_kid,
        "timestamp": entry.timestamp,
    }


def validate_event_type(event_type: object) -> str:
    """Reject event types that are not short snake/dotted identifiers."""
    if not isinstance(event_type, str) or not _EVENT_TYPE.match(event_type):
        raise ValidationError(
            f"event_type {event_type!r} is invalid: {EVENT_TYPE_RULE}",
            code="ledger.bad_event_type",
            field="event_type",
            rule=EVENT_TYPE_RULE,
        )
    return event_type


def record_bytes(record: object) -> bytes:
    """Canonical bytes of a record, or a ValidationError naming the offending path."""
    if not isinstance(record, Mapping):
        raise ValidationError(
            "record must be a JSON object (a mapping with string keys)",
            code="ledger.bad_record",
            field="record",
            rule="a mapping",
        )
    try:
        return canonical_bytes(record)
    except CanonicalizationError as exc:
        raise CanonicalizationError(
            f"record cannot be signed: {exc.message}",
            code=exc.code,
            field="record",
            **{k: v for k, v in exc.context.items() if k != "field"},
        ) from exc


def entry_bytes(body: Mapping[str, Any], signature: Mapping[str, str]) -> bytes:
    """Canonical bytes of a whole entry (body plus signature object), from parsed values."""
    full = dict(body)
    full["signature"] = signature
    return _encode_trusted(full).encode("utf-8")


def signature_object(kid: str, sig: bytes) -> dict[str, str]:
    return {
        "alg": ED25519,
        "domain_sep": DISPUTE_SIG_TAG,
        "kid": kid,
        "sig_b64": base64.b64encode(sig).decode("ascii"),
    }


def signature_json(kid: str, sig: bytes) -> bytes:
    return b'{"alg":"ed25519","domain_sep":"DCP-DISPUTE-SIG-v2","kid":"%s","sig_b64":"%s"}' % (
        kid.encode("ascii"),
        base64.b64encode(sig),
    )


def splice_signature(body: bytes, kid: str, sig: bytes) -> bytes:
    """Canonical bytes of the whole entry from its canonical body bytes.

    Keys are sorted, so ``"signature"`` sits between ``"seq"`` and ``"signer_kid"``; the
    top-level ``,"signer_kid":`` is the last one in the body (the record comes earlier, and
    inside JSON strings a quote is always escaped), so inserting there yields exactly
    ``canonical(body + signature)`` — proven by a property test.
    """
    at = body.rfind(b',"signer_kid":"')
    return body[:at] + b',"signature":' + signature_json(kid, sig) + body[at:]


def record_slice(body: bytes) -> bytes:
    """The record's canonical bytes inside a canonical body (between two known keys)."""
    start = body.index(b',"record":') + 10
    return body[start : body.rfind(b',"record_hash":"')]


def body_bytes(
    event_type: str,
    prev: tuple[str, str],
    record: bytes,
    record_hash: str,
    seq: int,
    kid: str,
    timestamp: str,
) -> bytes:
    # Every field but the record is drawn from an alphabet JSON never escapes (validated
    # event type, hex hashes, hex kid, ISO time), so the canonical form can be assembled.
    # UTF-8 (not ASCII) so a hand-edited column read back by ``verify`` mismatches, not crashes.
    return b"".join(
        (
            b'{"event_type":"',
            event_type.encode(),
            b'","prev_hash":"',
            prev[0].encode(),
            b'","prev_hash_secondary":"',
            prev[1].encode(),
            b'","record":',
            record,
            b',"record_hash":"',
            record_hash.encode(),
            b'","record_type":"ledger_entry","seq":',
            str(seq).encode(),
            b',"signer_kid":"',
            kid.encode(),
            b'","timestamp":"',
            timestamp.encode(),
            b'"}',
        )
    )


def seal(
    seq: int,
    event_type: str,
    record_canonical: bytes,
    prev: ChainHead,
    signer: Ed25519Signer,
    timestamp: str,
) -> SealedEntry:
    """Build, sign and hash entry ``seq`` after ``prev`` (pure apart from signing)."""
    record_hash = "sha256:" + hashlib.sha256(record_canonical).hexdigest()
    kid = signer.kid
    body = body_bytes(
        event_type,
        (prev.entry_hash, prev.entry_hash_secondary),
        record_canonical,
        record_hash,
        seq,
        kid,
        timestamp,
    )
    sig = signer.sign(_TAG_PREFIX + body)
    full = splice_signature(body, kid, sig)
    return SealedEntry(
        seq=seq,
        event_type=event_type,
        timestamp=timestamp,
        signer_kid=kid,
        body=body,
        signature=sig,
        entry_hash="sha256:" + hashlib.sha256(full).hexdigest(),
        entry_hash_secondary="sha3-256:" + hashlib.sha3_256(full).hexdigest(),
    )


def entry_from_row(row: Mapping[Any, Any]) -> LedgerEntry:
    """Rebuild the public view of a stored row (no verification; see ``verify``)."""
    body = json.loads(row["body"])
    return LedgerEntry.model_construct(
        seq=body["seq"],
        event_type=body["event_type"],
        record=body["record"],
        record_hash=body["record_hash"],
        prev_hash=body["prev_hash"],
        prev_hash_secondary=body["prev_hash_secondary"],
        signer_kid=body["signer_kid"],
        timestamp=body["timestamp"],
        signature=RecordSignature(**signature_object(body["signer_kid"], bytes(row["signature"]))),
        entry_hash=row["entry_hash"],
    )
