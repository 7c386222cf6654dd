"""One error body for every refusal: ``{code, message, field, rule, requirement, request_id}``.

``AccordError`` codes map to 4xx by kind (``status_for``); Litestar's own refusals (bad JSON,
unknown or mistyped fields, oversized bodies, unknown routes) get the same shape; anything
unexpected is logged with its request id and answered 500 without internals.
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi.datastructures import ResponseSpec
from pydantic import BaseModel, ConfigDict

from accord.api.auth_errors import Forbidden, Unauthenticated
from accord.api.request_context import request_id_of
from accord.approvals import (
    ConflictedDecider,
    DecisionForbidden,
    NotAParty,
    UnconfiguredReviewer,
)
from accord.errors import (
    AccordError,
    CryptoError,
    IllegalTransition,
    LedgerError,
    NotFound,
    SignatureInvalid,
    StoreError,
)
from accord.log import get_logger

log = get_logger("accord.api")

CONFLICT_CODES = frozenset(
    {
        "approvals.already_decided",
        "keys.already_registered",
        "keys.already_revoked",
        "approvals.conflict",
        "approvals.cancelled",
        "approvals.already_resumed",
        "approvals.pending",
        "receipt.no_decision",
        "idempotency.conflict",
        "disputes.final",
        "objections.already_stayed",
        "compliance.conflict",
        "collecting.already_submitted",
        "collecting.closed",
        "collecting.deadline_passed",
        "disputes.prepared_consumed",
        "disputes.prepared_expired",
        "disputes.prepared_stale",
    }
)
#: Refusals of who acts, not of what was sent: the key's agent is not a party to the dispute
#: (or not its complainant, or not a panel member), or the server holds no registered signing
#: key for the caller.
FORBIDDEN_CODES = frozenset(
    {
        "approvals.no_reviewer_key",
        "api.no_signing_key",
        "disputes.not_a_party",
        "disputes.not_complainant",
        "disputes.unknown_actor",
        "negotiation.not_a_party",
        "objections.not_a_party",
        "coin.not_a_party",
        "panels.nominator_not_a_party",
        "panels.not_a_member",
        "collecting.not_a_party",
        "collecting.not_own_position",
        "collecting.unknown_signer",
        "disputes.prepared_not_yours",
    }
)
_HTTP_CODES = {
    400: "request.invalid",
    401: "auth.unauthenticated",
    403: "auth.forbidden",
    404: "request.not_found",
    405: "request.method_not_allowed",
    413: "request.too_large",
    415: "request.unsupported_media_type",
}


class ErrorBody(BaseModel):
    """What every 4xx/5xx answer carries."""

    model_config = ConfigDict(use_attribute_docstrings=True, frozen=True)

    code: str
    """A stable machine-readable code (e.g. `auth.bad_key_binding`): branch on this."""
    message: str
    """What went wrong, for a person."""
    field: str | None = None
    """The request field at fault, if one."""
    rule: str | None = None
    """The rule it broke, if one."""
    requirement: str | None = None
    """The DCP-07 requirement (``R34``) a refusal by a protocol rule names."""
    request_id: str | None = None
    """The request's id, as in the service's logs and X-Request-ID."""


def status_for(error: AccordError) -> int:
    """The HTTP status of a refusal, from the error's kind (never from its message)."""
    if isinstance(error, Unauthenticated):
        return 401
    if isinstance(
        error, Forbidden | DecisionForbidden | ConflictedDecider | NotAParty | UnconfiguredReviewer
    ):
        return 403
    if error.code in FORBIDDEN_CODES:
        return 403
    if isinstance(error, NotFound) or error.code.endswith("not_found"):
        return 404
    if error.code in CONFLICT_CODES or isinstance(error, IllegalTransition):
        return 409
    if isinstance(error, StoreError):
        return 503
    if isinstance(error, SignatureInvalid):  # a signature handed in that does not verify
        return 422
    if isinstance(error, LedgerError | CryptoError):
        return 500
    return 422


def error_responses(*statuses: int) -> dict[int, ResponseSpec]:
    """OpenAPI entries documenting the error body for ``statuses``."""
    return {
        status: ResponseSpec(data_container=ErrorBody, description=_DESCRIPTIONS[status])
        for status in statuses
    }


_DESCRIPTIONS = {
    400: "Malformed request: bad JSON, unknown or mistyped fields, bad parameters",
    401: "Missing, wrong, expired or revoked API key",
    403: "The key's role or identity may not do this",
    404: "No such object",
    409: "Already decided (the body names the first decision), or a step the object's "
    "current status does not allow",
    413: "Request body too large",
    422: "Well-formed but refused by a rule (the body names the field and the rule)",
    503: "The database is unreachable",
}


def _answer(request: Request[Any, Any, Any], status: int, body: ErrorBody) -> Response[Any]:
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return Response(
        content=body.model_dump(mode="json"),
        status_code=status,
        headers=headers,
        media_type="application/json",
    )


def error_body(exc: AccordError, request_id: str | None) -> ErrorBody:
    """The body of a refusal: the error's code and message, the field and rule it names."""
    field = exc.context.get("field")
    rule = exc.context.get("rule")
    requirement = exc.context.get("requirement")
    return ErrorBody(
        code=exc.code,
        message=exc.message,
        field=None if field is None else str(field),
        rule=None if rule is None else str(rule),
        requirement=None if requirement is None else str(requirement),
        request_id=request_id,
    )


def on_accord_error(request: Request[Any, Any, Any], exc: AccordError) -> Response[Any]:
    status = status_for(exc)
    request_id = request_id_of(request.scope)
    log.info("request.refused", code=exc.code, status=status, request_id=request_id)
    return _answer(request, status, error_body(exc, request_id))


def on_http_error(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    status = exc.status_code
    request_id = request_id_of(request.scope)
    field = rule = None
    message = str(exc.detail)
    if isinstance(exc, ValidationException) and isinstance(exc.extra, list) and exc.extra:
        first = exc.extra[0]
        if isinstance(first, dict):
            field = None if first.get("key") is None else str(first.get("key"))
            rule = str(first.get("message", "")) or None
            message = f"{field}: {rule}" if field else message
    if status >= 500:
        log.error("request.failed", status=status, detail=message, request_id=request_id)
        message = "internal error"
    body = ErrorBody(
        code=_HTTP_CODES.get(status, "request.invalid" if status < 500 else "internal"),
        message=message,
        field=field,
        rule=rule,
        request_id=request_id,
    )
    return _answer(request, status, body)


def on_unexpected(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    request_id = request_id_of(request.scope)
    log.exception("request.crashed", request_id=request_id, error=repr(exc))
    body = ErrorBody(code="internal", message="internal error", request_id=request_id)
    return _answer(request, 500, body)


EXCEPTION_HANDLERS: dict[int | type[Exception], Any] = {
    AccordError: on_accord_error,
    HTTPException: on_http_error,
    Exception: on_unexpected,
}
