"""Parked tasks over HTTP: an agent parks on a queued case and waits (long-poll or events)."""

from __future__ import annotations

import json
import threading

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from accord.api import ApiKeyStore, create_app
from accord.app import Accord
from accord.cases import Case
from tests.api.conftest import Tokens, bearer


def _park(client: TestClient[Litestar], token: str, case: Case, **context: object) -> str:
    answer = client.post(
        f"/api/v1/cases/{case.case_id}/park", json={"context": context}, headers=bearer(token)
    )
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert (body["agent_id"], body["item_status"]) == ("agent:billing", "pending")
    return str(body["task_id"])


def _decide(client: TestClient[Litestar], tokens: Tokens, case: Case) -> None:
    answer = client.post(
        f"/api/v1/approvals/{case.approval_item_id}/decision",
        json={"choice": "reject", "reasoning": "chargebacks"},
        headers=bearer(tokens.reviewer),
    )
    assert answer.status_code == 200, answer.text


def test_an_agent_parks_its_task_and_the_park_is_stored_as_its_own(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord
) -> None:
    task_id = _park(client, tokens.agent, escalated, step=3)
    task = accord.parking.get(task_id)
    assert (task.agent_id, task.context) == ("agent:billing", {"step": 3})
    shown = client.get(f"/api/v1/parked/{task_id}", headers=bearer(tokens.auditor)).json()
    assert shown["item_id"] == escalated.approval_item_id


def test_a_long_poll_before_the_decision_answers_pending_and_leaves_the_task_parked(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord
) -> None:
    task_id = _park(client, tokens.agent, escalated)
    answer = client.get(
        f"/api/v1/parked/{task_id}/decision", params={"wait": 0}, headers=bearer(tokens.agent)
    )
    assert answer.json() == {"resumed": False, "status": "pending", "resumption": None}
    assert accord.parking.get(task_id).resumed_at is None


def test_the_long_poll_returns_the_decision_once_and_a_second_waiter_gets_409(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    task_id = _park(client, tokens.agent, escalated, step=7)
    _decide(client, tokens, escalated)
    path = f"/api/v1/parked/{task_id}/decision"
    first = client.get(path, headers=bearer(tokens.agent)).json()
    assert first["resumed"] is True
    resumption = first["resumption"]
    assert resumption["context"] == {"step": 7}
    assert (resumption["decision"]["choice"], resumption["decision"]["decided_by"]) == (
        "reject",
        "human:treasurer",
    )
    second = client.get(path, headers=bearer(tokens.agent))
    assert (second.status_code, second.json()["code"]) == (409, "approvals.already_resumed")


def test_a_waiting_long_poll_resumes_when_a_reviewer_decides_meanwhile(
    accord: Accord, tokens: Tokens, escalated: Case
) -> None:
    app = create_app(accord, sweep_every=None, poll_interval=0.02)
    with TestClient(app) as client:
        task_id = _park(client, tokens.agent, escalated)
        answers: list[dict[str, object]] = []
        waiter = threading.Thread(
            target=lambda: answers.append(
                client.get(
                    f"/api/v1/parked/{task_id}/decision",
                    params={"wait": 30},
                    headers=bearer(tokens.agent),
                ).json()
            )
        )
        waiter.start()
        _decide(client, tokens, escalated)
        waiter.join(timeout=30)
    assert answers
    assert answers[0]["resumed"] is True


def test_the_event_stream_sends_the_decision_and_ends(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    task_id = _park(client, tokens.agent, escalated, step=1)
    _decide(client, tokens, escalated)
    with client.stream(
        "GET", f"/api/v1/parked/{task_id}/events", headers=bearer(tokens.agent)
    ) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        text = "".join(stream.iter_text())
    decided = _event(text, "decided")
    assert decided["id"] == "2"
    assert json.loads(decided["data"])["context"] == {"step": 1}


def _events(text: str) -> list[dict[str, str]]:
    """The stream's events as field → value (comments under ``comment``)."""
    found: list[dict[str, str]] = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            name, _, value = line.partition(":")
            fields["comment" if name == "" else name] = value.removeprefix(" ")
        if fields:
            found.append(fields)
    return found


def _event(text: str, name: str) -> dict[str, str]:
    return next(e for e in _events(text) if e.get("event") == name)


def _stream(client: TestClient[Litestar], token: str, task_id: str, **headers: str) -> str:
    with client.stream(
        "GET", f"/api/v1/parked/{task_id}/events", headers={**bearer(token), **headers}
    ) as stream:
        return "".join(stream.iter_text())


def test_the_event_stream_pings_with_comments_and_ends_at_its_time_limit(
    accord: Accord, tokens: Tokens, escalated: Case
) -> None:
    app = create_app(
        accord, sweep_every=None, poll_interval=0.01, stream_seconds=0.05, heartbeat_seconds=0.02
    )
    with TestClient(app) as client:
        task_id = _park(client, tokens.agent, escalated)
        events = _events(_stream(client, tokens.agent, task_id))
    assert events[0].get("event") == "waiting"
    assert events[0]["id"] == "1"
    assert {"comment": "ping"} in events
    assert events[-1]["event"] == "timeout"
    assert all(e.get("data", "x") != "" for e in events), "no empty data lines"


def test_the_event_stream_resumes_after_last_event_id_and_repeats_a_dropped_decision(
    accord: Accord, tokens: Tokens, escalated: Case
) -> None:
    app = create_app(accord, sweep_every=None, poll_interval=0.01, stream_seconds=0.05)
    with TestClient(app) as client:
        task_id = _park(client, tokens.agent, escalated, step=4)
        _stream(client, tokens.agent, task_id)  # saw "waiting" (id 1), then timed out
        _decide(client, tokens, escalated)
        first = _events(_stream(client, tokens.agent, task_id, **{"Last-Event-ID": "1"}))
        assert [e.get("event") for e in first] == ["decided"]  # no second "waiting"
        # the connection dropped before the client stored id 2: the decision comes again
        again = _event(_stream(client, tokens.agent, task_id, **{"Last-Event-ID": "1"}), "decided")
        assert json.loads(again["data"])["context"] == {"step": 4}
        assert _stream(client, tokens.agent, task_id, **{"Last-Event-ID": "2"}) == ""
        bad = client.get(
            f"/api/v1/parked/{task_id}/events",
            headers={**bearer(tokens.agent), "Last-Event-ID": "7"},
        )
        assert bad.status_code == 400


def test_the_event_stream_of_a_resumed_task_names_the_refusal(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    task_id = _park(client, tokens.agent, escalated)
    _decide(client, tokens, escalated)
    client.get(f"/api/v1/parked/{task_id}/decision", headers=bearer(tokens.agent))
    with client.stream(
        "GET", f"/api/v1/parked/{task_id}/events", headers=bearer(tokens.agent)
    ) as stream:
        text = "".join(stream.iter_text())
    assert "event: refused" in text
    assert "approvals.already_resumed" in text


def test_another_agents_key_may_not_follow_the_task(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord
) -> None:
    from accord.api import ApiKeyStore

    task_id = _park(client, tokens.agent, escalated)
    _, other = ApiKeyStore(accord.ledger, accord.clock).create("agent", agent_id="agent:audit")
    for path in (f"/api/v1/parked/{task_id}", f"/api/v1/parked/{task_id}/decision"):
        answer = client.get(path, headers=bearer(other))
        assert (answer.status_code, answer.json()["field"]) == (403, "task_id")


@pytest.mark.parametrize("role", ["reviewer", "auditor", "admin"])
def test_only_agent_keys_park_tasks(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, role: str
) -> None:
    answer = client.post(
        f"/api/v1/cases/{escalated.case_id}/park",
        json={"context": {}},
        headers=bearer(getattr(tokens, role)),
    )
    assert answer.status_code == 403


def test_parking_on_a_case_that_waits_for_nobody_is_refused(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    settled = accord.settle(
        "Invoice total",
        [
            {"agent": "agent:billing", "output": 1200, "confidence": 0.9},
            {"agent": "agent:audit", "output": 1200, "confidence": 0.8},
        ],
    )
    answer = client.post(
        f"/api/v1/cases/{settled.case_id}/park", json={"context": {}}, headers=bearer(tokens.agent)
    )
    assert (answer.status_code, answer.json()["code"]) == (422, "approvals.not_queued")


def test_a_park_body_with_an_unknown_field_or_a_missing_case_is_refused(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    unknown = client.post(
        f"/api/v1/cases/{escalated.case_id}/park",
        json={"context": {}, "agent_id": "agent:audit"},
        headers=bearer(tokens.agent),
    )
    assert unknown.status_code == 400
    missing = client.post(
        "/api/v1/cases/disp:nope/park", json={"context": {}}, headers=bearer(tokens.agent)
    )
    assert missing.status_code == 404
    no_task = client.get("/api/v1/parked/park:nope", headers=bearer(tokens.agent))
    assert no_task.status_code == 404


def test_a_parked_task_resumes_over_http_with_the_reviewers_written_outcome(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    task_id = _park(client, tokens.agent, escalated, step=4)
    decided = client.post(
        f"/api/v1/approvals/{escalated.approval_item_id}/decision",
        json={"outcome": "refund half, then re-check", "reasoning": "policy"},
        headers=bearer(tokens.reviewer),
    )
    assert decided.status_code == 200, decided.text
    answer = client.get(
        f"/api/v1/parked/{task_id}/decision", params={"wait": 0}, headers=bearer(tokens.agent)
    ).json()
    assert answer["resumed"] is True
    resumption = answer["resumption"]
    assert resumption["context"] == {"step": 4}
    assert resumption["decision"]["written_outcome"] == "refund half, then re-check"
    assert resumption["decision"]["choice"] is None


def test_an_agent_parks_only_on_a_case_it_is_party_to_and_nothing_is_written(
    client: TestClient[Litestar], keys: ApiKeyStore, escalated: Case, accord: Accord
) -> None:
    stranger = keys.create("agent", agent_id="agent:stranger")[1]
    answer = client.post(
        f"/api/v1/cases/{escalated.case_id}/park", json={"context": {}}, headers=bearer(stranger)
    )
    assert answer.status_code == 403
    assert answer.json()["code"] == "approvals.not_a_party"
    assert answer.json()["field"] == "agent_id"
    assert accord.parking.parked() == []
