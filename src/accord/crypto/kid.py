"""Key ids as the DCP v2 SDKs derive them, so a kid names one key of one algorithm."""

from __future__ import annotations

import hashlib
from typing import Final

ED25519: Final = "ed25519"
ML_DSA_65: Final = "ml-dsa-65"


def derive_kid(alg: str, public_key: bytes) -> str:
    """First 32 hex characters of ``SHA-256(UTF8(alg) || 0x00 || raw_public_key)``."""
    return hashlib.sha256(alg.encode("utf-8") + b"\x00" + public_key).hexdigest()[:32]
