"""One delivery pass: claim due rows, POST each signed body to its subscription's URL (no
redirects followed), record the attempt; failures wait ``backoff · 2^(attempts-1)`` (capped)
and give up after ``max_attempts``. Runs outside every deciding transaction: a receiver that
is down delays its deliveries, never a decision.

A row is claimed by moving its ``next_attempt_at`` past the attempt's timeout with a
compare-and-set, so two processes never send the same attempt at once.
"""

from __future__ import annotations

from datetime import timedelta

import httpx
from pydantic import BaseModel, ConfigDict
from sqlalchemy import select, update

from accord.clock import Clock, isoformat
from accord.log import get_logger
from accord.store import Database
from accord.store.tables import webhook_deliveries, webhook_subscriptions
from accord.webhooks.outbox import PENDING, Outbox
from accord.webhooks.settings import WebhookSettings
from accord.webhooks.signing import signed_headers

log = get_logger("accord.webhooks")
_CLAIM_MARGIN = timedelta(seconds=30)


class DeliveryReport(BaseModel):
    """What one pass did."""

    model_config = ConfigDict(frozen=True)

    queued: int = 0
    delivered: int = 0
    retrying: int = 0
    failed: int = 0


class Deliverer:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        outbox: Outbox,
        settings: WebhookSettings,
        *,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        """``transport`` is httpx's (tests pass a ``MockTransport``); the default sends."""
        self._db = db
        self._clock = clock
        self._outbox = outbox
        self._settings = settings
        # no redirects, no proxies or .netrc from the environment: only the configured URL
        self._client = httpx.Client(
            transport=transport,
            follow_redirects=False,
            timeout=settings.timeout_seconds,
            trust_env=False,
        )

    def close(self) -> None:
        self._client.close()

    def run_once(self) -> DeliveryReport:
        """Queue near deadlines, then attempt every due delivery (up to ``batch``)."""
        queued = self._outbox.enqueue_near_deadlines(
            timedelta(seconds=self._settings.deadline_warning_seconds)
        )
        counts = {"delivered": 0, "retrying": 0, "failed": 0}
        for claimed in self._claim():
            counts[self._attempt(*claimed)] += 1
        return DeliveryReport(queued=queued, **counts)

    def _claim(self) -> list[tuple[str, str, str, str, str, int]]:
        now = self._clock.now()
        lease = isoformat(now + timedelta(seconds=self._settings.timeout_seconds) + _CLAIM_MARGIN)
        d, s = webhook_deliveries.c, webhook_subscriptions.c
        claimed = []
        with self._db.write() as conn:
            due = conn.execute(
                select(
                    d.delivery_id, d.event, d.body, d.attempts, d.next_attempt_at, s.url, s.secret
                )
                .join(webhook_subscriptions, s.subscription_id == d.subscription_id)
                .where(d.state == PENDING, d.next_attempt_at <= isoformat(now))
                .order_by(d.next_attempt_at, d.delivery_id)
                .limit(self._settings.batch)
            ).all()
            for row in due:
                won = conn.execute(
                    update(webhook_deliveries)
                    .where(d.delivery_id == row.delivery_id, d.state == PENDING)
                    .where(d.next_attempt_at == row.next_attempt_at)
                    .values(next_attempt_at=lease)
                ).rowcount
                if won:
                    claimed.append(
                        (row.delivery_id, row.event, row.body, row.url, row.secret, row.attempts)
                    )
        return claimed

    def _attempt(
        self, delivery_id: str, event: str, body: str, url: str, secret: str, attempts: int
    ) -> str:
        raw = body.encode("utf-8")
        at = self._clock.now()
        headers = signed_headers(secret, int(at.timestamp()), raw, delivery_id, event)
        status: int | None = None
        try:
            with self._client.stream("POST", url, content=raw, headers=headers) as answer:
                status = answer.status_code  # the answer's body is never read
                error = None if 200 <= status < 300 else _refusal(answer)
        except httpx.HTTPError as exc:
            error = f"{type(exc).__name__}: {exc}"[:500]
        attempts += 1
        values: dict[str, object] = {
            "attempts": attempts,
            "last_attempt_at": isoformat(at),
            "last_status": status,
            "last_error": error,
        }
        if error is None:
            outcome = "delivered"
            values.update(state="delivered", delivered_at=isoformat(self._clock.now()))
        elif attempts >= self._settings.max_attempts:
            outcome = "failed"
            values.update(state="failed")
        else:
            outcome = "retrying"
            wait = min(
                self._settings.backoff_seconds * 2 ** (attempts - 1),
                self._settings.max_backoff_seconds,
            )
            values.update(next_attempt_at=isoformat(at + timedelta(seconds=wait)))
        with self._db.write() as conn:
            conn.execute(
                update(webhook_deliveries)
                .where(webhook_deliveries.c.delivery_id == delivery_id)
                .values(**values)
            )
        log.info(
            "webhooks.attempt", delivery_id=delivery_id, outcome=outcome, status=status, error=error
        )
        return outcome


def _refusal(answer: httpx.Response) -> str:
    if answer.is_redirect:
        return f"HTTP {answer.status_code}: redirect not followed (only the configured URL)"
    return f"HTTP {answer.status_code}"
