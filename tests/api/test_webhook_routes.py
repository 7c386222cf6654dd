"""``/api/v1/webhooks``: an admin subscribes, lists and deletes; the secret is shown once."""

from __future__ import annotations

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from tests.api.conftest import Tokens, bearer

URL = "https://hooks.example/accord"


def test_an_admin_subscribes_and_sees_the_secret_once(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    made = client.post(
        "/api/v1/webhooks",
        json={"url": URL, "events": ["item.decided"], "agent": "agent:billing"},
        headers=bearer(tokens.admin),
    )
    assert made.status_code == 201, made.text
    body = made.json()
    assert body["secret"].startswith("whsec_")
    assert (body["url"], body["events"], body["source"]) == (URL, ["item.decided"], "api")
    listed = client.get("/api/v1/webhooks", headers=bearer(tokens.admin)).json()
    assert [s["subscription_id"] for s in listed] == [body["subscription_id"]]
    assert listed[0]["secret"] is None


def test_an_admin_deletes_a_subscription_and_a_second_delete_is_404(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    made = client.post("/api/v1/webhooks", json={"url": URL}, headers=bearer(tokens.admin))
    path = f"/api/v1/webhooks/{made.json()['subscription_id']}"
    assert client.delete(path, headers=bearer(tokens.admin)).status_code == 204
    again = client.delete(path, headers=bearer(tokens.admin))
    assert (again.status_code, again.json()["code"]) == (404, "webhooks.not_found")


@pytest.mark.parametrize("role", ["agent", "reviewer", "auditor"])
def test_only_an_admin_manages_webhooks(
    client: TestClient[Litestar], tokens: Tokens, role: str
) -> None:
    token = getattr(tokens, role)
    assert client.get("/api/v1/webhooks", headers=bearer(token)).status_code == 403
    made = client.post("/api/v1/webhooks", json={"url": URL}, headers=bearer(token))
    assert made.status_code == 403


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"url": "ftp://hooks.example/x"}, "url"),
        ({"url": "https://user:pw@hooks.example/x"}, "url"),
        ({"url": "/relative"}, "url"),
        ({"url": URL, "events": ["item.maybe"]}, "events[0]"),
    ],
)
def test_a_bad_subscription_is_refused_naming_the_field(
    client: TestClient[Litestar], tokens: Tokens, body: dict[str, object], field: str
) -> None:
    answer = client.post("/api/v1/webhooks", json=body, headers=bearer(tokens.admin))
    assert answer.status_code in (400, 422), answer.text
    assert answer.json()["field"] == field
    assert client.get("/api/v1/webhooks", headers=bearer(tokens.admin)).json() == []
