"""``GET /api/v1/approvals/{id}/receipt``: readers of the item and the agent whose task is
parked on it read the signed receipt, which verifies offline; another agent is 403; an
undecided item is 409."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from accord.api.api_keys import ApiKeyStore
from accord.app import Accord
from accord.audit import DecisionReceipt
from accord.cases import Case
from tests.api.conftest import Tokens, bearer


def _path(case: Case) -> str:
    return f"/api/v1/approvals/{case.approval_item_id}/receipt"


def _decide(client: TestClient[Litestar], tokens: Tokens, case: Case) -> None:
    decided = client.post(
        f"/api/v1/approvals/{case.approval_item_id}/decision",
        json={"deny": True, "reasoning": "not this quarter"},
        headers=bearer(tokens.reviewer),
    )
    assert decided.status_code == 200, decided.text


def test_an_undecided_item_has_no_receipt_yet(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    refused = client.get(_path(escalated), headers=bearer(tokens.reviewer))
    assert (refused.status_code, refused.json()["code"]) == (409, "approvals.pending")


def test_a_reviewer_and_the_parked_agent_read_a_receipt_that_verifies(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord
) -> None:
    path = f"/api/v1/cases/{escalated.case_id}/park"
    parked = client.post(path, json={"context": {}}, headers=bearer(tokens.agent))
    assert parked.status_code == 201
    _decide(client, tokens, escalated)
    by_reviewer = client.get(_path(escalated), headers=bearer(tokens.reviewer))
    by_agent = client.get(_path(escalated), headers=bearer(tokens.agent))
    assert by_reviewer.status_code == by_agent.status_code == 200
    assert by_agent.json() == by_reviewer.json()
    receipt = DecisionReceipt.model_validate(by_agent.json())
    assert (receipt.verdict, receipt.reason) == ("denied", "not this quarter")
    root = accord.trust_root()
    receipt.verify({root.kid: root.public_key})


def test_an_agent_that_parked_nothing_on_the_item_is_refused(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, keys: ApiKeyStore
) -> None:
    _decide(client, tokens, escalated)
    other = keys.create("agent", agent_id="agent:treasury")[1]
    refused = client.get(_path(escalated), headers=bearer(other))
    assert refused.status_code == 403
