"""Standard padded base64, the encoding of keys and signatures in DCP JSON."""

from __future__ import annotations

import base64
import binascii


def b64encode(data: bytes) -> str:
    """Standard base64 with padding, as ASCII text."""
    return base64.b64encode(data).decode("ascii")


def b64decode(text: str) -> bytes:
    """Strict standard base64; ``ValueError`` on a non-alphabet character or bad padding."""
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError) as exc:
        raise ValueError(f"not standard base64: {exc}") from exc
