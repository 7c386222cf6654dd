"""Webhooks end to end: what happens is queued in its own transaction and pushed, signed,
to each subscription; failures are retried with backoff and logged, never followed
elsewhere, and never hold up a decision; a receiver deduping by id sees each event once."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from accord.app import Accord
from accord.cases import SettleStatus
from accord.clock import FrozenClock
from accord.store.tables import webhook_deliveries
from tests.disputes.conftest import filing_data

from .conftest import Receiver, always_ok, decide, escalate, open_accord


def _rows(accord: Accord) -> list[dict[str, Any]]:
    with accord.db.read() as conn:
        return [
            dict(r)
            for r in conn.execute(
                select(webhook_deliveries).order_by(webhook_deliveries.c.created_at)
            ).mappings()
        ]


def _deliver(accord: Accord, transport: httpx.BaseTransport | None = None) -> Any:
    deliverer = accord.webhook_deliverer(transport)
    try:
        return deliverer.run_once()
    finally:
        deliverer.close()


def test_a_decision_reaches_a_real_loopback_receiver_signed_over_the_exact_body(
    accord: Accord, frozen_clock: FrozenClock, loopback: tuple[str, list[Receiver]]
) -> None:
    url, receivers = loopback
    _, secret = accord.webhooks.subscribe(url)
    receivers.append(Receiver(secret, frozen_clock.now, always_ok))
    case = escalate(accord)
    decide(accord, case)
    report = _deliver(accord)
    assert (report.delivered, report.retrying) == (2, 0)
    decided, waiting = sorted(receivers[0].accepted, key=lambda p: str(p["event"]))
    assert (waiting["event"], waiting["data"]["item_id"]) == ("item.waiting", case.approval_item_id)
    assert decided["event"] == "item.decided"
    assert {k: decided["data"][k] for k in ("verdict", "choice", "decided_by")} == {
        "verdict": "chosen",
        "choice": "1450",
        "decided_by": "human:alice",
    }
    assert [r["state"] for r in _rows(accord)] == ["delivered", "delivered"]


def test_the_delivery_is_written_with_the_decision_and_rolls_back_with_it(
    accord: Accord,
) -> None:
    accord.webhooks.subscribe("http://127.0.0.1:9/hooks", ["item.decided"])
    case = escalate(accord)
    assert _rows(accord) == []  # item.waiting is not subscribed
    decide(accord, case)
    (row,) = _rows(accord)
    assert (row["event"], row["state"], row["attempts"]) == ("item.decided", "pending", 0)
    event = ("approval_cancelled", {"item_id": "apr:x", "case_id": "c", "status": "cancelled"})

    def fail_after_the_event() -> None:
        with accord.db.write() as conn:
            accord.ledger.append_within(conn, [event])
            raise RuntimeError("the deciding transaction fails")

    with pytest.raises(RuntimeError):
        fail_after_the_event()
    assert len(_rows(accord)) == 1


def test_a_receiver_failing_every_other_call_gets_every_event_once_as_new(
    accord: Accord, frozen_clock: FrozenClock
) -> None:
    _, secret = accord.webhooks.subscribe("https://hooks.example/accord")
    # every other call the receiver stores the event but its answer is lost (500)
    receiver = Receiver(secret, frozen_clock.now, lambda call, _: 500 if call % 2 else 200)
    cases = [escalate(accord, n) for n in range(10)]
    for case in cases:
        decide(accord, case)
    for _ in range(8):
        _deliver(accord, receiver.transport())
        frozen_clock.advance(timedelta(minutes=5))
    assert {r["state"] for r in _rows(accord)} == {"delivered"}
    ids = [p["delivery_id"] for p in receiver.accepted]
    assert len(ids) == len(set(ids)) == 20  # 10 waiting + 10 decided, none twice as new
    assert receiver.replays > 0  # the retries of lost answers were recognised by id


def test_5xx_timeout_and_redirect_are_retried_with_backoff_logged_and_never_followed(
    accord: Accord, frozen_clock: FrozenClock
) -> None:
    accord.webhooks.subscribe("https://hooks.example/accord", ["item.decided"])
    seen: list[str] = []

    def flaky(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        attempt = len(seen)
        if attempt == 1:
            return httpx.Response(503)
        if attempt == 2:
            raise httpx.ReadTimeout("receiver too slow", request=request)
        if attempt == 3:
            return httpx.Response(302, headers={"Location": "https://elsewhere.example/steal"})
        return httpx.Response(204)

    decide(accord, escalate(accord))
    transport = httpx.MockTransport(flaky)
    errors, waits = [], []
    for expected_wait in (1, 2, 4):
        assert _deliver(accord, transport).retrying == 1
        (row,) = _rows(accord)
        errors.append(row["last_error"])
        waits.append((_at(row["next_attempt_at"]) - _at(row["last_attempt_at"])).total_seconds())
        frozen_clock.advance(timedelta(seconds=expected_wait - 0.5))
        assert _deliver(accord, transport).retrying == 0  # not due yet: nothing sent
        frozen_clock.advance(timedelta(seconds=0.5))
    assert _deliver(accord, transport).delivered == 1
    assert waits == [1, 2, 4]
    assert errors[0] == "HTTP 503"
    assert errors[1].startswith("ReadTimeout")
    assert "redirect not followed" in errors[2]
    assert seen == ["https://hooks.example/accord"] * 4
    (row,) = _rows(accord)
    assert (row["state"], row["attempts"], row["last_status"]) == ("delivered", 4, 204)


def _at(text: str) -> Any:
    from datetime import datetime

    return datetime.fromisoformat(text)


def test_attempts_are_bounded_and_the_last_error_is_kept(
    accord: Accord, frozen_clock: FrozenClock
) -> None:
    accord.webhooks.subscribe("https://hooks.example/accord", ["item.decided"])
    decide(accord, escalate(accord))
    always_down = httpx.MockTransport(lambda request: httpx.Response(500))
    reports = []
    for _ in range(10):
        reports.append(_deliver(accord, always_down))
        frozen_clock.advance(timedelta(hours=1))
    assert [r.failed for r in reports] == [0] * 7 + [1, 0, 0]  # max_attempts: 8
    (row,) = _rows(accord)
    assert (row["state"], row["attempts"], row["last_error"]) == ("failed", 8, "HTTP 500")


def test_a_decision_commits_while_the_receiver_is_down(accord: Accord) -> None:
    accord.webhooks.subscribe("https://hooks.example/accord")

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    case = escalate(accord)
    assert _deliver(accord, httpx.MockTransport(refuse)).retrying == 1
    decide(accord, case)
    assert accord.cases.get(case.case_id).status is SettleStatus.SETTLED
    assert _deliver(accord, httpx.MockTransport(refuse)).retrying == 1
    assert {r["state"] for r in _rows(accord)} == {"pending"}


def test_an_agent_named_by_a_collecting_case_or_a_dispute_is_told_and_only_it(
    accord: Accord, frozen_clock: FrozenClock
) -> None:
    _, secret = accord.webhooks.subscribe("https://a.example/hooks", agent="agent-a")
    receiver = Receiver(secret, frozen_clock.now, always_ok)
    accord.collecting.open("Which total?", ["agent-a", "agent-z"], within=3600, opened_by="x")
    accord.collecting.open("Not for a", ["agent-y", "agent-z"], within=3600, opened_by="x")
    accord.disputes.open(filing_data())  # agent-a files against agent-b
    escalate(accord)  # names agent:a0 and agent:b0 only
    _deliver(accord, receiver.transport())
    named = sorted((p["event"], p["data"]["kind"], p["data"]["agents"]) for p in receiver.accepted)
    assert named == [
        ("agent.named", "collecting_case", ["agent-a", "agent-z"]),
        ("agent.named", "dispute", ["agent-a", "agent-b"]),
    ]


def test_a_near_deadline_is_pushed_once(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock
) -> None:
    accord = open_accord(tmp_path, database_url, frozen_clock, deadline_warning_seconds=600)
    try:
        _, secret = accord.webhooks.subscribe("https://hooks.example/a", ["deadline.near"])
        receiver = Receiver(secret, frozen_clock.now, always_ok)
        opened = accord.collecting.open("Which?", ["agent-a", "agent-b"], within=900, opened_by="x")
        assert _deliver(accord, receiver.transport()).queued == 0  # due in 15 min
        frozen_clock.advance(timedelta(minutes=6))
        for _ in range(3):
            _deliver(accord, receiver.transport())
        (near,) = receiver.accepted
        assert (near["event"], near["data"]["subject_id"]) == (
            "deadline.near",
            opened.collecting_id,
        )
    finally:
        accord.close()


def test_deleting_a_subscription_drops_its_pending_deliveries_and_keeps_its_log(
    accord: Accord,
) -> None:
    sub, secret = accord.webhooks.subscribe("https://hooks.example/a")
    assert secret.startswith("whsec_")
    assert "secret" not in json.dumps([s.model_dump() for s in accord.webhooks.subscriptions()])
    escalate(accord)
    accord.webhooks.unsubscribe(sub.subscription_id)
    assert [r["state"] for r in _rows(accord)] == ["dropped"]
    assert accord.webhooks.subscriptions() == []


def test_a_decision_is_pushed_to_the_agents_it_concerns_and_to_those_parked_on_it(
    accord: Accord, frozen_clock: FrozenClock
) -> None:
    _, own = accord.webhooks.subscribe("https://a0.example/hooks", agent="agent:a0")
    _, parker = accord.webhooks.subscribe("https://p.example/hooks", agent="agent:parker")
    position_agent = Receiver(own, frozen_clock.now, always_ok)
    parked_agent = Receiver(parker, frozen_clock.now, always_ok)
    case = escalate(accord)  # positions of agent:a0 and agent:b0
    accord.park(case.case_id, "agent:parker", {"step": 1})
    decide(accord, case)
    _deliver(accord, httpx.MockTransport(_route({"a0": position_agent, "p": parked_agent})))
    assert sorted(p["event"] for p in position_agent.accepted) == ["item.decided", "item.waiting"]
    (decided,) = parked_agent.accepted
    assert decided["event"] == "item.decided"
    assert decided["data"]["agents"] == ["agent:a0", "agent:b0", "agent:parker"]


def _route(receivers: dict[str, Receiver]) -> Any:
    def handle(request: httpx.Request) -> httpx.Response:
        receiver = receivers[request.url.host.split(".")[0]]
        status = receiver.receive(str(request.url), dict(request.headers), request.content)
        return httpx.Response(status)

    return handle
