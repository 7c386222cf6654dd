"""The constrained strings DCP-07 records are made of: ids, hashes, timestamps, names.

Each is an ``Annotated`` type, so the constraint shows in the generated JSON Schemas too.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Final

from pydantic import AfterValidator, Field, StrictInt

from accord.crypto import GENESIS

UUID_PATTERN: Final = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
SHA256_PATTERN: Final = r"^sha256:[0-9a-f]{64}$"
SHA3_256_PATTERN: Final = r"^sha3-256:[0-9a-f]{64}$"
TIMESTAMP_PATTERN: Final = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$"
KID_PATTERN: Final = r"^[0-9a-f]{32}$"


def _real_instant(text: str) -> str:
    """Refuse a timestamp that matches the pattern but names no instant (month 13)."""
    datetime.fromisoformat(text.replace("Z", "+00:00"))
    return text


DisputeId = Annotated[str, Field(pattern=rf"^disp:{UUID_PATTERN}$")]
"""``disp:<uuid>`` (R5)."""

ResolutionId = Annotated[str, Field(pattern=rf"^res:{UUID_PATTERN}$")]
"""``res:<uuid>`` (R19)."""

ObjectionId = Annotated[str, Field(pattern=rf"^obj:{UUID_PATTERN}$")]
"""``obj:<uuid>`` (R27)."""

JurisprudenceId = Annotated[str, Field(pattern=rf"^jur:{UUID_PATTERN}$")]
"""``jur:<uuid>`` (R23)."""

Sha256Hash = Annotated[str, Field(pattern=SHA256_PATTERN)]
"""``sha256:<64 lower-case hex>``: evidence content hashes, reasoning hashes (R5, R19, R33)."""

PrevHash = Annotated[str, Field(pattern=rf"^(sha256:[0-9a-f]{{64}}|{GENESIS})$")]
"""``sha256:`` over the previous ledger entry's canonical bytes, or ``GENESIS`` first."""

PrevHashSecondary = Annotated[str, Field(pattern=rf"^(sha3-256:[0-9a-f]{{64}}|{GENESIS})$")]
"""``sha3-256:`` over the previous ledger entry's canonical bytes, or ``GENESIS`` first."""

Timestamp = Annotated[
    str,
    Field(pattern=TIMESTAMP_PATTERN, json_schema_extra={"format": "date-time"}),
    AfterValidator(_real_instant),
]
"""An RFC 3339 UTC instant ending in ``Z``, as :func:`accord.clock.isoformat` writes it."""

Identifier = Annotated[str, Field(min_length=1, max_length=256, pattern=r"^\S+$")]
"""An agent, principal, organisation or other reference id: no whitespace."""

Text = Annotated[str, Field(min_length=1, max_length=65_536)]
"""Human-readable prose that must say something."""

Kid = Annotated[str, Field(pattern=KID_PATTERN)]
"""A key id: the first 32 hex characters of ``SHA-256(alg || 0x00 || public_key)``."""

Count = Annotated[StrictInt, Field(ge=0)]
"""A non-negative integer; a float is refused (dcp-jcs-v1 signs integers only)."""
