"""The approval queue over HTTP: list, read, decide once (compare-and-set)."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from accord.api import ApiKeyStore
from accord.app import Accord
from accord.approvals import MAX_WRITTEN_OUTCOME_CHARS
from accord.cases import Case
from accord.crypto.keyring import role_key_name
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


def test_a_listed_item_is_the_item_itself_plus_its_case_columns_pending_or_decided(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord
) -> None:
    assert escalated.approval_item_id is not None
    item_id = escalated.approval_item_id
    for status in ("pending", "approved"):
        listed = client.get(
            "/api/v1/approvals", params={"status": status}, headers=bearer(tokens.reviewer)
        ).json()["items"]
        stored = accord.approvals.get(item_id)
        item = stored.model_dump(mode="json")
        acting = accord.acting_deadline(stored)
        assert listed == [{**item, "kind": "logical_conflict", "severity": "high",
                           "task_type": escalated.task_type,
                           "acting_deadline": acting and acting.model_dump(mode="json")}]
        one = client.get(f"/api/v1/approvals/{item_id}", headers=bearer(tokens.reviewer)).json()
        verdict, acting = one.pop("verdict"), one.pop("acting_deadline")
        assert one == item
        assert verdict == (None if status == "pending" else "chosen")
        assert (acting is None) == (status != "pending")
        _decide(client, tokens.reviewer, item_id, choice="reject", reasoning="chargebacks")


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


def _queue_two(accord: Accord) -> list[str]:
    items = []
    for n in (1, 2):
        case = accord.settle(
            f"Refund {n},000 to customer 55{n}",
            [
                {"agent": "agent:billing", "output": "approve", "confidence": 0.7},
                {"agent": "agent:audit", "output": "reject", "confidence": 0.65},
            ],
            task_type="refunds",
        )
        assert case.approval_item_id is not None
        items.append(case.approval_item_id)
    return items


def test_a_reviewer_decides_a_batch_and_each_item_is_its_own_signed_decision(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    first, second = _queue_two(accord)
    answer = client.post(
        "/api/v1/approvals/decisions",
        json={
            "decisions": [
                {"item_id": first, "choice": "reject", "reasoning": "chargebacks"},
                {"item_id": second, "deny": True, "reasoning": "no evidence either way"},
            ]
        },
        headers=bearer(tokens.reviewer),
    )
    assert answer.status_code == 200, answer.text
    results = answer.json()["results"]
    assert [(r["item_id"], r["outcome"]) for r in results] == [
        (first, "decided"),
        (second, "decided"),
    ]
    assert results[1]["item"]["decision"]["outcome"] == "denied"
    assert [r["item"]["verdict"] for r in results] == ["chosen", "denied"]
    decided = [e for e in accord.ledger.entries() if e.event_type == "approval_decided"]
    assert len(decided) == 2
    assert accord.verify().entries > 0


def test_a_refused_item_in_a_batch_is_reported_and_does_not_stop_the_rest(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    first, second = _queue_two(accord)
    signer = accord.key_signer(role_key_name("reviewer", "human:treasurer"))
    accord.decide(first, signer, choice="reject", reason="earlier")
    answer = client.post(
        "/api/v1/approvals/decisions",
        json={
            "decisions": [
                {"item_id": first, "choice": "approve", "reasoning": "late"},
                {"item_id": "apr:nope", "choice": "approve", "reasoning": "typo"},
                {"item_id": second, "choice": "reject", "reasoning": "chargebacks"},
            ]
        },
        headers=bearer(tokens.reviewer),
    )
    results = answer.json()["results"]
    assert [r["outcome"] for r in results] == ["refused", "refused", "decided"]
    assert (results[0]["error"]["code"], results[0]["error"]["status"]) == (
        "approvals.already_decided",
        409,
    )
    assert results[1]["error"]["status"] == 404


def test_a_batch_with_neither_choice_nor_deny_is_refused_before_anything_is_decided(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    first, second = _queue_two(accord)
    answer = client.post(
        "/api/v1/approvals/decisions",
        json={
            "decisions": [
                {"item_id": first, "choice": "reject", "reasoning": "fine"},
                {"item_id": second, "reasoning": "forgot to choose"},
            ]
        },
        headers=bearer(tokens.reviewer),
    )
    assert (answer.status_code, answer.json()["field"]) == (422, "decisions[1].choice")
    assert accord.approvals.get(first).status.value == "pending"
    agent = client.post(
        "/api/v1/approvals/decisions",
        json={"decisions": [{"item_id": first, "choice": "reject", "reasoning": "x"}]},
        headers=bearer(tokens.agent),
    )
    assert agent.status_code == 403


def test_a_reviewer_writes_an_outcome_and_the_case_settles_on_it(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord
) -> None:
    written = "neither: refund 9,000 and re-check the chargebacks"
    answer = client.post(
        f"/api/v1/approvals/{escalated.approval_item_id}/decision",
        json={"outcome": written, "reasoning": "half is within policy"},
        headers=bearer(tokens.reviewer),
    )
    assert answer.status_code == 200, answer.text
    decision = answer.json()["decision"]
    assert (decision["choice"], decision["written_outcome"]) == (None, written)
    settled = accord.cases.get(escalated.case_id)
    assert settled.status.value == "settled"
    assert settled.decision is not None
    assert (settled.decision.answer, settled.decision.winners) == (written, ())
    assert accord.verify().entries > 0


def test_an_outcome_beside_a_choice_or_a_denial_or_a_blank_one_is_422_naming_outcome(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord
) -> None:
    path = f"/api/v1/approvals/{escalated.approval_item_id}/decision"
    for body in (
        {"outcome": "use 42", "choice": "reject", "reasoning": "r"},
        {"outcome": "use 42", "deny": True, "reasoning": "r"},
        {"outcome": "  ", "reasoning": "r"},
        {"outcome": "use\u202e 42", "reasoning": "r"},
    ):
        answer = client.post(path, json=body, headers=bearer(tokens.reviewer))
        assert (answer.status_code, answer.json()["field"]) == (422, "outcome"), body
    too_long = {"outcome": "x" * (MAX_WRITTEN_OUTCOME_CHARS + 1), "reasoning": "r"}
    answer = client.post(path, json=too_long, headers=bearer(tokens.reviewer))
    assert (answer.status_code, answer.json()["field"]) == (400, "outcome")  # the body's bound
    assert accord.approvals.get(str(escalated.approval_item_id)).is_pending


def test_a_batch_decides_a_written_outcome_and_refuses_a_doubled_one_by_its_index(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    first, second = _queue_two(accord)
    doubled = client.post(
        "/api/v1/approvals/decisions",
        json={
            "decisions": [
                {"item_id": first, "outcome": "refund half", "reasoning": "policy"},
                {"item_id": second, "outcome": "x", "deny": True, "reasoning": "r"},
            ]
        },
        headers=bearer(tokens.reviewer),
    )
    assert (doubled.status_code, doubled.json()["field"]) == (422, "decisions[1].outcome")
    assert accord.approvals.get(first).is_pending
    answer = client.post(
        "/api/v1/approvals/decisions",
        json={
            "decisions": [
                {"item_id": first, "outcome": "refund half", "reasoning": "policy"},
                {"item_id": second, "choice": "reject", "reasoning": "chargebacks"},
            ]
        },
        headers=bearer(tokens.reviewer),
    )
    results = answer.json()["results"]
    assert [r["outcome"] for r in results] == ["decided", "decided"]
    assert results[0]["item"]["decision"]["written_outcome"] == "refund half"
    case = accord.cases.get(accord.approvals.get(first).case_id)
    assert case.decision is not None
    assert case.decision.answer == "refund half"
