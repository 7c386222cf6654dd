"""The ``Idempotency-Key`` header, and keys scoped to the caller that sent them."""

from __future__ import annotations

import hashlib
from typing import Annotated

from litestar.params import HeaderParameter

from accord.api.api_keys import ApiKey

MAX_HEADER_KEY = 200

IdempotencyKeyHeader = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        min_length=1,
        max_length=MAX_HEADER_KEY,
        description="A retry with the same key and the same request returns the stored "
        "result and writes nothing; the same key with a different request is refused (409).",
        required=False,
    ),
]


def caller_scoped(key: ApiKey, value: str | None) -> str | None:
    """``value`` as the library key of this caller: the same string sent by another agent or
    principal is another key (it can neither replay nor block theirs)."""
    if value is None:
        return None
    who = key.agent_id or key.principal_id or key.key_id
    scope = hashlib.sha256(f"{key.role.value}:{who}".encode()).hexdigest()[:16]
    return f"http:{scope}:{value}"
