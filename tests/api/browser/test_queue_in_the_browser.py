"""The queue in Chromium: deadlines count down, rows arrive and leave by themselves, and the
batch bar decides several items at once."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from accord.api import ApiKeyStore
from accord.app import Accord
from accord.cases import Case
from accord.clock import FrozenClock
from accord.crypto.keyring import role_key_name
from tests.api.browser.conftest import ARTIFACTS, sign_in
from tests.api.conftest import REFUND


@pytest.fixture
def refunds(site_accord: Accord, frozen_clock: FrozenClock) -> list[Case]:
    """Settled before the browser starts (Playwright's sync API runs an event loop)."""
    from datetime import timedelta

    cases = []
    for n in range(3):
        frozen_clock.advance(timedelta(seconds=1))
        cases.append(
            site_accord.settle(f"Refund {n}00 to customer {n}", REFUND, task_type="refunds")
        )
    return cases


def _settle_over_http(base_url: str, token: str, subject: str) -> str:
    answer = httpx.post(
        f"{base_url}/api/v1/settle",
        json={"subject": subject, "positions": REFUND, "task_type": "refunds"},
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    answer.raise_for_status()
    return str(answer.json()["approval_item_id"])


def test_deadlines_count_down_on_the_servers_time(
    refunds: list[Case],
    site_keys: ApiKeyStore,
    base_url: str,
    chromium: Any,
    frozen_clock: FrozenClock,
) -> None:
    from playwright.sync_api import expect

    _, token = site_keys.create("reviewer", principal_id="human:treasurer")
    page = chromium.new_context(viewport={"width": 1366, "height": 800}).new_page()
    page.clock.install(time=frozen_clock.now())  # the browser's clock reads the server's time
    page.goto(f"{base_url}/signin")
    page.get_by_label("Reviewer key").fill(token)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(f"{base_url}/queue")
    first = page.locator(f'tr[data-item="{refunds[0].approval_item_id}"] time')
    expect(first).to_have_text("3h 59m left")
    page.clock.run_for("01:00")
    expect(first).to_have_text("3h 58m left")
    page.clock.run_for("04:00:00")
    expect(first).to_have_text("overdue")


def test_the_queue_updates_itself_when_items_arrive_and_leave(
    refunds: list[Case], site_keys: ApiKeyStore, site_accord: Accord, base_url: str, chromium: Any
) -> None:
    from playwright.sync_api import expect

    _, token = site_keys.create("reviewer", principal_id="human:treasurer")
    _, admin = site_keys.create("admin")
    page = sign_in(chromium, base_url, token)
    expect(page.locator("#queue-count")).to_have_text("(3)")
    page.locator(f'input[value="{refunds[0].approval_item_id}"]').check()

    arrived = _settle_over_http(base_url, admin, "Refund 777 to customer 7")
    polled = {"timeout": 15_000}  # the rows poll every 5 s
    expect(page.locator(f'tr[data-item="{arrived}"]')).to_be_visible(**polled)
    expect(page.locator("#queue-count")).to_have_text("(4)")
    expect(page.locator("tbody")).to_have_count(1)  # the rows replaced themselves

    gone = str(refunds[1].approval_item_id)
    deputy = site_accord.key_signer(role_key_name("reviewer", "human:deputy"))
    site_accord.decide(gone, deputy, choice="approve", reason="decided elsewhere")
    expect(page.locator(f'tr[data-item="{gone}"]')).to_have_count(0, **polled)
    expect(page.locator("#queue-count")).to_have_text("(3)")
    # a box checked before the rows were replaced stays checked
    expect(page.locator(f'input[value="{refunds[0].approval_item_id}"]')).to_be_checked()
    expect(page.locator("#selected-count")).to_have_text("(1 selected)")
    page.screenshot(path=str(ARTIFACTS / "queue-live.png"), full_page=True)


def test_a_reviewer_selects_items_by_keyboard_and_decides_them_with_the_batch_bar(
    refunds: list[Case], site_keys: ApiKeyStore, site_accord: Accord, base_url: str, chromium: Any
) -> None:
    from playwright.sync_api import expect

    _, token = site_keys.create("reviewer", principal_id="human:treasurer")
    page = sign_in(chromium, base_url, token)
    page.keyboard.press("j")
    page.keyboard.press("x")
    page.keyboard.press("j")
    page.keyboard.press("x")
    expect(page.locator("#selected-count")).to_have_text("(2 selected)")
    page.get_by_label("Verdict").select_option("option:reject")
    page.get_by_label("Preset reason", exact=True).select_option("Outside policy limits")
    page.get_by_label("Reasoning", exact=True).fill("a batch of chargebacks")
    page.get_by_role("button", name="Decide selected").click()
    expect(page.locator('[data-outcome="batch"]')).to_have_text("2 of 2 decided.")
    left = page.locator("tr[data-item]")
    expect(left).to_have_count(1)  # the rows refreshed at once
    expect(page.locator("#selected-count")).to_have_text("(none selected)")
    page.screenshot(path=str(ARTIFACTS / "batch-decided.png"), full_page=True)
    for case in refunds[:2]:
        decision = site_accord.approvals.get(str(case.approval_item_id)).decision
        assert decision is not None
        assert (decision.choice, decision.decided_by) == ("reject", "human:treasurer")
        assert decision.reason == "Outside policy limits: a batch of chargebacks"
    assert site_accord.approvals.get(str(refunds[2].approval_item_id)).is_pending
