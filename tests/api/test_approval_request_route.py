"""``POST /api/v1/approval-requests``: the agent key's agent proposes an action that goes
straight to people; the agent comes from the key, a retried key writes nothing."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from accord.app import Accord
from tests.api.conftest import Tokens, bearer

BODY = {
    "subject": "refund(order=991, amount=18000)",
    "proposal": {"tool": "refund", "arguments": {"order": 991, "amount": 18000}},
    "gate": "refunds",
    "reason": "charged twice",
}
PATH = "/api/v1/approval-requests"


def test_an_agent_key_queues_its_own_proposal_for_people(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    answer = client.post(PATH, json=BODY, headers=bearer(tokens.agent))
    assert answer.status_code == 201, answer.text
    case = accord.cases.get(answer.json()["case_id"])
    assert case.approval_item_id == answer.json()["approval_item_id"]
    assert case.positions[0].agent == "agent:billing"


def test_a_retried_request_with_the_same_key_writes_nothing(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    headers = {**bearer(tokens.agent), "Idempotency-Key": "call-1"}
    first = client.post(PATH, json=BODY, headers=headers)
    entries = accord.ledger.size()
    again = client.post(PATH, json=BODY, headers=headers)
    assert again.json()["case_id"] == first.json()["case_id"]
    assert accord.ledger.size() == entries


def test_only_an_agent_key_may_propose_and_a_body_naming_an_agent_is_refused(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    entries = accord.ledger.size()
    assert client.post(PATH, json=BODY, headers=bearer(tokens.admin)).status_code == 403
    named = {**BODY, "agent_id": "agent:treasury"}
    assert client.post(PATH, json=named, headers=bearer(tokens.agent)).status_code == 400
    blank_gate = {**BODY, "gate": ""}
    assert client.post(PATH, json=blank_gate, headers=bearer(tokens.agent)).status_code == 400
    assert accord.ledger.size() == entries
