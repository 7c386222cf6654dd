"""``GET /api/v1/ledger/...``: verify, tail, checkpoint and proofs of the signed record, for
auditors."""

from __future__ import annotations

from typing import Annotated

from litestar import get
from litestar.datastructures import State
from litestar.params import Parameter

from accord.api.api_keys import Role
from accord.api.errors import error_responses
from accord.api.guards import OVERSEERS, allow
from accord.api.routes._state import accord_of
from accord.api.schemas import CheckpointOut, LedgerTail, VerifyOut
from accord.errors import VerificationFailed
from accord.ledger import ConsistencyProof, InclusionProof


@get(
    "/ledger/verify",
    opt=allow(*OVERSEERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403),
    tags=["ledger"],
    operation_id="verifyLedger",
    summary="Verify the ledger",
)
def verify(state: State) -> VerifyOut:
    """Verify every entry, link, signature and checkpoint, then the cases against them."""
    try:
        report = accord_of(state).verify(workers=1)
    except VerificationFailed as exc:
        seq = exc.context.get("seq")
        case_id = exc.context.get("case_id")
        return VerifyOut(
            verified=False,
            code=exc.code,
            message=exc.message,
            seq=seq if isinstance(seq, int) else None,
            case_id=None if case_id is None else str(case_id),
        )
    return VerifyOut(
        verified=True,
        entries=report.entries,
        checkpoints=report.checkpoints,
        cases=report.cases,
        head_hash=report.head_hash,
        root_hash=report.root_hash,
    )


@get(
    "/ledger/tail",
    opt=allow(*OVERSEERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403),
    tags=["ledger"],
    operation_id="getLedgerTail",
    summary="Read the newest ledger entries",
)
def tail(
    state: State,
    n: Annotated[int, Parameter(ge=1, le=500, description="How many of the newest entries.")] = 20,
) -> LedgerTail:
    """The newest ``n`` entries, oldest of them first."""
    entries = accord_of(state).ledger.tail(n)
    return LedgerTail(entries=[{**e.to_json_dict(), "entry_hash": e.entry_hash} for e in entries])


@get(
    "/ledger/checkpoint",
    opt=allow(Role.AUDITOR, Role.ADMIN),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 422),
    tags=["ledger"],
    operation_id="getLedgerCheckpoint",
    summary="Get the signed ledger checkpoint",
)
def checkpoint(state: State) -> CheckpointOut:
    """Sign a checkpoint over the whole ledger now (the newest one if nothing was appended
    since), as ``accord ledger checkpoint`` prints it: keep it outside the database as a
    trusted checkpoint, and pass its ``tree_size`` as ``old_size`` to ``/ledger/consistency``
    later. An empty ledger is refused (422 ``ledger.empty``)."""
    return CheckpointOut.of(accord_of(state).ledger.checkpoint())


@get(
    "/ledger/entries/{seq:int}/proof",
    opt=allow(*OVERSEERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 404),
    tags=["ledger"],
    operation_id="getInclusionProof",
    summary="Prove a ledger entry is included",
)
def inclusion_proof(
    state: State,
    seq: Annotated[
        int, Parameter(ge=1, le=2**62, description="The ledger entry's sequence number.")
    ],
) -> InclusionProof:
    """Prove entry ``seq`` is in the ledger (signs a checkpoint first if the ledger grew);
    check it offline with ``accord ledger check-proof``."""
    return accord_of(state).ledger.inclusion_proof(seq)


@get(
    "/ledger/consistency",
    opt=allow(*OVERSEERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 404),
    tags=["ledger"],
    operation_id="getConsistencyProof",
    summary="Prove the ledger only grew",
)
def consistency_proof(
    state: State,
    old_size: Annotated[
        int,
        Parameter(
            ge=1, le=2**62, description="The size of the earlier tree (a checkpoint you hold)."
        ),
    ],
    new_size: Annotated[
        int | None,
        Parameter(
            ge=1,
            le=2**62,
            description="The size of the later tree; the newest checkpoint when omitted.",
        ),
    ] = None,
) -> ConsistencyProof:
    """Prove the checkpoint at ``old_size`` is a prefix of the one at ``new_size`` (newest
    by default)."""
    return accord_of(state).ledger.consistency_proof(old_size, new_size)
