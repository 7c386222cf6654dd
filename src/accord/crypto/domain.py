"""Domain separation: a signature made for one purpose never verifies for another."""

from __future__ import annotations

from accord.errors import ValidationError

DISPUTE_SIG_TAG = "DCP-DISPUTE-SIG-v2"
"""Tag of the signed bytes of Accord's own records."""

DCP_DISPUTE_CONTEXT = "DCP-AI.v2.Dispute"
"""Context of composite signatures on records exported in the DCP SDK format."""


def domain_separated_message(tag: str, canonical: bytes) -> bytes:
    """``UTF8(tag) || 0x00 || canonical``; ``tag`` must be non-empty and free of NUL."""
    if not tag or "\x00" in tag:
        raise ValidationError(
            f"invalid domain separation tag {tag!r}",
            code="domain.invalid_tag",
            field="tag",
            rule="a domain separation tag is non-empty and contains no NUL character",
        )
    return tag.encode("utf-8") + b"\x00" + canonical
