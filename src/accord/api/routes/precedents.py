"""Precedents over HTTP: search the jurisprudence registry (R24), read one bundle, export it in
the reference SDK's format."""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from litestar import get
from litestar.datastructures import State
from litestar.params import Parameter

from accord.api.errors import error_responses
from accord.api.guards import READERS, allow
from accord.api.routes._state import accord_of
from accord.api.schemas import PrecedentPage
from accord.conflicts import DisputeType
from accord.precedents import DEFAULT_LIMIT, MAX_LIMIT


@get(
    "/precedents",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 422),
    tags=["precedents"],
    operation_id="searchPrecedents",
    summary="Search precedents",
)
def search_precedents(
    state: State,
    dispute_type: Annotated[
        DisputeType, Parameter(description="the dispute type the bundles apply to")
    ],
    condition: Annotated[
        list[Annotated[str, Parameter(max_length=256)]] | None,
        Parameter(
            max_items=50,
            description="A condition that holds, as a sentence (repeat for several): a bundle "
            "matches when any one is among its applicable conditions.",
        ),
    ] = None,
    limit: Annotated[
        int,
        Parameter(
            ge=1,
            le=MAX_LIMIT,
            description="At most this many bundles.",
        ),
    ] = DEFAULT_LIMIT,
) -> PrecedentPage:
    """Bundles applying to a dispute type that list any ``condition`` as applicable and
    none as inapplicable, compared case- and whitespace-blind:
    highest authority first, then the most recent; superseded ones last, with their derived
    ``superseded_by``."""
    found = accord_of(state).precedents.search(dispute_type.value, condition or (), limit=limit)
    return PrecedentPage(items=[p.to_json_dict() for p in found])


@get(
    "/precedents/{jurisprudence_id:str}",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 404, 422),
    tags=["precedents"],
    operation_id="getPrecedent",
    summary="Get a precedent",
)
def get_precedent(
    state: State, jurisprudence_id: Annotated[
        str, Parameter(max_length=64, description="The precedent bundle's id.")
    ]
) -> dict[str, Any]:
    """One signed bundle with the derived ``superseded_by``."""
    return accord_of(state).precedents.get(jurisprudence_id).to_json_dict()


@get(
    "/precedents/{jurisprudence_id:str}/export",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 404, 422),
    tags=["precedents"],
    operation_id="exportPrecedent",
    summary="Export a precedent in the SDK format",
)
def export_precedent(
    state: State,
    jurisprudence_id: Annotated[
        str, Parameter(max_length=64, description="The precedent bundle's id.")
    ],
    session_nonce: Annotated[
        str | None,
        Parameter(
            pattern=r"^[0-9a-f]{64}$",
            description="A nonce (64 hex) to bind the exported record's signature to your session.",
        ),
    ] = None,
) -> dict[str, Any]:
    """The bundle as a reference-SDK jurisprudence bundle, signed by the service key
    (``classical_only``); a fresh ``session_nonce`` unless one is given. What the SDK format has
    no field for (facts, rationale, dissent, inapplicable conditions, supersession,
    objections) is left out."""
    nonce = session_nonce or secrets.token_hex(32)
    return accord_of(state).export_precedent(jurisprudence_id, session_nonce=nonce)
