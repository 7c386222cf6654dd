"""A reviewer finds a resolved dispute in Chromium, reads it and stays its resolution on the
objection; both pages pass axe."""

from __future__ import annotations

from typing import Any

from accord.api import ApiKeyStore
from accord.app import Accord
from accord.clock import FrozenClock
from tests.api.browser.conftest import ARTIFACTS, serious_violations, sign_in
from tests.api.test_dispute_pages import _objected


def test_r28_a_reviewer_stays_a_resolution_from_the_dispute_page(
    site_accord: Accord,
    site_keys: ApiKeyStore,
    frozen_clock: FrozenClock,
    base_url: str,
    chromium: Any,
) -> None:
    from playwright.sync_api import expect

    stored, objection_id = _objected(site_accord, frozen_clock)
    _, token = site_keys.create("reviewer", principal_id="human:treasurer")
    page = sign_in(chromium, base_url, token)
    page.get_by_role("link", name="Disputes").click()
    expect(page).to_have_url(f"{base_url}/disputes")
    expect(page.get_by_text("No appealing disputes")).to_be_visible()
    page.get_by_label("Status").select_option("resolved")
    page.get_by_role("button", name="Show").click()
    page.get_by_role("link", name=stored.dispute_id).click()
    expect(page).to_have_url(f"{base_url}/disputes/{stored.dispute_id}")
    expect(page.get_by_role("heading", name=objection_id)).to_be_visible()
    assert serious_violations(page) == []
    page.get_by_label("Why the resolution is stayed").fill("the log needs a look")
    page.get_by_role("button", name="Order a stay").click()
    expect(page.locator('[data-outcome="stayed"]')).to_contain_text("human:treasurer")
    page.screenshot(path=str(ARTIFACTS / "dispute-stay.png"), full_page=True)
    assert serious_violations(page) == []
    stay = site_accord.disputes.objections.get(objection_id).stay
    assert stay is not None
    assert stay.ordered_by == "human:treasurer"
    page.goto(f"{base_url}/disputes?status=resolved")
    assert serious_violations(page) == []
