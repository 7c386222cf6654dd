"""The one byte layout behind every hash of DCP-07 randomness (coin commits, coin outcomes,
panel seeds, draws): a domain tag, then length-prefixed fields.

``framed(tag, f1, f2, ...) = UTF8(tag) || 0x00 || u32be(len(f1)) || f1 || u32be(len(f2)) || f2 ...``

The tag keeps a hash made for one purpose from ever matching one made for another; the
length prefixes keep two different field lists from ever producing the same bytes
(``("ab", "c")`` and ``("a", "bc")`` frame differently).
"""

from __future__ import annotations

from accord.crypto.domain import domain_separated_message

_MAX_FIELD = (1 << 32) - 1


def framed(tag: str, *fields: bytes) -> bytes:
    """``UTF8(tag) || 0x00 || (u32be(len(field)) || field)*``."""
    parts: list[bytes] = []
    for field in fields:
        if len(field) > _MAX_FIELD:
            raise ValueError("a framed field is at most 2**32 - 1 bytes")
        parts.append(len(field).to_bytes(4, "big"))
        parts.append(field)
    return domain_separated_message(tag, b"".join(parts))


def utf8(text: str) -> bytes:
    """``text`` as UTF-8 bytes (the encoding of every text field in a frame)."""
    return text.encode("utf-8")
