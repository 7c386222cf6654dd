"""Subscriptions and the outbox: an event becomes one delivery row per subscription that
wants it, written in the transaction that made the event, so a crash loses neither.

Events come from one place each: the ledger's ``on_sealed`` hook (an approval item waits for
people, is decided or expires or is cancelled; a dispute is opened naming its parties), the
collecting cases' ``on_opened`` hook (a collecting case names its parties) and the scan of
armed deadlines due soon (:meth:`Outbox.enqueue_near_deadlines`, run by the delivery pass).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict
from sqlalchemy import Connection, delete, insert, select

from accord.approvals import verdict_of_outcome
from accord.clock import Clock, isoformat
from accord.errors import NotFound, ValidationError
from accord.ids import new_id
from accord.store import Database
from accord.store.tables import (
    approval_items,
    deadlines,
    parked_tasks,
    webhook_deliveries,
    webhook_subscriptions,
)
from accord.values import revised
from accord.webhooks.settings import WEBHOOK_EVENTS, WebhookEvent, check_url

PENDING = "pending"
_WAITING = ("approval_requested", "approval_escalated")
_DECIDED = ("approval_decided", "approval_expired", "approval_cancelled")


class Subscription(BaseModel):
    """A webhook subscription as listed (the secret is shown once, at creation)."""

    model_config = ConfigDict(frozen=True)

    subscription_id: str
    url: str
    events: tuple[WebhookEvent, ...]
    agent: str | None
    source: str
    created_at: str


class Event(BaseModel):
    """What happened, before it is addressed to subscriptions."""

    model_config = ConfigDict(frozen=True)

    event: WebhookEvent
    data: dict[str, Any]
    agents: tuple[str, ...] = ()
    dedupe_key: str | None = None


class Outbox:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    # --- subscriptions ---------------------------------------------------------------------

    def subscribe(
        self,
        url: str,
        events: Sequence[str] = WEBHOOK_EVENTS,
        *,
        agent: str | None = None,
        secret: str | None = None,
        subscription_id: str | None = None,
        source: str = "api",
    ) -> tuple[Subscription, str]:
        """A new subscription and its secret (generated unless given; shown only here).
        A configured ``subscription_id`` that exists is replaced (its log is kept), unless it
        is unchanged: then nothing is written (several servers opening one file at once)."""
        check_url(url)
        wanted = _events(events)
        if agent is not None and not 0 < len(agent) <= 256:
            raise ValidationError("agent is 1 to 256 characters", field="agent", rule="≤ 256")
        secret = secret or "whsec_" + secrets.token_urlsafe(32)
        if not 16 <= len(secret) <= 256:
            raise ValidationError(
                "the webhook secret is 16 to 256 characters", field="secret", rule="16–256"
            )
        if subscription_id is not None:
            kept = self._unchanged(subscription_id, url, wanted, agent, secret)
            if kept is not None:
                return kept, secret
        now = self._clock.now()
        sub = Subscription(
            subscription_id=subscription_id or new_id("whk", now),
            url=url,
            events=wanted,
            agent=agent,
            source=source,
            created_at=isoformat(now),
        )
        with self._db.write() as conn:
            conn.execute(
                delete(webhook_subscriptions).where(
                    webhook_subscriptions.c.subscription_id == sub.subscription_id
                )
            )
            conn.execute(
                insert(webhook_subscriptions).values(
                    **sub.model_dump(exclude={"events"}),
                    events=json.dumps(list(wanted)),
                    secret=secret,
                )
            )
        return sub, secret

    def _unchanged(
        self,
        subscription_id: str,
        url: str,
        events: tuple[WebhookEvent, ...],
        agent: str | None,
        secret: str,
    ) -> Subscription | None:
        with self._db.read() as conn:
            row = (
                conn.execute(
                    select(webhook_subscriptions).where(
                        webhook_subscriptions.c.subscription_id == subscription_id
                    )
                )
                .mappings()
                .first()
            )
        if row is None or not secrets.compare_digest(str(row["secret"]), secret):
            return None
        sub = _subscription(row)
        return sub if (sub.url, sub.events, sub.agent) == (url, events, agent) else None

    def subscriptions(self) -> list[Subscription]:
        with self._db.read() as conn:
            rows = conn.execute(
                select(webhook_subscriptions).order_by(webhook_subscriptions.c.created_at)
            ).mappings()
            return [_subscription(r) for r in rows]

    def unsubscribe(self, subscription_id: str) -> None:
        """Delete a subscription; its pending deliveries are dropped, its log kept."""
        with self._db.write() as conn:
            if not _delete_subscriptions(conn, [subscription_id]):
                raise NotFound(
                    f"no webhook subscription {subscription_id}",
                    code="webhooks.not_found",
                    field="subscription_id",
                )

    def remove_configured_except(self, kept: set[str]) -> None:
        """Delete the configured subscriptions whose name left ``accord.yaml``."""
        with self._db.read() as conn:
            gone = conn.scalars(
                select(webhook_subscriptions.c.subscription_id)
                .where(webhook_subscriptions.c.source == "config")
                .where(webhook_subscriptions.c.subscription_id.not_in(kept))
            ).all()
        if gone:
            with self._db.write() as conn:
                _delete_subscriptions(conn, list(gone))

    # --- enqueueing ------------------------------------------------------------------------

    def enqueue_within(
        self, conn: Connection, events: Sequence[Event], subs: list[Subscription] | None = None
    ) -> int:
        """One pending delivery per (event, subscription that wants it), in ``conn``'s
        transaction; an event with a ``dedupe_key`` already queued for a subscription is
        skipped. Returns how many rows were written."""
        if not events:
            return 0
        subs = _subscriptions(conn) if subs is None else subs
        if not subs:
            return 0
        now = self._clock.now()
        stamp = isoformat(now)
        rows: list[dict[str, Any]] = []
        for event in events:
            for sub in subs:
                if event.event not in sub.events:
                    continue
                if sub.agent is not None and sub.agent not in event.agents:
                    continue
                delivery_id = new_id("dlv", now)
                body = json.dumps(
                    {
                        "delivery_id": delivery_id,
                        "event": event.event,
                        "occurred_at": stamp,
                        "data": event.data,
                    },
                    separators=(",", ":"),
                    sort_keys=True,
                )
                rows.append(
                    {
                        "delivery_id": delivery_id,
                        "subscription_id": sub.subscription_id,
                        "event": event.event,
                        "body": body,
                        "dedupe_key": event.dedupe_key or delivery_id,
                        "state": PENDING,
                        "attempts": 0,
                        "created_at": stamp,
                        "next_attempt_at": stamp,
                    }
                )
        rows = _not_yet_queued(conn, rows)
        if rows:
            conn.execute(insert(webhook_deliveries), rows)
        return len(rows)

    def on_sealed(self, conn: Connection, sealed: Sequence[Any]) -> None:
        """The ledger's hook: signed entries (``event_type``, canonical ``body``) → events."""
        events = [
            e for entry in sealed if (e := _from_ledger(entry.event_type, entry.body)) is not None
        ]
        if not events:
            return
        subs = _subscriptions(conn)
        decided = [str(e.data["item_id"]) for e in events if e.event == "item.decided"]
        if decided and subs:
            named = _item_agents(conn, decided)  # the item's agents and every agent parked on it
            events = [
                _naming(e, named.get(str(e.data["item_id"]), ()))
                if e.event == "item.decided"
                else e
                for e in events
            ]
        self.enqueue_within(conn, events, subs)

    def collecting_opened(
        self,
        conn: Connection,
        collecting_id: str,
        subject: str,
        parties: Sequence[str],
        deadline_at: datetime,
    ) -> None:
        """The collecting cases' hook: an opened case names its parties."""
        self.enqueue_within(
            conn,
            [
                Event(
                    event="agent.named",
                    agents=tuple(parties),
                    data={
                        "kind": "collecting_case",
                        "collecting_id": collecting_id,
                        "subject": subject,
                        "agents": list(parties),
                        "deadline": isoformat(deadline_at),
                    },
                )
            ],
        )

    def enqueue_near_deadlines(self, within: timedelta) -> int:
        """``deadline.near`` once per armed deadline due within ``within`` from now."""
        if within <= timedelta(0) or not any(
            "deadline.near" in s.events for s in self.subscriptions()
        ):
            return 0
        now = self._clock.now()
        with self._db.write() as conn:
            due = conn.execute(
                select(deadlines)
                .where(deadlines.c.state == "armed")
                .where(deadlines.c.due_at > isoformat(now))
                .where(deadlines.c.due_at <= isoformat(now + within))
                .order_by(deadlines.c.due_at)
                .limit(1000)
            ).mappings()
            events = [
                Event(
                    event="deadline.near",
                    dedupe_key=f"deadline.near:{r['deadline_id']}",
                    data={
                        "deadline_id": r["deadline_id"],
                        "kind": r["kind"],
                        "subject_id": r["subject_id"],
                        "tier": r["tier"],
                        "due_at": r["due_at"],
                    },
                )
                for r in due
            ]
            return self.enqueue_within(conn, events)


def _events(events: Sequence[str]) -> tuple[WebhookEvent, ...]:
    if not events or len(events) > len(WEBHOOK_EVENTS):
        raise ValidationError(
            "events names 1 to 4 webhook events", field="events", rule=", ".join(WEBHOOK_EVENTS)
        )
    known = {e: e for e in WEBHOOK_EVENTS}
    picked: list[WebhookEvent] = []
    for index, name in enumerate(events):
        if name not in known:
            raise ValidationError(
                f"{name!r} is not a webhook event",
                code="webhooks.unknown_event",
                field=f"events[{index}]",
                rule=f"one of {', '.join(WEBHOOK_EVENTS)}",
            )
        if known[name] not in picked:
            picked.append(known[name])
    return tuple(picked)


def _subscription(row: Any) -> Subscription:
    return Subscription(
        subscription_id=row["subscription_id"],
        url=row["url"],
        events=tuple(json.loads(row["events"])),
        agent=row["agent"],
        source=row["source"],
        created_at=row["created_at"],
    )


def _delete_subscriptions(conn: Connection, ids: list[str]) -> int:
    """Delete subscriptions and drop their pending deliveries; how many were deleted."""
    gone = conn.execute(
        delete(webhook_subscriptions).where(webhook_subscriptions.c.subscription_id.in_(ids))
    ).rowcount
    conn.execute(
        webhook_deliveries.update()
        .where(webhook_deliveries.c.subscription_id.in_(ids))
        .where(webhook_deliveries.c.state == PENDING)
        .values(state="dropped")
    )
    return int(gone)


def _subscriptions(conn: Connection) -> list[Subscription]:
    return [_subscription(r) for r in conn.execute(select(webhook_subscriptions)).mappings()]


def _naming(event: Event, agents: tuple[str, ...]) -> Event:
    return revised(event, agents=agents, data={**event.data, "agents": list(agents)})


def _item_agents(conn: Connection, item_ids: list[str]) -> dict[str, tuple[str, ...]]:
    """Who a decision concerns: the item's positions' agents and every agent parked on it."""
    named: dict[str, list[str]] = {i: [] for i in item_ids}
    items = conn.execute(
        select(approval_items.c.item_id, approval_items.c.document).where(
            approval_items.c.item_id.in_(item_ids)
        )
    )
    for item_id, document in items:
        named[item_id] += [p["agent"] for p in json.loads(document).get("positions", [])]
    parked = conn.execute(
        select(parked_tasks.c.item_id, parked_tasks.c.agent_id).where(
            parked_tasks.c.item_id.in_(item_ids)
        )
    )
    for item_id, agent_id in parked:
        named[item_id].append(agent_id)
    return {i: tuple(dict.fromkeys(a)) for i, a in named.items()}


def _not_yet_queued(conn: Connection, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    keyed = [r for r in rows if r["dedupe_key"] != r["delivery_id"]]
    if not keyed:
        return rows
    taken = {
        (r[0], r[1])
        for r in conn.execute(
            select(webhook_deliveries.c.subscription_id, webhook_deliveries.c.dedupe_key).where(
                webhook_deliveries.c.dedupe_key.in_({r["dedupe_key"] for r in keyed})
            )
        )
    }
    return [r for r in rows if (r["subscription_id"], r["dedupe_key"]) not in taken]


def _from_ledger(event_type: str, body: bytes) -> Event | None:
    if event_type not in _WAITING and event_type not in _DECIDED and event_type != "dispute_opened":
        return None  # most entries: no parse
    if event_type == "dispute_opened" and b'"protocol":"dcp-07"' not in body:
        return None  # a settle case's record of the same name (most of them): no parse
    record: dict[str, Any] = json.loads(body)["record"]
    if event_type == "dispute_opened":
        if record.get("protocol") != "dcp-07":
            return None  # a settle case's record of the same name: Accord opened it, not a filing
        filed = record.get("dispute_record", {})
        agents = [filed.get("complainant", {}).get("agent_id")] + [
            r.get("agent_id") for r in filed.get("respondents", [])
        ]
        named = [a for a in agents if isinstance(a, str)]
        return Event(
            event="agent.named",
            agents=tuple(named),
            data={
                "kind": "dispute",
                "dispute_id": record.get("dispute_id"),
                "subject": filed.get("subject"),
                "agents": named,
            },
        )
    base = {k: record.get(k) for k in ("item_id", "case_id", "status")}
    if event_type in _WAITING:
        agents = [a for a in record.get("agents", []) if isinstance(a, str)]
        data = {
            **base,
            "title": record.get("title"),
            "current_role": record.get("current_role"),
            "deadline": record.get("deadline"),
        }
        return Event(event="item.waiting", agents=tuple(agents), data=data)
    data = {
        **base,
        "verdict": _verdict(event_type, record),
        "choice": record.get("choice"),
        "written_outcome": record.get("written_outcome"),
        "decided_by": record.get("decided_by"),
        "decided_at": record.get("decided_at"),
    }
    return Event(event="item.decided", data=data)


def _verdict(event_type: str, record: dict[str, Any]) -> str:
    if event_type == "approval_cancelled":
        return "cancelled"
    written = record.get("written_outcome")
    return verdict_of_outcome(str(record.get("outcome")), None if written is None else str(written))
