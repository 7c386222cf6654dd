"""Identity comes from the key: roles, bindings, and 401 for every bad credential."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from litestar import Litestar, Request, WebSocket, get, route, websocket
from litestar.testing import TestClient

from accord.api import ApiKeyStore
from accord.api.api_keys import Role
from accord.api.app_factory import GUARDED
from accord.api.guards import allow, refuse_unguarded_routes
from accord.app import Accord
from accord.cases import Case
from accord.clock import FrozenClock
from tests.api.conftest import Tokens, bearer

ONE_AGENT = {
    "subject": "Label of ticket 1",
    "positions": [{"agent": "agent:billing", "output": "bug"}],
}


def test_without_a_key_every_api_route_is_401_with_the_uniform_body(
    client: TestClient[Litestar],
) -> None:
    answer = client.get("/api/v1/cases")
    assert answer.status_code == 401
    body = answer.json()
    assert body["code"] == "auth.unauthenticated"
    assert body["field"] == "authorization"
    assert body["request_id"] == answer.headers["x-request-id"]
    assert answer.headers["www-authenticate"] == "Bearer"


def _api_calls(app: Litestar) -> list[tuple[str, str]]:
    """(method, path) of every JSON API route, path parameters filled with a placeholder."""
    calls = []
    for served in app.routes:
        for handler in getattr(served, "route_handlers", ()):
            methods = set(getattr(handler, "http_methods", ())) - {"OPTIONS"}
            if served.path.startswith("/api/"):
                filled = re.sub(r"\{[^}:]+:int\}", "1", served.path)
                filled = re.sub(r"\{[^}]+\}", "x", filled)
                calls += [(method, filled) for method in sorted(methods)]
    return calls


def test_every_api_route_refuses_a_call_without_a_key_before_reading_its_body(
    client: TestClient[Litestar], app: Litestar
) -> None:
    calls = _api_calls(app)
    assert len(calls) > 60  # the routes were found
    for method, path in calls:
        answer = client.request(method, path, content=b"{not json")
        assert (method, path, answer.status_code) == (method, path, 401)
        assert answer.json()["code"] == "auth.unauthenticated"


def test_an_app_with_an_api_route_that_names_no_roles_is_refused() -> None:
    @get("/api/v1/open", sync_to_thread=False)
    def open_route() -> str:
        return "anyone"

    @get("/api/v1/closed", opt=allow(Role.ADMIN), sync_to_thread=False)
    def closed_route() -> str:
        return "admins"

    async def hook(request: Request[Any, Any, Any]) -> None:
        return None

    refuse_unguarded_routes(Litestar([closed_route], before_request=hook), ("/api/",))
    with pytest.raises(RuntimeError, match="names no roles"):
        refuse_unguarded_routes(
            Litestar([open_route, closed_route], before_request=hook), ("/api/",)
        )


def test_an_app_with_a_route_replacing_the_before_request_check_is_refused() -> None:
    async def apps_check(request: Request[Any, Any, Any]) -> None:
        return None

    async def routes_own(request: Request[Any, Any, Any]) -> None:
        return None

    @get("/api/v1/own-hook", opt=allow(Role.ADMIN), before_request=routes_own,
         sync_to_thread=False)
    def own_hook() -> str:
        return "skips the app's check"

    with pytest.raises(RuntimeError, match="replaces the app's before_request"):
        refuse_unguarded_routes(Litestar([own_hook], before_request=apps_check), ("/api/",))


@pytest.mark.parametrize(
    "header", ["Bearer acc_wrong", "Basic dXNlcjpwYXNz", "Bearer", "acc_token-without-scheme"]
)
def test_a_wrong_or_malformed_key_is_401(client: TestClient[Litestar], header: str) -> None:
    answer = client.get("/api/v1/cases", headers={"Authorization": header})
    assert answer.status_code == 401


def test_a_revoked_key_is_401_from_the_next_request_on(
    client: TestClient[Litestar], keys: ApiKeyStore
) -> None:
    key, token = keys.create("auditor")
    assert client.get("/api/v1/cases", headers=bearer(token)).status_code == 200
    keys.revoke(key.key_id)
    answer = client.get("/api/v1/cases", headers=bearer(token))
    assert answer.status_code == 401
    assert answer.json()["rule"] == "revoked"


def test_an_expired_key_is_401(
    client: TestClient[Litestar], keys: ApiKeyStore, frozen_clock: FrozenClock
) -> None:
    _, token = keys.create("auditor", expires_at=frozen_clock.now() + timedelta(minutes=5))
    frozen_clock.advance(timedelta(minutes=5))
    answer = client.get("/api/v1/cases", headers=bearer(token))
    assert answer.status_code == 401
    assert answer.json()["rule"] == "expired"


def test_an_agent_filing_only_as_itself_passes_the_guard_and_meets_the_settle_rules(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    # its own position passes the identity guard (no 403); one position is not a disagreement
    answer = client.post("/api/v1/settle", json=ONE_AGENT, headers=bearer(tokens.agent))
    assert answer.status_code == 422
    assert answer.json()["code"] == "settle.too_few_positions"


def test_an_agent_settling_a_position_of_another_agent_is_403_and_nothing_is_written(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    body = {
        "subject": "Total of invoice 4411",
        "positions": [
            {"agent": "agent:billing", "output": 1200},
            {"agent": "agent:audit", "output": 1450},
        ],
    }
    answer = client.post("/api/v1/settle", json=body, headers=bearer(tokens.agent))
    assert answer.status_code == 403
    assert answer.json()["field"] == "positions[1].agent"
    assert accord.cases.total() == 0


def test_an_agent_cannot_slip_another_agent_into_a_batch(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    other = {"subject": "x", "positions": [{"agent": "agent:audit", "output": 1}]}
    answer = client.post(
        "/api/v1/settle/batch", json={"requests": [ONE_AGENT, other]}, headers=bearer(tokens.agent)
    )
    assert answer.status_code == 403
    assert accord.cases.total() == 0


def test_an_admin_settles_for_any_agents(client: TestClient[Litestar], tokens: Tokens) -> None:
    body = {
        "subject": "Triage ticket #7781",
        "positions": [
            {"agent": "agent:backend", "output": "bug"},
            {"agent": "agent:qa", "output": "feature"},
        ],
    }
    assert client.post("/api/v1/settle", json=body, headers=bearer(tokens.admin)).status_code == 200


@pytest.mark.parametrize("role", ["reviewer", "auditor"])
def test_reviewers_and_auditors_cannot_settle(
    client: TestClient[Litestar], tokens: Tokens, role: str
) -> None:
    answer = client.post("/api/v1/settle", json=ONE_AGENT, headers=bearer(getattr(tokens, role)))
    assert answer.status_code == 403
    assert answer.json()["code"] == "auth.forbidden"


@pytest.mark.parametrize("role", ["agent", "auditor", "admin"])
def test_only_a_reviewer_key_decides(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, role: str
) -> None:
    answer = client.post(
        f"/api/v1/approvals/{escalated.approval_item_id}/decision",
        json={"choice": "reject", "reasoning": "chargebacks"},
        headers=bearer(getattr(tokens, role)),
    )
    assert answer.status_code == 403


def test_an_auditor_reads_everything(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    for path in (
        "/api/v1/cases",
        f"/api/v1/cases/{escalated.case_id}",
        "/api/v1/approvals",
        f"/api/v1/approvals/{escalated.approval_item_id}",
        "/api/v1/ledger/verify",
        "/api/v1/ledger/tail",
        "/metrics",
    ):
        assert client.get(path, headers=bearer(tokens.auditor)).status_code == 200, path


def test_an_agent_reads_cases_but_not_the_approval_queue(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    assert client.get("/api/v1/cases", headers=bearer(tokens.agent)).status_code == 200
    assert client.get("/api/v1/approvals", headers=bearer(tokens.agent)).status_code == 403


def test_a_decider_named_in_the_body_is_refused_and_the_key_decides(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    path = f"/api/v1/approvals/{escalated.approval_item_id}/decision"
    claimed = {"choice": "reject", "reasoning": "r", "decided_by": "human:ceo"}
    refused = client.post(path, json=claimed, headers=bearer(tokens.reviewer))
    assert refused.status_code == 400
    assert refused.json()["field"] == "decided_by"
    decided = client.post(
        path, json={"choice": "reject", "reasoning": "r"}, headers=bearer(tokens.reviewer)
    )
    assert decided.json()["decision"]["decided_by"] == "human:treasurer"


async def _hook(request: Request[Any, Any, Any]) -> None:
    return None


def test_an_app_with_a_websocket_route_under_the_api_is_refused() -> None:
    @websocket("/api/v1/socket", opt=allow(Role.ADMIN))
    async def socket(socket: WebSocket[Any, Any, Any]) -> None:
        await socket.close()

    with pytest.raises(RuntimeError, match="not plain HTTP"):
        refuse_unguarded_routes(Litestar([socket], before_request=_hook), ("/api/",))


def test_an_app_with_a_cached_route_that_names_roles_is_refused() -> None:
    @get("/api/v1/cached", opt=allow(Role.ADMIN), cache=60, sync_to_thread=False)
    def cached() -> str:
        return "sent again before any key check"

    with pytest.raises(RuntimeError, match="caches its answer"):
        refuse_unguarded_routes(Litestar([cached], before_request=_hook), ("/api/",))


def test_an_options_route_of_our_own_under_the_api_must_name_roles_too() -> None:
    @route("/api/v1/probe", http_method=["OPTIONS"], sync_to_thread=False)
    def probe() -> str:
        return "not Litestar's own OPTIONS answer"

    with pytest.raises(RuntimeError, match="names no roles"):
        refuse_unguarded_routes(Litestar([probe], before_request=_hook), ("/api/",))


@pytest.mark.parametrize("path", ["/metrics", "/api/v2/later"])
def test_the_services_guarded_paths_refuse_an_open_metrics_or_later_api_route(path: str) -> None:
    @get(path, sync_to_thread=False)
    def open_route() -> str:
        return "anyone"

    with pytest.raises(RuntimeError, match="names no roles"):
        refuse_unguarded_routes(Litestar([open_route], before_request=_hook), GUARDED)
