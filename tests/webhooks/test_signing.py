"""A receiver's check: the signature over the exact body, a fresh timestamp, a new id."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from accord.webhooks import WebhookRefused, signed_headers, verify_delivery

SECRET = "whsec_test-secret-0123456789"
NOW = datetime(2026, 12, 6, 5, 0, tzinfo=UTC)
BODY = b'{"delivery_id":"dlv:1","event":"item.decided","data":{"item_id":"apr:1"}}'


def _headers(body: bytes = BODY, at: datetime = NOW, secret: str = SECRET) -> dict[str, str]:
    return signed_headers(secret, int(at.timestamp()), body, "dlv:1", "item.decided")


def test_a_signed_delivery_verifies_and_names_its_id_and_event() -> None:
    delivery = verify_delivery(SECRET, _headers(), BODY, NOW, 300)
    assert (delivery.delivery_id, delivery.event) == ("dlv:1", "item.decided")
    assert delivery.payload["data"] == {"item_id": "apr:1"}


def test_the_signature_header_reads_t_then_v1_over_timestamp_dot_body() -> None:
    import hashlib
    import hmac

    t = int(NOW.timestamp())
    expected = hmac.new(SECRET.encode(), f"{t}.".encode() + BODY, hashlib.sha256).hexdigest()
    assert _headers()["Accord-Signature"] == f"t={t},v1={expected}"


@pytest.mark.parametrize(
    ("headers", "body", "rule"),
    [
        (_headers(), BODY.replace(b"apr:1", b"apr:2"), "HMAC"),
        (_headers(secret="whsec_another-secret-000000"), BODY, "HMAC"),
        (_headers(at=NOW - timedelta(seconds=301)), BODY, "within 300"),
        (_headers(at=NOW + timedelta(seconds=301)), BODY, "within 300"),
        ({**_headers(), "Accord-Signature": "v1=abc"}, BODY, "t=<unix>"),
        ({k: v for k, v in _headers().items() if k != "Accord-Delivery-Id"}, BODY, "present"),
    ],
    ids=["tampered body", "wrong secret", "old", "future", "malformed", "no id"],
)
def test_a_tampered_stale_or_malformed_delivery_is_refused(
    headers: dict[str, str], body: bytes, rule: str
) -> None:
    with pytest.raises(WebhookRefused) as refused:
        verify_delivery(SECRET, headers, body, NOW, 300)
    assert rule in refused.value.context["rule"]


def test_a_replayed_delivery_id_is_refused_even_when_freshly_signed() -> None:
    seen: set[str] = set()
    verify_delivery(SECRET, _headers(), BODY, NOW, 300, seen=seen)
    later = NOW + timedelta(seconds=60)  # a retry: same id, new timestamp
    with pytest.raises(WebhookRefused) as refused:
        verify_delivery(SECRET, _headers(at=later), BODY, later, 300, seen=seen)
    assert refused.value.code == "webhooks.replayed"
    assert seen == {"dlv:1"}


def test_a_refused_delivery_is_not_remembered_as_seen() -> None:
    seen: set[str] = set()
    with pytest.raises(WebhookRefused):
        verify_delivery(SECRET, _headers(), BODY + b" ", NOW, 300, seen=seen)
    assert seen == set()
