"""Issue 30's scenario: a critical direct contradiction waits for people on an item with no
deadline of its own; the case tier's 15 minutes are what act on it, and every view says so."""

from __future__ import annotations

from datetime import datetime, timedelta

from litestar import Litestar
from litestar.testing import TestClient

from accord.app import Accord
from accord.clock import FrozenClock
from tests.api.conftest import REFUND, Tokens, bearer
from tests.api.test_reviewer_page import _sign_in

CRITICAL = timedelta(minutes=15)  # R3: a critical dispute's deadline


def _critical_case(accord: Accord) -> tuple[str, str]:
    case = accord.settle(
        "Did the migration pass?",
        [
            {"agent": "agent:billing", "output": True, "confidence": 0.8, "reasoning": "green"},
            {"agent": "agent:audit", "output": False, "confidence": 0.8, "reasoning": "red"},
        ],
    )
    assert case.classification is not None
    assert (case.classification.kind.value, case.classification.severity.value) == (
        "direct_contradiction",
        "critical",
    )
    assert case.approval_item_id is not None
    return case.case_id, case.approval_item_id


def test_the_case_tier_deadline_of_an_undated_item_is_shown_everywhere(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, frozen_clock: FrozenClock
) -> None:
    case_id, item_id = _critical_case(accord)
    assert accord.approvals.get(item_id).deadline is None  # the item's own: none
    due = frozen_clock.now() + CRITICAL

    item = client.get(f"/api/v1/approvals/{item_id}", headers=bearer(tokens.reviewer)).json()
    assert item["deadline"] is None
    acting = item["acting_deadline"]
    assert datetime.fromisoformat(acting["due_at"]) == due
    assert (acting["source"], acting["action"]) == ("case_tier", "abandon")
    assert "case expires" in acting["then"]

    case = client.get(f"/api/v1/cases/{case_id}", headers=bearer(tokens.auditor)).json()
    assert case["deadline"] == acting
    assert case["decision"] is None
    listed = client.get("/api/v1/approvals", headers=bearer(tokens.reviewer)).json()["items"]
    assert [i["acting_deadline"] for i in listed if i["item_id"] == item_id] == [acting]

    parked = client.post(
        f"/api/v1/cases/{case_id}/park", json={"context": {}}, headers=bearer(tokens.agent)
    ).json()
    shown = client.get(f"/api/v1/parked/{parked['task_id']}", headers=bearer(tokens.agent))
    assert shown.json()["deadline"] == acting
    assert shown.json()["verdict"] is None


def test_the_queue_shows_and_sorts_by_the_acting_deadline_and_the_case_page_says_what_then(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, frozen_clock: FrozenClock
) -> None:
    refund = accord.settle("Refund 18,000 to customer 5521", REFUND, task_type="refunds")
    frozen_clock.advance(timedelta(seconds=5))
    _, critical = _critical_case(accord)
    items = [str(refund.approval_item_id), critical]
    due = {i: accord.acting_deadline(accord.approvals.get(i)) for i in items}
    assert all(due.values())
    soonest = sorted(items, key=lambda i: (due[i].due_at, i))  # type: ignore[union-attr]
    _sign_in(client, tokens.reviewer)
    page = client.get("/queue", params={"sort": "deadline"}).text
    assert [page.index(i) for i in soonest] == sorted(page.index(i) for i in soonest)
    row = page[page.index(critical) :].split("</tr>")[0]
    assert (frozen_clock.now() + CRITICAL).isoformat() in row
    assert "case expires" in row
    case_page = client.get(f"/cases/{critical}").text
    assert 'id="acting-deadline"' in case_page
    assert "the case&#39;s tier deadline" in case_page
    assert "withdraws the item (cancelled) and the case expires" in case_page


def test_a_decided_case_shows_the_decision_with_its_reason_and_no_deadline(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    case_id, item_id = _critical_case(accord)
    parked = client.post(
        f"/api/v1/cases/{case_id}/park", json={"context": {}}, headers=bearer(tokens.agent)
    ).json()
    answer = client.post(
        f"/api/v1/approvals/{item_id}/decision",
        json={"choice": "false", "reasoning": "the log shows a failure"},
        headers=bearer(tokens.reviewer),
    )
    assert answer.status_code == 200, answer.text
    assert (answer.json()["verdict"], answer.json()["acting_deadline"]) == ("chosen", None)
    case = client.get(f"/api/v1/cases/{case_id}", headers=bearer(tokens.auditor)).json()
    assert case["deadline"] is None
    decision = case["decision"]
    assert (decision["verdict"], decision["choice"], decision["reason"]) == (
        "chosen",
        "false",
        "the log shows a failure",
    )
    shown = client.get(f"/api/v1/parked/{parked['task_id']}", headers=bearer(tokens.agent)).json()
    assert (shown["verdict"], shown["decision"]) == ("chosen", decision)
    assert shown["item_status"] == "approved"  # deprecated, kept one release
    waited = client.get(
        f"/api/v1/parked/{parked['task_id']}/decision", headers=bearer(tokens.agent)
    ).json()
    assert waited["resumption"]["verdict"] == "chosen"
    # after the one resumption the parked view still carries the decision
    again = client.get(f"/api/v1/parked/{parked['task_id']}", headers=bearer(tokens.agent))
    assert again.json()["decision"] == decision
    _sign_in(client, tokens.reviewer)
    history = client.get("/history").text
    assert 'data-verdict="chosen"' in history
    assert ">approved<" not in history


def test_a_written_outcome_reads_as_written(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    case_id, item_id = _critical_case(accord)
    client.post(
        f"/api/v1/approvals/{item_id}/decision",
        json={"outcome": "rerun the migration", "reasoning": "flaky runner"},
        headers=bearer(tokens.reviewer),
    )
    decision = client.get(f"/api/v1/cases/{case_id}", headers=bearer(tokens.auditor)).json()[
        "decision"
    ]
    assert (decision["verdict"], decision["written_outcome"], decision["choice"]) == (
        "written",
        "rerun the migration",
        None,
    )


def test_the_openapi_marks_the_old_fields_deprecated(
    client: TestClient[Litestar],
) -> None:
    schemas = client.get("/schema/openapi.json").json()["components"]["schemas"]
    parked = next(s for n, s in schemas.items() if n.endswith("ParkedOut"))
    assert parked["properties"]["item_status"].get("deprecated") is True
    decision = next(s for n, s in schemas.items() if n.endswith("ApprovalDecision"))
    assert decision["properties"]["outcome"].get("deprecated") is True


def test_at_the_shown_deadline_the_case_expires_and_every_view_says_cancelled(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, frozen_clock: FrozenClock
) -> None:
    case_id, item_id = _critical_case(accord)
    parked = client.post(
        f"/api/v1/cases/{case_id}/park", json={"context": {}}, headers=bearer(tokens.agent)
    ).json()
    frozen_clock.advance(CRITICAL)
    accord.sweep_deadlines()
    item = client.get(f"/api/v1/approvals/{item_id}", headers=bearer(tokens.reviewer)).json()
    assert (item["status"], item["verdict"], item["acting_deadline"]) == (
        "cancelled",
        "cancelled",
        None,
    )
    case = client.get(f"/api/v1/cases/{case_id}", headers=bearer(tokens.auditor)).json()
    assert (case["deadline"], case["decision"]) == (None, {**_NO_DECISION, "verdict": "cancelled"})
    shown = client.get(f"/api/v1/parked/{parked['task_id']}", headers=bearer(tokens.agent)).json()
    assert (shown["verdict"], shown["deadline"]) == ("cancelled", None)


_NO_DECISION = {
    "choice": None,
    "written_outcome": None,
    "reason": None,
    "decided_by": None,
    "decided_at": None,
    "via": None,
}
