"""The dashboard page over HTTP: every chart as inline SVG with a title and a data table."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from accord.app import Accord
from accord.cli.demo import run_day
from tests.api.conftest import Tokens
from tests.api.test_reviewer_page import _sign_in


def test_the_dashboard_needs_a_signed_in_reviewer(client: TestClient[Litestar]) -> None:
    answer = client.get("/dashboard", follow_redirects=False)
    assert answer.headers["location"] == "/signin"


def test_the_dashboard_draws_each_chart_with_a_title_and_a_table(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    run_day(accord)
    _sign_in(client, tokens.reviewer)
    page = client.get("/dashboard").text
    for chart in ("by-kind", "by-tier", "escalation", "tokens", "win-rate", "queue-age"):
        assert f'id="chart-{chart}"' in page
    assert page.count('<svg role="img"') == 6
    assert '<title id="by-kind-title">Cases by kind per day' in page
    assert page.count('<table class="data">') == 6
    assert "agent:audit" in page
    assert "No data in this period." not in page


def test_a_dashboard_with_no_cases_says_so_instead_of_drawing(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    _sign_in(client, tokens.reviewer)
    page = client.get("/dashboard").text
    assert page.count("No data in this period.") == 5  # the queue-age buckets are always there


def test_the_dashboard_period_is_bounded(client: TestClient[Litestar], tokens: Tokens) -> None:
    _sign_in(client, tokens.reviewer)
    assert client.get("/dashboard", params={"days": 7}).status_code == 200
    assert client.get("/dashboard", params={"days": 1000}).status_code == 400
