"""DCP-07 disputes over HTTP: one route per ``Accord.disputes`` call.

An agent key acts only as its own agent: it files as the complainant, submits evidence,
escalates and withdraws as itself (the library refuses a non-party, 403), and reads only
disputes it is a party to. Reviewer, auditor and admin keys read every dispute; no body ever
names who acts. Each write is the library's one transaction (nothing partial is written).
"""

from __future__ import annotations

import base64
import binascii
import secrets
from typing import Annotated, Any

from litestar import Request, get, post
from litestar.datastructures import State
from litestar.params import JSONBody, Parameter

from accord.api import body_examples
from accord.api.api_keys import ApiKey, Role
from accord.api.auth_errors import Forbidden
from accord.api.dispute_schemas import (
    DISPUTE_ID_PATTERN,
    ID_PATTERN,
    DisputeBatchIn,
    DisputeBatchOut,
    DisputeOpenIn,
    EscalateIn,
    EvidenceBatchIn,
    EvidenceContentOut,
    ImportIn,
    ImportOut,
    WithdrawIn,
)
from accord.api.errors import error_responses
from accord.api.guards import READERS, allow, caller
from accord.api.routes._state import accord_of
from accord.api.schemas import NO_NUL
from accord.app import Accord
from accord.disputes import MAX_PAGE, DisputePage, StoredDispute
from accord.errors import AccordError, SignatureInvalid, ValidationError

DisputeId = Annotated[
    str,
    Parameter(
        pattern=DISPUTE_ID_PATTERN, max_length=64, description="The dispute's id (`dsp:<uuid>`)."
    ),
]
Filter = Annotated[str | None, Parameter(max_length=64, pattern=NO_NUL)]
_TAGS = ["disputes"]


def acting_agent(request: Request[Any, Any, Any]) -> str:
    agent_id = caller(request).agent_id
    assert agent_id is not None  # an agent key is always bound to its agent
    return agent_id


def readable_dispute(accord: Accord, key: ApiKey, dispute_id: str) -> StoredDispute:
    """The dispute, if the key may read it: one its agent is a party to, or any for
    reviewers, auditors and admins."""
    stored = accord.disputes.show(dispute_id)
    if key.role is Role.AGENT and key.agent_id not in {p.agent_id for p in stored.record.parties}:
        raise Forbidden(
            f"this key acts as {key.agent_id}, which is not a party to {dispute_id}",
            field="dispute_id",
            rule="an agent key reads only disputes its agent is a party to",
        )
    return stored


@post(
    "/disputes",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=201,
    responses=error_responses(400, 401, 403, 413, 422),
    tags=_TAGS,
    operation_id="openDispute",
    summary="File a dispute",
)
def open_dispute(
    request: Request[object, object, State],
    state: State,
    data: Annotated[DisputeOpenIn, body_examples.OPEN_DISPUTE],
) -> StoredDispute:
    """File a dispute with the key's agent as complainant: its first tier follows its type
    (R2), its deadline its severity (R3); matching precedents are cited (R24). Refused
    naming the R-number: an unknown type (R1) or severity (R3), too many filings or too
    little evidence (R34), a content hash that does not match (R33)."""
    filing = {**data.model_dump(), "complainant": acting_agent(request)}
    return accord_of(state).disputes.open(filing)


@post(
    "/disputes/batch",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=201,
    responses=error_responses(400, 401, 403, 413, 422),
    tags=_TAGS,
    operation_id="openDisputes",
    summary="File several disputes",
)
def open_disputes(
    request: Request[object, object, State], state: State, data: JSONBody[DisputeBatchIn]
) -> DisputeBatchOut:
    """File every dispute of ``filings`` in one transaction, in order, each with the key's
    agent as complainant: all of them, or — one refused, the refusal naming its ``index``
    and the R-number — none."""
    agent = acting_agent(request)
    filings = [{**f.model_dump(), "complainant": agent} for f in data.filings]
    try:
        return DisputeBatchOut(items=accord_of(state).disputes.open_many(filings))
    except AccordError as exc:
        index = exc.context.get("index", 0 if len(filings) == 1 else None)
        if isinstance(index, int):  # name the field where the body has it
            inner = exc.context.get("field")
            exc.context = {
                **exc.context,
                "field": f"filings[{index}]" + ("" if inner is None else f".{inner}"),
            }
        raise


@get(
    "/disputes",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 422),
    tags=_TAGS,
    operation_id="listDisputes",
    summary="List disputes",
)
def list_disputes(
    request: Request[object, object, State],
    state: State,
    status: Annotated[
        str | None,
        Parameter(
            max_length=64,
            pattern=NO_NUL,
            description="Only disputes with this status.",
        ),
    ] = None,
    dispute_type: Annotated[
        str | None,
        Parameter(
            max_length=64,
            pattern=NO_NUL,
            description="Only disputes of this type (R1).",
        ),
    ] = None,
    severity: Annotated[
        str | None,
        Parameter(
            max_length=64,
            pattern=NO_NUL,
            description="Only disputes of this severity (R3).",
        ),
    ] = None,
    tier: Annotated[
        str | None,
        Parameter(
            max_length=64,
            pattern=NO_NUL,
            description="Only disputes at this tier.",
        ),
    ] = None,
    party: Annotated[
        str | None,
        Parameter(
            max_length=256,
            pattern=ID_PATTERN,
            description="Only disputes this agent is a party to.",
        ),
    ] = None,
    after: Annotated[
        str | None,
        Parameter(
            max_length=64,
            pattern=DISPUTE_ID_PATTERN,
            description="The last dispute id of the previous page.",
        ),
    ] = None,
    limit: Annotated[
        int,
        Parameter(
            ge=1,
            le=MAX_PAGE,
            description="At most this many disputes.",
        ),
    ] = 50,
) -> DisputePage:
    """Disputes, oldest first, every given filter holding; pass ``next_after`` back as
    ``after``. An agent key lists only its own agent's disputes."""
    key = caller(request)
    if key.role is Role.AGENT:
        if party is not None and party != key.agent_id:
            raise Forbidden(
                f"this key acts as {key.agent_id}, not as {party}",
                field="party",
                rule="an agent key lists only disputes its agent is a party to",
            )
        party = key.agent_id
    return accord_of(state).disputes.list(
        status=status,
        dispute_type=dispute_type,
        severity=severity,
        tier=tier,
        party=party,
        after=after,
        limit=limit,
    )


@get(
    "/disputes/{dispute_id:str}",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 404),
    tags=_TAGS,
    operation_id="getDispute",
    summary="Get a dispute",
)
def show_dispute(
    request: Request[object, object, State], state: State, dispute_id: DisputeId
) -> StoredDispute:
    """The dispute as it stands: its signed §4 record (status, tier, evidence, precedents
    cited, timeline, escalation deadline), its resolution once resolved, its ledger entries."""
    return readable_dispute(accord_of(state), caller(request), dispute_id)


@post(
    "/disputes/{dispute_id:str}/evidence",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=201,
    responses=error_responses(400, 401, 403, 404, 409, 413, 422),
    tags=_TAGS,
    operation_id="submitEvidence",
    summary="Submit evidence",
)
def submit_evidence(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    data: JSONBody[EvidenceBatchIn],
) -> StoredDispute:
    """Add the key's agent's evidence (it must be a party), ``{"evidence": [...]}`` as one
    event; stored content-addressed, and refused — all of it — when an item does not hash
    to the ``content_hash`` given with it (R33)."""
    items = [item.model_dump(exclude_none=True) for item in data.evidence]
    return accord_of(state).disputes.submit_evidence(
        dispute_id, items, by=acting_agent(request)
    )


@get(
    "/disputes/{dispute_id:str}/evidence/{evidence_id:str}",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 404, 422),
    tags=_TAGS,
    operation_id="getEvidenceContent",
    summary="Get an evidence item's content",
)
def evidence_content(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    evidence_id: Annotated[
        str, Parameter(max_length=256, pattern=ID_PATTERN, description="The evidence item's id.")
    ],
) -> EvidenceContentOut:
    """One evidence item's stored content (its hash is in the dispute record)."""
    accord = accord_of(state)
    readable_dispute(accord, caller(request), dispute_id)
    content = accord.disputes.evidence_content(dispute_id, evidence_id)
    if isinstance(content, bytes):
        return EvidenceContentOut(
            dispute_id=dispute_id,
            evidence_id=evidence_id,
            media="bytes",
            content_b64=base64.b64encode(content).decode("ascii"),
        )
    return EvidenceContentOut(
        dispute_id=dispute_id, evidence_id=evidence_id, media="json", content=content
    )


@post(
    "/disputes/{dispute_id:str}/escalate",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=200,
    responses=error_responses(400, 401, 403, 404, 409, 413, 422),
    tags=_TAGS,
    operation_id="escalateDispute",
    summary="Escalate a dispute",
)
def escalate_dispute(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    data: JSONBody[EscalateIn],
) -> StoredDispute:
    """Escalate as the key's agent (a party): to the next tier, or to ``to_tier`` above it
    (human appeal at any time, R17); the tier clock restarts."""
    return accord_of(state).disputes.escalate(
        dispute_id, by=acting_agent(request), to_tier=data.to_tier, reason=data.reason
    )


@post(
    "/disputes/{dispute_id:str}/withdraw",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=200,
    responses=error_responses(400, 401, 403, 404, 409, 413, 422),
    tags=_TAGS,
    operation_id="withdrawDispute",
    summary="Withdraw a dispute",
)
def withdraw_dispute(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    data: JSONBody[WithdrawIn],
) -> StoredDispute:
    """Withdraw the dispute as its complainant (the key's agent); final (R6)."""
    return accord_of(state).disputes.withdraw(
        dispute_id, by=acting_agent(request), reason=data.reason
    )


@get(
    "/disputes/{dispute_id:str}/export",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 404, 422),
    tags=_TAGS,
    operation_id="exportDispute",
    summary="Export a dispute's records",
)
def export_dispute(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    session_nonce: Annotated[
        str | None,
        Parameter(
            pattern=r"^[0-9a-f]{64}$",
            description="A nonce (64 hex) to bind the exported record's signature to your session.",
        ),
    ] = None,
) -> dict[str, Any]:
    """The dispute as a reference-SDK dispute record, signed by the service key
    (``classical_only``); a fresh ``session_nonce`` unless one is given. What the SDK format
    cannot say (two respondents, a withdrawn dispute) is refused naming the requirement."""
    accord = accord_of(state)
    readable_dispute(accord, caller(request), dispute_id)
    return accord.disputes.export(dispute_id, session_nonce=session_nonce or secrets.token_hex(32))


@post(
    "/disputes/import",
    opt=allow(*READERS),
    sync_to_thread=True,
    status_code=200,
    responses=error_responses(400, 401, 403, 404, 413, 422),
    tags=_TAGS,
    operation_id="importDispute",
    summary="Import a dispute's records",
)
def import_dispute(
    request: Request[object, object, State], state: State, data: JSONBody[ImportIn]
) -> ImportOut:
    """Check an SDK dispute record (its signature, and that it describes the stored dispute
    it names) and answer the record it describes; nothing is written."""
    accord = accord_of(state)
    dispute_id = data.record.get("dispute_id")
    stored = None
    if isinstance(dispute_id, str):  # else the library refuses it, naming the field (R5)
        stored = readable_dispute(accord, caller(request), dispute_id)
    try:
        described = accord.disputes.import_sdk(
            data.record,
            classical_public_key=_key(data.classical_public_key_b64, "classical_public_key_b64"),
            pq_public_key=_key(data.pq_public_key_b64, "pq_public_key_b64"),
            require_hybrid=data.require_hybrid,
        )
    except SignatureInvalid as exc:
        if exc.context.get("field") is not None:
            raise
        raise SignatureInvalid(  # the bare Ed25519 check names no field: the record's does
            f"record.composite_sig: {exc.message}",
            field="record.composite_sig",
            rule="signs the record's canonical bytes under the given or the service's key",
        ) from exc
    return ImportOut(agrees=stored is not None and described == stored.record, record=described)


def _key(text: str | None, field: str) -> bytes | None:
    if text is None:
        return None
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ValidationError(
            f"{field}: not base64", code="disputes.invalid", field=field, rule="standard base64"
        ) from None


ROUTES = [
    open_dispute,
    open_disputes,
    list_disputes,
    show_dispute,
    submit_evidence,
    evidence_content,
    escalate_dispute,
    withdraw_dispute,
    export_dispute,
    import_dispute,
]
"""Every route of this file, for ``create_app``."""
