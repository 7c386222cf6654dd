"""A decision's signed ledger entry and its inclusion proof, for the signed-in reviewer.

The proof comes from the same library call as ``GET /api/v1/ledger/entries/{seq}/proof``
(``Ledger.inclusion_proof``) and is checked here against the service's trust root, as
``accord ledger check-proof`` checks it offline; the JSON download is that command's input.
"""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Request, Response, get
from litestar.datastructures import State
from litestar.params import Parameter
from litestar.response import Redirect, Template

from accord.api.errors import status_for
from accord.api.routes._state import accord_of
from accord.api.ui.session import signed_in
from accord.errors import AccordError
from accord.ledger import InclusionProof

Seq = Annotated[int, Parameter(ge=1, le=2**62)]


def _proof(state: State, seq: int) -> InclusionProof:
    return accord_of(state).ledger.inclusion_proof(seq)  # checkpoints first if it grew


@get("/history/entries/{seq:int}", include_in_schema=False, sync_to_thread=True)
def proof_page(request: Request[Any, Any, State], state: State, seq: Seq) -> Response[Any]:
    """The entry, its proof and whether the proof checks against the trust root."""
    reviewer = signed_in(request)
    if reviewer is None:
        return Redirect("/signin")
    try:
        proof = _proof(state, seq)
    except AccordError as exc:
        return Template(
            "missing.html",
            context={"reviewer": reviewer, "title": "No such entry", "message": exc.message},
            status_code=status_for(exc),
        )
    root = accord_of(state).trust_root()
    root_hash: str | None = None
    problem: str | None = None
    try:
        root_hash = proof.verify({root.kid: root.public_key}).root_hash
    except AccordError as exc:
        problem = exc.message
    return Template(
        "proof.html",
        context={
            "reviewer": reviewer,
            "seq": seq,
            "proof": proof,
            "verified": problem is None,
            "root_hash": root_hash,
            "problem": problem,
            "kid": root.kid,
        },
    )


@get("/history/entries/{seq:int}/proof.json", include_in_schema=False, sync_to_thread=True)
def proof_download(request: Request[Any, Any, State], state: State, seq: Seq) -> Response[Any]:
    """The proof as ``accord ledger check-proof`` reads it."""
    if signed_in(request) is None:
        return Redirect("/signin")
    proof = _proof(state, seq)
    return Response(
        content=proof.model_dump_json(indent=2),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="entry-{seq}-proof.json"'},
    )
