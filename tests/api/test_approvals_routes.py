"""The approval queue over HTTP: list, read, decide once (compare-and-set)."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from accord.api import ApiKeyStore
from accord.app import Accord
from accord.disputes import Case
from tests.api.conftest import Tokens, bearer


def _decide(client: TestClient[Litestar], token: str, item: str, **body: object) -> object:
    return client.post(f"/api/v1/approvals/{item}/decision", json=body, headers=bearer(token))


def test_the_queue_lists_pending_items_with_their_case_kind(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    page = client.get("/api/v1/approvals", headers=bearer(tokens.reviewer)).json()
    assert [i["item_id"] for i in page["items"]] == [escalated.approval_item_id]
    assert page["items"][0]["kind"] == "logical_conflict"
    assert page["items"][0]["severity"] == "high"
    none = client.get(
        "/api/v1/approvals", params={"kind": "priority_conflict"}, headers=bearer(tokens.reviewer)
    )
    assert none.json()["items"] == []
    by_agent = client.get(
        "/api/v1/approvals", params={"agent": "agent:audit"}, headers=bearer(tokens.reviewer)
    )
    assert len(by_agent.json()["items"]) == 1


def test_a_reviewer_decides_and_the_case_settles(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord
) -> None:
    assert escalated.approval_item_id is not None
    answer = client.post(
        f"/api/v1/approvals/{escalated.approval_item_id}/decision",
        json={"choice": "reject", "reasoning": "three chargebacks this quarter"},
        headers=bearer(tokens.reviewer),
    )
    assert answer.status_code == 200
    decision = answer.json()["decision"]
    assert (decision["choice"], decision["decided_by"]) == ("reject", "human:treasurer")
    assert decision["reason"] == "three chargebacks this quarter"
    assert accord.cases.get(escalated.case_id).status.value == "settled"
    assert accord.verify().entries > 0


def test_a_second_decision_is_409_naming_the_first(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, keys: ApiKeyStore
) -> None:
    assert escalated.approval_item_id is not None
    _, other = keys.create("reviewer", principal_id="human:treasurer")
    path = f"/api/v1/approvals/{escalated.approval_item_id}/decision"
    first = client.post(
        path, json={"choice": "reject", "reasoning": "first"}, headers=bearer(tokens.reviewer)
    )
    assert first.status_code == 200
    second = client.post(
        path, json={"choice": "approve", "reasoning": "second"}, headers=bearer(other)
    )
    assert second.status_code == 409
    error = second.json()
    assert error["code"] == "approvals.already_decided"
    assert "human:treasurer" in error["message"]
    assert "approved" in error["message"]


def test_a_choice_that_is_not_an_option_is_422_and_the_item_stays_pending(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord
) -> None:
    assert escalated.approval_item_id is not None
    answer = client.post(
        f"/api/v1/approvals/{escalated.approval_item_id}/decision",
        json={"choice": "refund twice", "reasoning": "why not"},
        headers=bearer(tokens.reviewer),
    )
    assert answer.status_code == 422
    assert accord.approvals.get(escalated.approval_item_id).is_pending


def test_choice_and_deny_together_or_neither_is_422(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    path = f"/api/v1/approvals/{escalated.approval_item_id}/decision"
    both = {"choice": "reject", "deny": True, "reasoning": "r"}
    neither = {"reasoning": "r"}
    for body in (both, neither):
        answer = client.post(path, json=body, headers=bearer(tokens.reviewer))
        assert answer.status_code == 422
        assert answer.json()["field"] == "choice"


def test_a_decision_without_reasoning_is_400(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    answer = client.post(
        f"/api/v1/approvals/{escalated.approval_item_id}/decision",
        json={"choice": "reject"},
        headers=bearer(tokens.reviewer),
    )
    assert answer.status_code == 400
    assert answer.json()["field"] == "reasoning"


def test_an_unknown_item_is_404(client: TestClient[Litestar], tokens: Tokens) -> None:
    answer = client.get("/api/v1/approvals/apr:nope", headers=bearer(tokens.reviewer))
    assert answer.status_code == 404
    decided = client.post(
        "/api/v1/approvals/apr:nope/decision",
        json={"deny": True, "reasoning": "r"},
        headers=bearer(tokens.reviewer),
    )
    assert decided.status_code == 404
