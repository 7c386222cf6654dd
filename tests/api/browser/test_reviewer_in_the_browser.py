"""A reviewer in Chromium: sign in, move through the queue by keyboard, open a case, see the
diff, decide with 2 + reasoning; a second reviewer's decision is refused naming the first."""

from __future__ import annotations

from typing import Any

import pytest

from accord.api import ApiKeyStore
from accord.app import Accord
from accord.disputes import Case
from tests.api.browser.conftest import ARTIFACTS
from tests.api.conftest import REFUND


@pytest.fixture
def refund(site_accord: Accord) -> Case:
    """Settled before the browser starts (Playwright's sync API runs an event loop)."""
    return site_accord.settle("Refund 18,000 to customer 5521", REFUND, task_type="refunds")


def _sign_in(browser: Any, base_url: str, token: str) -> Any:
    page = browser.new_context(viewport={"width": 1366, "height": 800}).new_page()
    page.goto(f"{base_url}/signin")
    page.get_by_label("Reviewer key").fill(token)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base_url}/queue")
    return page


def test_a_reviewer_decides_in_the_browser_and_a_second_decision_is_refused(
    refund: Case, site_keys: ApiKeyStore, base_url: str, chromium: Any, site_accord: Accord
) -> None:
    case = refund
    assert case.approval_item_id is not None
    _, first_token = site_keys.create("reviewer", principal_id="human:treasurer")
    _, second_token = site_keys.create("reviewer", principal_id="human:deputy")

    first = _sign_in(chromium, base_url, first_token)
    assert case.approval_item_id in first.content()
    first.screenshot(path=str(ARTIFACTS / "queue.png"), full_page=True)
    first.keyboard.press("j")
    first.keyboard.press("Enter")
    first.wait_for_url(f"{base_url}/cases/{case.approval_item_id}")
    assert first.locator("tr.disagree").count() >= 1
    first.screenshot(path=str(ARTIFACTS / "case.png"), full_page=True)

    second = _sign_in(chromium, base_url, second_token)
    second.goto(f"{base_url}/cases/{case.approval_item_id}")

    first.keyboard.press("2")  # the second option: reject; focus moves to the reasoning
    assert first.locator("#choice-2").is_checked()
    first.keyboard.type("three chargebacks this quarter")
    first.get_by_role("button", name="Decide").click()
    first.locator('[data-outcome="decided"]').wait_for()
    first.screenshot(path=str(ARTIFACTS / "decided.png"), full_page=True)

    second.keyboard.press("1")
    second.keyboard.type("loyal customer")
    second.get_by_role("button", name="Decide").click()
    refused = second.locator('[data-outcome="refused"]')
    refused.wait_for()
    assert "already approved by human:treasurer" in refused.inner_text()
    second.screenshot(path=str(ARTIFACTS / "refused.png"), full_page=True)

    settled = site_accord.cases.get(case.case_id)
    assert settled.status.value == "settled"
    assert settled.decision is not None
    assert settled.decision.answer == "reject"
