"""Digests in the forms Accord's records carry: bare hex, ``sha256:<hex>``, ``sha3-256:<hex>``."""

from __future__ import annotations

import hashlib

from accord.crypto.canonical import canonical_bytes

GENESIS = "GENESIS"
"""The predecessor hash of a ledger's first entry, for both prev_hash fields."""

SHA256_PREFIX = "sha256:"
SHA3_256_PREFIX = "sha3-256:"


def sha256_hex(data: bytes) -> str:
    """Lower-case hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def sha3_256_hex(data: bytes) -> str:
    """Lower-case hex SHA3-256 of ``data``."""
    return hashlib.sha3_256(data).hexdigest()


def sha256_prefixed(data: bytes) -> str:
    """``"sha256:<hex>"`` of ``data``."""
    return SHA256_PREFIX + hashlib.sha256(data).hexdigest()


def sha3_256_prefixed(data: bytes) -> str:
    """``"sha3-256:<hex>"`` of ``data``."""
    return SHA3_256_PREFIX + hashlib.sha3_256(data).hexdigest()


def dual_hash(data: bytes) -> tuple[str, str]:
    """``(sha256_prefixed(data), sha3_256_prefixed(data))``: primary and secondary hash."""
    return sha256_prefixed(data), sha3_256_prefixed(data)


def content_hash(value: object) -> str:
    """``sha256:<hex>`` of the canonical bytes of ``value``."""
    return sha256_prefixed(canonical_bytes(value))
