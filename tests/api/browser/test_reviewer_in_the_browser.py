"""A reviewer in Chromium: sign in, move through the queue by keyboard, open a case, see the
diff, decide with 2 + reasoning; a second reviewer's decision is refused naming the first."""

from __future__ import annotations

import re
from typing import Any

import pytest

from accord.api import ApiKeyStore
from accord.app import Accord
from accord.cases import Case
from tests.api.browser.conftest import ARTIFACTS, serious_violations, sign_in
from tests.api.conftest import REFUND


@pytest.fixture
def refund(site_accord: Accord) -> Case:
    """Settled before the browser starts (Playwright's sync API runs an event loop)."""
    return site_accord.settle("Refund 18,000 to customer 5521", REFUND, task_type="refunds")


_sign_in = sign_in


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


def test_a_reviewer_filters_the_queue_opens_a_case_and_decides_by_keyboard_alone(
    refund: Case, site_keys: ApiKeyStore, base_url: str, chromium: Any, site_accord: Accord
) -> None:
    from playwright.sync_api import expect

    item_id = str(refund.approval_item_id)
    _, token = site_keys.create("reviewer", principal_id="human:treasurer")
    page = _sign_in(chromium, base_url, token)
    page.get_by_label("Department").select_option("backend")
    page.get_by_role("button", name="Filter").click()
    expect(page.get_by_text("Nothing waits for a decision with these filters")).to_be_visible()
    page.get_by_label("Department").select_option("billing")
    page.get_by_label("Tier").select_option("human_appeal")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator(f'tr[data-item="{item_id}"]')).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "queue-filtered.png"), full_page=True)

    page.keyboard.press("?")
    expect(page.locator("#keys-help")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#keys-help")).to_be_hidden()
    page.keyboard.press("j")
    expect(page.locator(f'tr[data-item="{item_id}"]')).to_have_class("selected")
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{base_url}/cases/{item_id}")
    expect(page.locator("tr.disagree")).to_have_count(1)
    expect(page.locator("#diff")).to_contain_text("agent:billing")

    page.keyboard.press("r")  # reject; focus moves to the reasoning
    expect(page.locator("#choice-2")).to_be_checked()
    page.keyboard.type("three chargebacks this quarter")
    page.keyboard.press("Tab")
    expect(page.locator("#decide-button")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator('[data-outcome="decided"]')).to_contain_text("reject")
    page.screenshot(path=str(ARTIFACTS / "decided-by-keyboard.png"), full_page=True)
    decision = site_accord.approvals.get(item_id).decision
    assert decision is not None
    assert (decision.choice, decision.decided_by) == ("reject", "human:treasurer")

    page.get_by_role("link", name="History").click()
    page.get_by_role("link", name=re.compile(r"entry \d+ and its proof")).click()
    expect(page.locator('[data-proof="verified"]')).to_be_visible()
    expect(page.locator("main")).to_contain_text(item_id)
    page.screenshot(path=str(ARTIFACTS / "proof.png"), full_page=True)
    assert serious_violations(page) == []


def test_the_queue_and_the_case_page_pass_axe_without_serious_violations(
    refund: Case, site_keys: ApiKeyStore, base_url: str, chromium: Any
) -> None:
    _, token = site_keys.create("reviewer", principal_id="human:treasurer")
    page = _sign_in(chromium, base_url, token)
    assert serious_violations(page) == []
    page.keyboard.press("j")  # a selected row and the open key list
    page.keyboard.press("?")
    assert serious_violations(page) == []
    page.goto(f"{base_url}/cases/{refund.approval_item_id}")
    assert serious_violations(page) == []
    page.goto(f"{base_url}/history")
    assert serious_violations(page) == []


def test_the_axe_check_finds_a_serious_violation_when_there_is_one(chromium: Any) -> None:
    page = chromium.new_page()
    page.set_content('<html lang="en"><title>t</title><main><input type="text"></main></html>')
    assert any(line.startswith("label (critical)") for line in serious_violations(page))


def test_a_reviewer_writes_an_outcome_by_keyboard_and_the_case_settles_on_it(
    refund: Case, site_keys: ApiKeyStore, base_url: str, chromium: Any, site_accord: Accord
) -> None:
    from playwright.sync_api import expect

    item_id = str(refund.approval_item_id)
    _, token = site_keys.create("reviewer", principal_id="human:treasurer")
    page = _sign_in(chromium, base_url, token)
    page.goto(f"{base_url}/cases/{item_id}")
    page.keyboard.press("w")  # write an outcome; focus moves to its field
    expect(page.locator("#choice-outcome")).to_be_checked()
    expect(page.locator("#outcome")).to_be_focused()
    page.keyboard.type("refund 9,000 now, the rest after the audit")
    page.get_by_label("Reasoning (kept in the signed ledger)").fill("half is within policy")
    page.get_by_role("button", name="Decide").click()
    expect(page.locator('[data-outcome="decided"]')).to_contain_text("refund 9,000 now")
    page.screenshot(path=str(ARTIFACTS / "decided-written.png"), full_page=True)
    settled = site_accord.cases.get(refund.case_id)
    assert settled.decision is not None
    assert settled.decision.answer == "refund 9,000 now, the rest after the audit"
    assert serious_violations(page) == []
