"""Dissent queries, disagreement boundaries and a case's timeline over HTTP."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from accord.app import Accord
from accord.cases import Case
from tests.api.conftest import Tokens, bearer

INVOICE = [
    {"agent": "agent:billing", "output": 1200, "confidence": 0.9},
    {"agent": "agent:audit", "output": 1450, "confidence": 0.4},
]


def test_dissent_is_queried_by_agent(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    case = accord.settle("Invoice 4411 total", INVOICE, task_type="invoicing")
    assert case.dissent, case.summary()
    mine = client.get(
        "/api/v1/dissent", params={"agent": "agent:audit"}, headers=bearer(tokens.auditor)
    ).json()["items"]
    assert [d["dissent_id"] for d in mine] == list(case.dissent_ids)
    other = client.get(
        "/api/v1/dissent", params={"agent": "agent:billing"}, headers=bearer(tokens.auditor)
    ).json()["items"]
    assert other == []


def test_a_dissent_query_with_an_unknown_parameter_or_a_bad_limit_is_400(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    for params in ({"agnet": "x"}, {"limit": 0}, {"since": "yesterday"}):
        answer = client.get("/api/v1/dissent", params=params, headers=bearer(tokens.auditor))
        assert answer.status_code == 400, params


def test_session_close_boundaries_are_listed_and_shown(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    accord.settle(
        "Refund 18,000 to customer 5521",
        [
            {"agent": "agent:billing", "output": "approve", "confidence": 0.7},
            {"agent": "agent:audit", "output": "reject", "confidence": 0.65},
        ],
        task_type="refunds",
        session_id="sess-1",
    )
    boundaries = accord.close_session("sess-1")
    assert boundaries
    listed = client.get(
        "/api/v1/boundaries", params={"session_id": "sess-1"}, headers=bearer(tokens.agent)
    ).json()["items"]
    assert [b["boundary_id"] for b in listed] == [b.boundary_id for b in boundaries]
    pending = client.get(
        "/api/v1/boundaries", params={"status": "pending"}, headers=bearer(tokens.agent)
    ).json()["items"]
    assert [b["status"] for b in pending] == ["pending"] * len(pending)
    bad = client.get("/api/v1/boundaries", params={"status": "nope"}, headers=bearer(tokens.agent))
    assert (bad.status_code, bad.json()["field"]) == (400, "status")
    shown = client.get(
        f"/api/v1/boundaries/{boundaries[0].boundary_id}", headers=bearer(tokens.agent)
    ).json()
    assert shown["boundary"]["case_id"] == boundaries[0].case_id
    assert shown["attempts"] == []
    missing = client.get("/api/v1/boundaries/bnd:nope", headers=bearer(tokens.agent))
    assert missing.status_code == 404


def test_only_admins_resolve_a_boundary(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    for role in ("agent", "reviewer", "auditor"):
        answer = client.post(
            "/api/v1/boundaries/bnd:nope/resolve", headers=bearer(getattr(tokens, role))
        )
        assert answer.status_code == 403
    missing = client.post("/api/v1/boundaries/bnd:nope/resolve", headers=bearer(tokens.admin))
    assert missing.status_code == 404


def test_the_timeline_of_a_decided_case_runs_from_opening_to_the_human_decision(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    client.post(
        f"/api/v1/approvals/{escalated.approval_item_id}/decision",
        json={"choice": "reject", "reasoning": "chargebacks"},
        headers=bearer(tokens.reviewer),
    )
    timeline = client.get(
        f"/api/v1/cases/{escalated.case_id}/timeline", headers=bearer(tokens.agent)
    ).json()
    events = [e["event"] for e in timeline["events"]]
    assert events[0] == "dispute_opened"
    assert "dispute_escalated" in events
    assert "approval_requested" in events
    assert events.index("approval_requested") < events.index("approval_approved")
    decided = next(e for e in timeline["events"] if e["event"] == "approval_approved")
    assert decided["verdict"] in ("chosen", "written")
    assert decided["actor"] == "human:treasurer"
    stamps = [e["timestamp"] for e in timeline["events"]]
    assert stamps == sorted(stamps)


def test_the_timeline_of_an_unknown_case_is_404(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    answer = client.get("/api/v1/cases/disp:nope/timeline", headers=bearer(tokens.agent))
    assert answer.status_code == 404


def test_the_timeline_of_a_waiting_case_ends_with_the_deadline_it_waits_on(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, escalated: Case
) -> None:
    timeline = client.get(
        f"/api/v1/cases/{escalated.case_id}/timeline", headers=bearer(tokens.agent)
    ).json()
    last = timeline["events"][-1]
    deadline = accord.case_deadline(escalated.case_id)
    assert deadline is not None
    assert last["event"] == "escalation_deadline"
    assert last["tier"] == "human_appeal"
    assert last["timestamp"].startswith(deadline.due_at.isoformat()[:19])
