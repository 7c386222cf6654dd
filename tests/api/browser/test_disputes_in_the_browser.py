"""A reviewer finds a resolved dispute in Chromium, reads it and stays its resolution on the
objection; a reviewer decides a dispute at human appeal in their own words; the pages pass
axe."""

from __future__ import annotations

from typing import Any

from accord.api import ApiKeyStore
from accord.app import Accord
from accord.clock import FrozenClock
from tests.api.browser.conftest import ARTIFACTS, serious_violations, sign_in
from tests.api.test_dispute_pages import _objected
from tests.disputes._rules import filing

TREASURER = "human:treasurer"


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


def test_r16_a_reviewer_decides_an_appeal_in_their_own_words_from_the_dispute_page(
    site_accord: Accord,
    site_keys: ApiKeyStore,
    base_url: str,
    chromium: Any,
) -> None:
    from playwright.sync_api import expect

    def party(agent_id: str) -> dict[str, str]:
        return {"agent_id": agent_id, "principal_id": TREASURER, "organization_id": "acme"}

    stored = site_accord.disputes.open(
        filing(complainant=party("agent:ops"), respondents=[party("agent:batch")])
    )
    site_accord.disputes.escalate(stored.dispute_id, by="agent:ops", to_tier="human_appeal")
    _, token = site_keys.create("reviewer", principal_id=TREASURER)
    page = sign_in(chromium, base_url, token)
    page.get_by_role("link", name="Disputes").click()
    page.get_by_role("link", name=stored.dispute_id).click()
    expect(page.get_by_role("heading", name="Decide the appeal")).to_be_visible()
    assert serious_violations(page) == []
    page.get_by_label("Outcome").fill("ops keeps tonight's slot;\nbatch runs from 02:00 UTC")
    page.get_by_label("Reasoning").fill("ops booked first; the batch can wait")
    page.get_by_role("button", name="Decide the appeal").click()
    expect(page.locator('[data-outcome="decided"]')).to_contain_text(TREASURER)
    page.screenshot(path=str(ARTIFACTS / "dispute-appeal.png"), full_page=True)
    assert serious_violations(page) == []
    resolution = site_accord.disputes.show(stored.dispute_id).resolution
    assert resolution is not None
    assert resolution.outcome.description == "ops keeps tonight's slot;\nbatch runs from 02:00 UTC"
    assert [s.agent_id for s in resolution.signatures] == [TREASURER]


def test_r16_two_principals_propose_and_co_sign_an_appeal_from_the_dispute_page(
    site_accord: Accord,
    site_keys: ApiKeyStore,
    base_url: str,
    chromium: Any,
) -> None:
    from playwright.sync_api import expect

    def party(agent_id: str, principal_id: str) -> dict[str, str]:
        return {"agent_id": agent_id, "principal_id": principal_id, "organization_id": "acme"}

    stored = site_accord.disputes.open(
        filing(
            complainant=party("agent:ops", TREASURER),
            respondents=[party("agent:batch", "human:deputy")],
        )
    )
    site_accord.disputes.escalate(stored.dispute_id, by="agent:ops", to_tier="human_appeal")
    url = f"{base_url}/disputes/{stored.dispute_id}"
    page = sign_in(chromium, base_url, site_keys.create("reviewer", principal_id=TREASURER)[1])
    page.goto(url)
    page.get_by_label("Outcome").fill("ops keeps tonight's slot")
    page.get_by_label("Reasoning").fill("ops booked first")
    page.get_by_role("button", name="Decide the appeal").click()
    expect(page.locator('[data-outcome="proposed"]')).to_contain_text("human:deputy")
    deputy = sign_in(
        chromium, base_url, site_keys.create("reviewer", principal_id="human:deputy")[1]
    )
    deputy.goto(url)
    expect(deputy.get_by_role("heading", name="Pending decision")).to_be_visible()
    expect(deputy.locator("[data-signed-by]")).to_have_text(TREASURER)
    assert serious_violations(deputy) == []
    deputy.get_by_role("button", name="Sign this decision").click()
    expect(deputy.locator('[data-outcome="decided"]')).to_contain_text("human:deputy")
    deputy.screenshot(path=str(ARTIFACTS / "dispute-joint-appeal.png"), full_page=True)
    resolution = site_accord.disputes.show(stored.dispute_id).resolution
    assert resolution is not None
    assert sorted(s.agent_id for s in resolution.signatures) == ["human:deputy", TREASURER]
