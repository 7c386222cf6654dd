"""The webhook signature, for both ends: Accord signs each attempt, a receiver verifies.

``Accord-Signature: t=<unix seconds>,v1=<hex>`` where ``v1`` is HMAC-SHA256, keyed with the
subscription's secret, over ``<t>.<body>`` (the exact body bytes). ``Accord-Delivery-Id``
names the delivery; every retry of one event carries the same id (and a fresh ``t``), so a
receiver dedupes by id and refuses old timestamps. :func:`verify_delivery` does all three.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping, MutableSet
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from accord.errors import AccordError

SIGNATURE_HEADER = "Accord-Signature"
DELIVERY_ID_HEADER = "Accord-Delivery-Id"
EVENT_HEADER = "Accord-Event"
DEFAULT_TOLERANCE_SECONDS = 300.0
MAX_BODY_BYTES = 1_000_000


class WebhookRefused(AccordError):
    """A delivery failed verification: bad or missing signature, old timestamp, replayed id."""

    code = "webhooks.refused"


class VerifiedDelivery(BaseModel):
    """A delivery that passed :func:`verify_delivery`."""

    model_config = ConfigDict(frozen=True)

    delivery_id: str
    timestamp: int
    event: str
    payload: dict[str, Any]


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The hex HMAC-SHA256 of ``<timestamp>.<body>`` under ``secret``."""
    signed = str(timestamp).encode("ascii") + b"." + body
    return hmac.new(secret.encode("utf-8"), signed, hashlib.sha256).hexdigest()


def signed_headers(
    secret: str, timestamp: int, body: bytes, delivery_id: str, event: str
) -> dict[str, str]:
    """The headers of one delivery attempt."""
    return {
        "Content-Type": "application/json",
        DELIVERY_ID_HEADER: delivery_id,
        EVENT_HEADER: event,
        SIGNATURE_HEADER: f"t={timestamp},v1={signature(secret, timestamp, body)}",
    }


def verify_delivery(
    secret: str,
    headers: Mapping[str, str],
    body: bytes,
    now: datetime,
    tolerance: float = DEFAULT_TOLERANCE_SECONDS,
    *,
    seen: MutableSet[str] | None = None,
) -> VerifiedDelivery:
    """Check a delivery as received: the signature over the exact ``body``, a timestamp
    within ``tolerance`` seconds of ``now``, and (given ``seen``, the ids this receiver has
    already accepted) an id not seen before; the id is added to ``seen`` once all passed.
    Raises :class:`WebhookRefused` naming the rule broken."""
    lowered = {k.lower(): v for k, v in headers.items()}
    delivery_id = lowered.get(DELIVERY_ID_HEADER.lower(), "")
    if not delivery_id or len(delivery_id) > 64:
        raise WebhookRefused("no delivery id", field=DELIVERY_ID_HEADER, rule="present, ≤ 64 chars")
    if len(body) > MAX_BODY_BYTES:
        raise WebhookRefused("body too large", field="body", rule=f"≤ {MAX_BODY_BYTES} bytes")
    timestamp, given = _parse(lowered.get(SIGNATURE_HEADER.lower(), ""))
    if not hmac.compare_digest(given, signature(secret, timestamp, body)):
        raise WebhookRefused(
            "signature does not match", field=SIGNATURE_HEADER, rule="HMAC-SHA256 over <t>.<body>"
        )
    if abs(now.timestamp() - timestamp) > tolerance:
        raise WebhookRefused(
            "timestamp outside the tolerance",
            field=SIGNATURE_HEADER,
            rule=f"within {tolerance} s of now",
        )
    if seen is not None and delivery_id in seen:
        raise WebhookRefused(
            f"delivery {delivery_id} was already accepted",
            code="webhooks.replayed",
            field=DELIVERY_ID_HEADER,
            rule="each delivery id is accepted once",
        )
    try:
        payload = json.loads(body)
    except ValueError as exc:
        raise WebhookRefused("body is not JSON", field="body", rule="a JSON object") from exc
    if not isinstance(payload, dict):
        raise WebhookRefused("body is not a JSON object", field="body", rule="a JSON object")
    if seen is not None:
        seen.add(delivery_id)
    return VerifiedDelivery(
        delivery_id=delivery_id,
        timestamp=timestamp,
        event=str(payload.get("event", "")),
        payload=payload,
    )


def _parse(header: str) -> tuple[int, str]:
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    t, v1 = parts.get("t", ""), parts.get("v1", "")
    if not t.isdigit() or len(t) > 12 or len(v1) != 64:
        raise WebhookRefused(
            "malformed signature header", field=SIGNATURE_HEADER, rule="t=<unix>,v1=<64 hex>"
        )
    return int(t), v1
