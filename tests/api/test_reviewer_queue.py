"""The reviewer's queue over HTTP (no browser): tier, department and sort, rows that refresh
only when the queue changed, and the batch decide bar."""

from __future__ import annotations

import re

from litestar import Litestar
from litestar.testing import TestClient

from accord.app import Accord
from accord.cases import Case
from accord.clock import FrozenClock
from tests.api.conftest import REFUND, Tokens
from tests.api.test_reviewer_page import _csrf, _sign_in


def _two_refunds(accord: Accord, clock: FrozenClock) -> tuple[str, str]:
    from datetime import timedelta

    first = accord.settle("Refund 18,000 to customer 5521", REFUND, task_type="refunds")
    clock.advance(timedelta(seconds=5))
    second = accord.settle("Refund 300 to customer 17", REFUND, task_type="refunds")
    assert first.approval_item_id is not None
    assert second.approval_item_id is not None
    return first.approval_item_id, second.approval_item_id


def test_the_queue_filters_by_tier_and_by_the_department_of_a_party(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    _sign_in(client, tokens.reviewer)
    item = str(escalated.approval_item_id)
    assert item in client.get("/queue", params={"tier": "human_appeal"}).text
    assert item not in client.get("/queue", params={"tier": "direct_negotiation"}).text
    assert item in client.get("/queue", params={"department": "billing"}).text
    assert item not in client.get("/queue", params={"department": "backend"}).text


def test_an_unknown_department_or_sort_is_refused_naming_it(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    _sign_in(client, tokens.reviewer)
    unknown = client.get("/queue", params={"department": "nowhere"})
    assert unknown.status_code == 404
    assert "unknown department &#39;nowhere&#39;" in unknown.text
    bad_sort = client.get("/queue", params={"sort": "loudest"})
    assert bad_sort.status_code == 422
    assert "unknown sort &#39;loudest&#39;" in bad_sort.text


def test_the_queue_sorts_oldest_or_newest_first(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, frozen_clock: FrozenClock
) -> None:
    older, newer = _two_refunds(accord, frozen_clock)
    _sign_in(client, tokens.reviewer)
    oldest = client.get("/queue").text
    assert oldest.index(older) < oldest.index(newer)
    newest = client.get("/queue", params={"sort": "newest"}).text
    assert newest.index(newer) < newest.index(older)
    by_deadline = client.get("/queue", params={"sort": "deadline"}).text
    assert by_deadline.index(older) < by_deadline.index(newer)  # the older one is due first


def test_the_rows_answer_204_until_the_queue_changes(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, escalated: Case
) -> None:
    _sign_in(client, tokens.reviewer)
    page = client.get("/queue").text
    token = re.search(r'data-token="([0-9a-f]+)"', page)
    assert token is not None
    unchanged = client.get("/queue/rows", params={"seen": token.group(1)})
    assert unchanged.status_code == 204
    accord.settle("Refund 99 to customer 3", REFUND, task_type="refunds")
    changed = client.get("/queue/rows", params={"seen": token.group(1)})
    assert changed.status_code == 200
    assert "Refund 99 to customer 3" in changed.text
    assert 'hx-swap-oob="true"' in changed.text  # the count follows


def test_the_rows_need_a_session_and_send_htmx_to_the_sign_in(
    client: TestClient[Litestar],
) -> None:
    answer = client.get("/queue/rows")
    assert answer.status_code == 401
    assert answer.headers["hx-redirect"] == "/signin"


def test_the_batch_bar_answers_htmx_with_its_fragment_and_a_plain_form_with_a_page(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, frozen_clock: FrozenClock
) -> None:
    first, second = _two_refunds(accord, frozen_clock)
    _sign_in(client, tokens.reviewer)
    csrf = _csrf(client.get("/queue").text)
    form = {"verdict": "deny", "reasoning": "none stands", "_csrf_token": csrf}
    by_htmx = client.post(
        "/queue/decisions", data={**form, "item": first}, headers={"HX-Request": "true"}
    )
    assert by_htmx.text.lstrip().startswith('<p class="ok" data-outcome="batch">')
    plain = client.post("/queue/decisions", data={**form, "item": second})
    assert plain.text.startswith("<!doctype html>")
    assert 'data-outcome="batch"' in plain.text


def test_the_batch_bar_decides_each_selected_item_and_reports_a_refused_one(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, frozen_clock: FrozenClock
) -> None:
    first, second = _two_refunds(accord, frozen_clock)
    _sign_in(client, tokens.reviewer)
    page = client.get(f"/cases/{first}").text
    form = {"verdict": "1", "reasoning": "first", "_csrf_token": _csrf(page)}
    assert client.post(f"/cases/{first}/decision", data=form).status_code == 200
    queue = client.get("/queue").text
    answer = client.post(
        "/queue/decisions",
        data={
            "item": [first, second],
            "verdict": "option:reject",
            "preset": "Outside policy limits",
            "reasoning": "batch",
            "_csrf_token": _csrf(queue),
        },
    )
    assert answer.status_code == 200, answer.text
    assert answer.headers["hx-trigger"] == "queue-changed"
    assert f'data-item="{first}" data-outcome="refused"' in answer.text
    assert "already approved by human:treasurer" in answer.text
    assert f'data-item="{second}" data-outcome="decided"' in answer.text
    decided = accord.approvals.get(second)
    assert decided.decision is not None
    assert decided.decision.choice == "reject"
    assert decided.decision.decided_by == "human:treasurer"  # from the session
    assert decided.decision.reason == "Outside policy limits: batch"


def test_the_batch_bar_without_its_csrf_token_is_403(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord
) -> None:
    _sign_in(client, tokens.reviewer)
    item = str(escalated.approval_item_id)
    answer = client.post(
        "/queue/decisions", data={"item": [item], "verdict": "deny", "reasoning": "x"}
    )
    assert answer.status_code == 403
    assert accord.approvals.get(item).is_pending


def test_the_batch_bar_refuses_an_empty_selection_or_no_reason(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord
) -> None:
    _sign_in(client, tokens.reviewer)
    csrf = _csrf(client.get("/queue").text)
    item = str(escalated.approval_item_id)
    none = client.post(
        "/queue/decisions", data={"verdict": "deny", "reasoning": "x", "_csrf_token": csrf}
    )
    assert none.status_code == 422, none.text
    assert "select at least one item" in none.text
    unreasoned = client.post(
        "/queue/decisions",
        data={"item": [item], "verdict": "deny", "preset": "made up", "_csrf_token": csrf},
    )
    assert unreasoned.status_code == 422  # a preset the page does not offer is no reason
    assert accord.approvals.get(item).is_pending
    denied = client.post(
        "/queue/decisions",
        data={"item": [item], "verdict": "deny", "reasoning": "none stands", "_csrf_token": csrf},
    )
    assert denied.status_code == 200
    assert accord.approvals.get(item).status.value == "denied"
