"""Listing cases with filters and keyset paging, and reading one."""

from __future__ import annotations

from datetime import timedelta

from litestar import Litestar
from litestar.testing import TestClient

from accord.app import Accord
from accord.cases import Case
from accord.clock import FrozenClock
from tests.api.conftest import Tokens, bearer


def _settle_labels(accord: Accord, clock: FrozenClock, count: int) -> list[str]:
    ids = []
    for n in range(count):
        clock.advance(timedelta(seconds=1))
        case = accord.settle(
            f"Ticket {n}",
            [{"agent": "agent:backend", "output": "bug"}, {"agent": "agent:qa", "output": "bug"}],
            task_type="triage",
        )
        ids.append(case.case_id)
    return ids


def test_pages_walk_every_case_newest_first_exactly_once(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, frozen_clock: FrozenClock
) -> None:
    ids = _settle_labels(accord, frozen_clock, 5)
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, str | int] = {"limit": 2}
        if cursor:
            params["cursor"] = cursor
        page = client.get("/api/v1/cases", params=params, headers=bearer(tokens.auditor)).json()
        seen += [row["case_id"] for row in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == list(reversed(ids))


def test_filters_narrow_the_list(
    client: TestClient[Litestar],
    tokens: Tokens,
    accord: Accord,
    frozen_clock: FrozenClock,
    escalated: Case,
) -> None:
    _settle_labels(accord, frozen_clock, 2)
    headers = bearer(tokens.auditor)
    by_status = client.get("/api/v1/cases", params={"status": "escalated"}, headers=headers)
    assert [r["case_id"] for r in by_status.json()["items"]] == [escalated.case_id]
    by_kind = client.get("/api/v1/cases", params={"kind": "logical_conflict"}, headers=headers)
    assert [r["case_id"] for r in by_kind.json()["items"]] == [escalated.case_id]
    by_agent = client.get("/api/v1/cases", params={"agent": "agent:qa"}, headers=headers)
    assert len(by_agent.json()["items"]) == 2
    by_type = client.get("/api/v1/cases", params={"task_type": "refunds"}, headers=headers)
    assert len(by_type.json()["items"]) == 1


def test_a_bad_cursor_limit_or_status_is_refused_naming_the_parameter(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    headers = bearer(tokens.auditor)
    cursor = client.get("/api/v1/cases", params={"cursor": "%%%"}, headers=headers)
    assert (cursor.status_code, cursor.json()["field"]) == (422, "cursor")
    status = client.get("/api/v1/cases", params={"status": "lost"}, headers=headers)
    assert (status.status_code, status.json()["field"]) == (422, "status")
    limit = client.get("/api/v1/cases", params={"limit": 0}, headers=headers)
    assert limit.status_code == 400


def test_one_case_shows_its_positions_and_decision(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    answer = client.get(f"/api/v1/cases/{escalated.case_id}", headers=bearer(tokens.agent))
    assert answer.status_code == 200
    case = answer.json()
    assert case["status"] == "escalated"
    assert case["approval_item_id"] == escalated.approval_item_id
    assert [p["output"] for p in case["positions"]] == ["approve", "reject"]
    assert case["positions"][0]["reasoning"] == "loyal"


def test_an_unknown_case_is_404(client: TestClient[Litestar], tokens: Tokens) -> None:
    answer = client.get("/api/v1/cases/disp:nope", headers=bearer(tokens.agent))
    assert answer.status_code == 404
    assert answer.json()["code"] == "cases.not_found"
