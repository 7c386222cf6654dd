"""Onboarding over HTTP, for an admin key: issue, list and revoke API keys, and enrol an
agent's own Ed25519 public key (the server never sees its private key).

Each issue and revocation is a signed ledger entry (``api_key_issued`` / ``api_key_revoked``,
naming the admin key that acted, never the token); an enrolment is the ledger's
``key_registered`` entry, after which the agent's signatures verify as its own.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from litestar import Request, get, post
from litestar.datastructures import State
from litestar.params import JSONBody, Parameter
from pydantic import BaseModel, ConfigDict, Field

from accord.api import body_examples
from accord.api.api_keys import ApiKey, ApiKeyStore, Role
from accord.api.errors import error_responses
from accord.api.guards import allow, caller
from accord.api.routes._state import accord_of
from accord.crypto import parse_public_key

_TAGS = ["onboarding"]
_ADMIN = allow(Role.ADMIN)
_ID = Annotated[str, Field(min_length=1, max_length=256, pattern=r"^[^\x00-\x1f\x7f]+$")]
#: The longest public key text taken: a PEM Ed25519 key is ~113 characters.
MAX_PUBLIC_KEY_CHARS = 1_000
MAX_DAYS = 3_650


class IssueKeyIn(BaseModel):
    """The API key to issue: its role and, for an agent or reviewer key, whom it acts as."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: Annotated[Role, Field(description="agent | reviewer | auditor | admin.")]
    agent_id: Annotated[
        _ID | None, Field(description="The agent an agent key acts as (role agent only).")
    ] = None
    principal_id: Annotated[
        _ID | None,
        Field(description="The principal a reviewer key decides as (role reviewer only)."),
    ] = None
    label: Annotated[str, Field(max_length=200, description="A note for listings.")] = ""
    expires_in_days: Annotated[
        int | None,
        Field(ge=1, le=MAX_DAYS, description="Days until the key stops working; none: never."),
    ] = None


class IssuedKeyOut(BaseModel):
    """The key issued and its token, shown this once (only its hash is stored)."""

    model_config = ConfigDict(frozen=True)

    key: Annotated[ApiKey, Field(description="The key as stored (never the token).")]
    token: Annotated[
        str, Field(description="The bearer token (`acc_...`): store it, it is not shown again.")
    ]


class ApiKeyList(BaseModel):
    """Every API key, oldest first (never a token)."""

    model_config = ConfigDict(frozen=True)

    items: Annotated[list[ApiKey], Field(description="The keys, oldest first.")]


class EnrolKeyIn(BaseModel):
    """An agent's own Ed25519 public key, to verify the records it signs."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_id: Annotated[_ID, Field(description="The agent whose key this is.")]
    public_key: Annotated[
        str,
        Field(
            min_length=1,
            max_length=MAX_PUBLIC_KEY_CHARS,
            description="The Ed25519 public key: its 32 raw bytes in standard base64, or a "
            "PEM `PUBLIC KEY` (SubjectPublicKeyInfo).",
        ),
    ]


class RevokeAgentKeyIn(BaseModel):
    """Why the agent's key is revoked (recorded in the ledger)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reason: Annotated[
        str, Field(max_length=500, pattern=r"^[^\x00]*$", description="Why it is revoked.")
    ] = ""


class RevokedAgentKeyOut(BaseModel):
    """The agent key revoked, as the ledger recorded it."""

    model_config = ConfigDict(frozen=True)

    kid: Annotated[str, Field(description="The key revoked: it signs nothing after this.")]
    ledger_seq: Annotated[int, Field(description="The `key_revoked` ledger entry.")]


class EnrolledKeyOut(BaseModel):
    """The enrolled key, as the ledger registered it."""

    model_config = ConfigDict(frozen=True)

    agent_id: Annotated[str, Field(description="The agent the key belongs to.")]
    kid: Annotated[str, Field(description="The key's id: what the agent's signatures name.")]
    ledger_seq: Annotated[int, Field(description="The `key_registered` ledger entry.")]


def _keys(state: State) -> ApiKeyStore:
    accord = accord_of(state)
    return ApiKeyStore(accord.ledger, accord.clock)


@post(
    "/api-keys",
    opt=_ADMIN,
    sync_to_thread=True,
    status_code=201,
    responses=error_responses(400, 401, 403, 422),
    tags=_TAGS,
    operation_id="issueApiKey",
    summary="Issue an API key",
)
def issue_api_key(
    request: Request[object, object, State],
    state: State,
    data: Annotated[IssueKeyIn, body_examples.ISSUE_KEY],
) -> IssuedKeyOut:
    """Issue an API key (admin only): an agent key acts as ``agent_id``, a reviewer key as
    ``principal_id``. The token is in this answer only. Recorded in the ledger
    (``api_key_issued``, naming the admin key)."""
    expires = (
        None
        if data.expires_in_days is None
        else accord_of(state).clock.now() + timedelta(days=data.expires_in_days)
    )
    key, token = _keys(state).create(
        data.role,
        agent_id=data.agent_id,
        principal_id=data.principal_id,
        label=data.label,
        expires_at=expires,
        by=caller(request).key_id,
    )
    return IssuedKeyOut(key=key, token=token)


@get(
    "/api-keys",
    opt=_ADMIN,
    sync_to_thread=True,
    responses=error_responses(400, 401, 403),
    tags=_TAGS,
    operation_id="listApiKeys",
    summary="List API keys",
)
def list_api_keys(state: State) -> ApiKeyList:
    """Every API key with its role, binding, expiry and revocation (admin only; no tokens)."""
    return ApiKeyList(items=_keys(state).list())


@post(
    "/api-keys/{key_id:str}/revocation",
    opt=_ADMIN,
    sync_to_thread=True,
    status_code=200,
    responses=error_responses(400, 401, 403, 404),
    tags=_TAGS,
    operation_id="revokeApiKey",
    summary="Revoke an API key",
)
def revoke_api_key(
    request: Request[object, object, State],
    state: State,
    key_id: Annotated[str, Parameter(max_length=64, description="The key's id (`key:...`).")],
) -> ApiKey:
    """Revoke an API key now (admin only): its next request gets 401. Revoking twice keeps
    the first time. Recorded in the ledger (``api_key_revoked``, naming the admin key)."""
    return _keys(state).revoke(key_id, by=caller(request).key_id)


@post(
    "/agent-keys",
    opt=_ADMIN,
    sync_to_thread=True,
    status_code=201,
    responses=error_responses(400, 401, 403, 409, 422),
    tags=_TAGS,
    operation_id="enrolAgentKey",
    summary="Enrol an agent's public key",
)
def enrol_agent_key(
    state: State, data: Annotated[EnrolKeyIn, body_examples.ENROL_KEY]
) -> EnrolledKeyOut:
    """Enrol an agent's own Ed25519 public key (admin only): a signed ``key_registered``
    ledger entry, after which records the agent signs with its private key (prepared steps,
    signed filings) verify as that agent's. No private key is made or held on the server. A
    key that is not Ed25519 is refused (422, field ``public_key``); one enrolled before, 409."""
    public_key = parse_public_key(data.public_key)
    entry = accord_of(state).register_agent_key(public_key, data.agent_id)
    return EnrolledKeyOut(
        agent_id=data.agent_id, kid=str(entry.record["kid"]), ledger_seq=entry.seq
    )


@post(
    "/agent-keys/{kid:str}/revocation",
    opt=_ADMIN,
    sync_to_thread=True,
    status_code=200,
    responses=error_responses(400, 401, 403, 404, 409),
    tags=_TAGS,
    operation_id="revokeAgentKey",
    summary="Revoke an agent's key",
)
def revoke_agent_key(
    state: State,
    kid: Annotated[
        str,
        Parameter(
            max_length=64, pattern=r"^[0-9a-f]{32}$", description="The agent key's id (its kid)."
        ),
    ],
    data: JSONBody[RevokeAgentKeyIn | None] = None,
) -> RevokedAgentKeyOut:
    """Revoke an enrolled agent key now (admin only), e.g. when its private key is lost: a
    signed ``key_revoked`` ledger entry; nothing the agent signs with it verifies after it.
    No such agent key: 404; revoked before: 409."""
    entry = accord_of(state).revoke_agent_key(kid, data.reason if data else "")
    return RevokedAgentKeyOut(kid=kid, ledger_seq=entry.seq)


ROUTES = [issue_api_key, list_api_keys, revoke_api_key, enrol_agent_key, revoke_agent_key]
"""Every route of this file, for ``create_app``."""
