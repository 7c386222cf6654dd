"""``/api/v1/collecting``: a collecting case opened for named agents, each of which submits
its own position with its own agent key; the last position settles the case (the same
settle, the same signed records as ``POST /settle``).

The submitting party is always the key's agent, never a body field: an agent key speaks only
for itself, so a non-party is refused (403), and a second submission too (409).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from litestar import Request, get, post
from litestar.datastructures import State
from litestar.params import JSONBody, Parameter

from accord.api import body_examples
from accord.api.api_keys import ApiKey, Role
from accord.api.collecting_schemas import (
    CollectingOut,
    CollectingPage,
    OpenCollectingIn,
    PartySignatures,
    SubmitPositionIn,
)
from accord.api.errors import error_responses
from accord.api.guards import READERS, allow, caller
from accord.api.routes._state import accord_of
from accord.cases import MAX_PAGE

Id = Annotated[str, Parameter(max_length=64, description="The collecting case's id.")]
Filter = Annotated[str | None, Parameter(max_length=256)]


def _opener(key: ApiKey) -> str:
    """Who opened it, from the key: its agent, or the admin key's id."""
    return key.agent_id if key.agent_id is not None else f"{key.role.value}:{key.key_id}"


@post(
    "/collecting",
    opt=allow(Role.AGENT, Role.ADMIN),
    sync_to_thread=True,
    status_code=201,
    responses=error_responses(400, 401, 403, 413, 422),
    tags=["collecting"],
    operation_id="openCollectingCase",
    summary="Open a collecting case",
)
def open_collecting(
    request: Request[object, object, State],
    state: State,
    data: Annotated[OpenCollectingIn, body_examples.OPEN_COLLECTING],
) -> CollectingOut:
    """Open a case on ``subject`` that waits ``within_seconds`` for each party's position."""
    opened = accord_of(state).collecting.open(
        data.subject,
        data.parties,
        within=timedelta(seconds=data.within_seconds),
        opened_by=_opener(caller(request)),
        acting_agent=caller(request).agent_id,
        task_type=data.task_type,
        session_id=data.session_id,
    )
    return CollectingOut.of(opened)


@post(
    "/collecting/{collecting_id:str}/position",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=200,
    responses=error_responses(400, 401, 403, 404, 409, 413, 422),
    tags=["collecting"],
    operation_id="submitPosition",
    summary="Submit a position",
)
def submit_position(
    request: Request[object, object, State],
    state: State,
    collecting_id: Id,
    data: JSONBody[SubmitPositionIn],
) -> CollectingOut:
    """The key's agent's own position (optionally signed by the agent's own registered key:
    a bad signature is 422, a key not the agent's 403); the last expected one settles the
    case (``case_id``)."""
    key = caller(request)
    assert key.agent_id is not None  # an agent key is bound to its agent
    signature = data.party_signature
    after = accord_of(state).collecting.submit(
        collecting_id,
        data.model_dump(exclude_unset=True, exclude={"party_signature"}),
        by=key.agent_id,
        signature=None if signature is None else signature.model_dump(),
    )
    return CollectingOut.of(after)


@get(
    "/collecting/{collecting_id:str}",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 404),
    tags=["collecting"],
    operation_id="getCollectingCase",
    summary="Get a collecting case",
)
def get_collecting(state: State, collecting_id: Id) -> CollectingOut:
    """One collecting case: who submitted, who is missing, the case it became."""
    return CollectingOut.of(accord_of(state).collecting.get(collecting_id))


@get(
    "/collecting/{collecting_id:str}/signatures",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 404),
    tags=["collecting"],
    operation_id="getCollectingSignatures",
    summary="Get a collecting case's signatures",
)
def get_signatures(state: State, collecting_id: Id) -> PartySignatures:
    """The parties' own signatures on their positions (what each signed is the position as
    the settled case's opening record carries it)."""
    return PartySignatures(signatures=accord_of(state).collecting.signatures(collecting_id))


@get(
    "/collecting",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 422),
    tags=["collecting"],
    operation_id="listCollectingCases",
    summary="List collecting cases",
)
def list_collecting(
    state: State,
    party: Annotated[
        str | None,
        Parameter(max_length=256, description="Only collecting cases this agent is asked in."),
    ] = None,
    status: Annotated[
        str | None, Parameter(max_length=256, description="Only collecting cases with this status.")
    ] = None,
    before: Annotated[
        str | None,
        Parameter(max_length=64, description="The last collecting id of the previous page."),
    ] = None,
    limit: Annotated[int, Parameter(ge=1, le=MAX_PAGE, description="At most this many.")] = 50,
) -> CollectingPage:
    """Collecting cases, newest first (``party``: a party's; ``status``: one status)."""
    found = accord_of(state).collecting.list(party=party, status=status, before=before, limit=limit)
    more = len(found) == limit
    return CollectingPage(
        items=[CollectingOut.of(c) for c in found],
        next_before=found[-1].collecting_id if more and found else None,
    )


ROUTES = [open_collecting, submit_position, get_collecting, get_signatures, list_collecting]
