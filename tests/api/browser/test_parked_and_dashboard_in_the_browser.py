"""An agent's parked task resumes in another process when the reviewer decides in Chromium;
the dashboard draws its charts."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import httpx
import pytest

from accord.api import ApiKeyStore
from accord.app import Accord
from accord.cli.demo import run_day
from tests.api.browser.conftest import ARTIFACTS, serious_violations, sign_in
from tests.api.conftest import REFUND

#: The agent's side, in its own Python process: wait for the decision by long-poll.
WAITER = """
import httpx, sys
auth = {"Authorization": "Bearer " + sys.argv[2]}
answer = httpx.get(sys.argv[1], params={"wait": 60}, headers=auth, timeout=90)
print(answer.status_code)
print(answer.text)
"""


def test_a_parked_task_resumes_in_another_process_when_the_reviewer_decides(
    site_keys: ApiKeyStore, site_accord: Accord, base_url: str, chromium: Any
) -> None:
    from playwright.sync_api import expect

    _, agent = site_keys.create("agent", agent_id="agent:billing")
    _, reviewer = site_keys.create("reviewer", principal_id="human:treasurer")
    auth = {"Authorization": f"Bearer {agent}"}
    settled = httpx.post(
        f"{base_url}/api/v1/settle",
        json={"subject": "Refund 18,000", "positions": REFUND, "task_type": "refunds"},
        headers={"Authorization": f"Bearer {site_keys.create('admin')[1]}"},
        timeout=30,
    ).json()
    parked = httpx.post(
        f"{base_url}/api/v1/cases/{settled['case_id']}/park",
        json={"context": {"step": "refund-5521", "next": "notify"}},
        headers=auth,
        timeout=30,
    )
    assert parked.status_code == 201, parked.text
    task_id = parked.json()["task_id"]
    waiter = subprocess.Popen(
        [sys.executable, "-c", WAITER, f"{base_url}/api/v1/parked/{task_id}/decision", agent],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        page = sign_in(chromium, base_url, reviewer)
        page.goto(f"{base_url}/cases/{settled['approval_item_id']}")
        page.keyboard.press("a")
        page.keyboard.type("loyal customer")
        page.get_by_role("button", name="Decide").click()
        expect(page.locator('[data-outcome="decided"]')).to_contain_text("approve")
        out, _ = waiter.communicate(timeout=90)
    finally:
        waiter.kill()
    status, body = out.split("\n", 1)
    assert status == "200", body
    resumed = json.loads(body)
    assert resumed["resumed"] is True
    assert resumed["resumption"]["context"] == {"step": "refund-5521", "next": "notify"}
    assert resumed["resumption"]["decision"]["choice"] == "approve"
    assert site_accord.parking.get(task_id).resumed_at is not None


@pytest.fixture
def demo_day(site_accord: Accord) -> None:
    """The demo's day, settled before the browser starts (Playwright runs an event loop)."""
    run_day(site_accord)


def test_the_dashboard_draws_its_charts_and_passes_axe(
    demo_day: None, site_keys: ApiKeyStore, base_url: str, chromium: Any
) -> None:
    from playwright.sync_api import expect

    _, token = site_keys.create("reviewer", principal_id="human:treasurer")
    page = sign_in(chromium, base_url, token)
    page.get_by_role("link", name="Dashboard").click()
    expect(page).to_have_url(f"{base_url}/dashboard")
    kinds = page.get_by_role("img", name="Cases by kind per day")
    expect(kinds).to_be_visible()
    assert kinds.locator("rect").count() >= 2
    expect(page.locator("svg[role=img]")).to_have_count(6)
    page.locator("#chart-win-rate summary").click()
    expect(page.locator("#chart-win-rate table")).to_contain_text("agent:audit")
    page.screenshot(path=str(ARTIFACTS / "dashboard.png"), full_page=True)
    assert serious_violations(page) == []
