"""Refusals map to statuses by kind; every answer carries a request id."""

from __future__ import annotations

import logging

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from accord.api.auth_errors import Forbidden, Unauthenticated
from accord.api.errors import error_body, status_for
from accord.approvals.refusals import AlreadyDecided, ApprovalCancelled, DecisionForbidden
from accord.errors import (
    AccordError,
    ConfigError,
    CryptoError,
    IllegalTransition,
    LedgerError,
    NotFound,
    SignatureInvalid,
    StoreError,
    ValidationError,
)
from tests.api.conftest import Tokens, bearer


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (Unauthenticated("x"), 401),
        (Forbidden("x"), 403),
        (DecisionForbidden("x"), 403),
        (NotFound("x"), 404),
        (AccordError("x", code="boundaries.not_found"), 404),
        (AlreadyDecided("x"), 409),
        (ApprovalCancelled("x"), 409),
        (AccordError("x", code="approvals.conflict"), 409),
        (IllegalTransition("x", from_status="resolved", to_status="open"), 409),
        (ValidationError("x"), 422),
        (ConfigError("x"), 422),
        (StoreError("x"), 503),
        (LedgerError("x"), 500),
        (CryptoError("x"), 500),
        (SignatureInvalid("x", field="composite_sig.classical"), 422),
    ],
)
def test_each_kind_of_refusal_has_its_status(error: AccordError, status: int) -> None:
    assert status_for(error) == status


def test_a_refusal_by_a_dcp_rule_names_its_field_rule_and_requirement() -> None:
    refusal = ValidationError(
        "x", code="dcp.rate_limited", field="complainant", rule="10 per 24 h", requirement="R34"
    )
    body = error_body(refusal, "req-1")
    assert (body.field, body.rule, body.requirement) == ("complainant", "10 per 24 h", "R34")
    assert error_body(ValidationError("x"), None).requirement is None


def test_a_clients_request_id_is_echoed_in_the_header_and_the_error_body(
    client: TestClient[Litestar],
) -> None:
    answer = client.get("/api/v1/cases", headers={"X-Request-ID": "trace-42"})
    assert answer.headers["x-request-id"] == "trace-42"
    assert answer.json()["request_id"] == "trace-42"


def test_an_unusable_client_request_id_is_replaced(client: TestClient[Litestar]) -> None:
    answer = client.get("/health", headers={"X-Request-ID": "bad id\twith spaces"})
    assert answer.headers["x-request-id"] != "bad id\twith spaces"
    assert len(answer.headers["x-request-id"]) == 16


def test_a_refusal_is_logged_with_its_request_id(
    client: TestClient[Litestar], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="accord")
    answer = client.get("/api/v1/cases")
    assert f"request_id='{answer.headers['x-request-id']}'" in caplog.text


def test_an_unknown_route_and_a_wrong_method_are_uniform_4xx(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    missing = client.get("/api/v1/nothing-here", headers=bearer(tokens.admin))
    assert (missing.status_code, missing.json()["code"]) == (404, "request.not_found")
    wrong = client.delete("/api/v1/cases", headers=bearer(tokens.admin))
    assert (wrong.status_code, wrong.json()["code"]) == (405, "request.method_not_allowed")


def test_a_nul_character_in_the_query_or_path_is_400_on_every_database(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    """Found by schemathesis: PostgreSQL refuses NUL in text, which was a 500."""
    for path in ("/api/v1/cases?agent=a%00b", "/api/v1/cases/disp%00x"):
        answer = client.get(path, headers=bearer(tokens.admin))
        assert answer.status_code == 400, path
        assert answer.json()["rule"] == "no NUL characters"
        assert answer.json()["request_id"] == answer.headers["x-request-id"]


def test_an_unknown_query_parameter_is_400_naming_it(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    answer = client.get(
        "/api/v1/cases", params={"staus": "escalated"}, headers=bearer(tokens.admin)
    )
    assert answer.status_code == 400
    assert answer.json()["field"] == "staus"
    assert answer.json()["rule"] == "unknown query parameter"


def test_a_repeated_query_parameter_is_400(client: TestClient[Litestar], tokens: Tokens) -> None:
    """Found by schemathesis: ``?case_id=a&case_id=b`` silently used one of them."""
    answer = client.get("/api/v1/approvals?case_id=a&case_id=b", headers=bearer(tokens.admin))
    assert answer.status_code == 400
    assert answer.json()["rule"] == "given more than once"


def test_pages_and_static_files_ignore_extra_query_parameters(
    client: TestClient[Litestar],
) -> None:
    assert client.get("/static/reviewer.js", params={"v": "2"}).status_code == 200
    assert client.get("/signin", params={"next": "/queue"}).status_code == 200
