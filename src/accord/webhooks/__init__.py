"""Webhooks: signed pushes of what agents and people wait for (docs/webhooks.md).

Subscriptions and the outbox (``outbox.py``; rows written in the transaction of the event),
one delivery pass with retries and backoff (``delivery.py``), the signature both ends use and
the receiver's check :func:`verify_delivery` (``signing.py``), the ``webhooks:`` settings.
"""

from accord.webhooks.delivery import Deliverer, DeliveryReport
from accord.webhooks.outbox import Event, Outbox, Subscription
from accord.webhooks.settings import WEBHOOK_EVENTS, WebhookSettings, WebhookTarget, check_url
from accord.webhooks.signing import (
    DELIVERY_ID_HEADER,
    SIGNATURE_HEADER,
    VerifiedDelivery,
    WebhookRefused,
    signature,
    signed_headers,
    verify_delivery,
)

__all__ = [
    "DELIVERY_ID_HEADER",
    "SIGNATURE_HEADER",
    "WEBHOOK_EVENTS",
    "Deliverer",
    "DeliveryReport",
    "Event",
    "Outbox",
    "Subscription",
    "VerifiedDelivery",
    "WebhookRefused",
    "WebhookSettings",
    "WebhookTarget",
    "check_url",
    "signature",
    "signed_headers",
    "verify_delivery",
]
