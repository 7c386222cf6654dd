"""After a resolution, over HTTP: compliance reports and non-compliance flags (R20–R22),
objections (R27, R29), the stays people order on them (R28), the rights objections awaiting
appeal (R29) and the cross-chain check (R31) — one route per ``Accord.disputes`` call.

The reporting and the objecting agent is the API key's agent (the library refuses a
non-party, 403); a stay is ordered by the key's principal, signed with its reviewer key from
the server's key folder. Reads follow the dispute's read rule; an agent key reads only its own
agent's flags, and the objections awaiting appeal are the overseers' to read.
"""

from __future__ import annotations

from typing import Annotated

from litestar import Request, get, post
from litestar.datastructures import State
from litestar.params import JSONBody, Parameter
from pydantic import BaseModel, ConfigDict

from accord.api.api_keys import Role
from accord.api.auth_errors import Forbidden
from accord.api.deciding import stay_as_reviewer
from accord.api.dispute_schemas import (
    ID_PATTERN,
    ComplianceReportIn,
    CrossCheckIn,
    ObjectionIn,
    StayIn,
)
from accord.api.errors import error_responses
from accord.api.guards import OVERSEERS, READERS, allow, caller
from accord.api.routes._state import accord_of
from accord.api.routes.disputes import DisputeId, acting_agent, readable_dispute
from accord.dcp07 import UUID_PATTERN, CrossChainReport, entries_of
from accord.disputes import (
    ComplianceOutcome,
    StoredFlag,
    StoredObjection,
    StoredStay,
    TrackedAction,
)

_TAGS = ["dispute rules"]
_STEP_ERRORS = error_responses(400, 401, 403, 404, 409, 413, 422)
_READ_ERRORS = error_responses(400, 401, 403, 404)


class ComplianceOut(BaseModel):
    """The required actions of the dispute's binding resolution, and where each stands."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    actions: list[TrackedAction]
    """The resolution's required actions and where each stands."""


class ObjectionList(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    items: list[StoredObjection]
    """The objections, oldest first."""


class FlagList(BaseModel):
    """Non-compliance flags (R22), oldest first."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    items: list[StoredFlag]
    """The compliance flags, newest first."""


ObjectionId = Annotated[
    str,
    Parameter(
        max_length=64,
        pattern=rf"^obj:{UUID_PATTERN}$",
        description="The objection's id (`obj:<uuid>`).",
    ),
]


@post(
    "/disputes/{dispute_id:str}/compliance-reports",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=200,
    responses=_STEP_ERRORS,
    tags=_TAGS,
    operation_id="reportCompliance",
    summary="Report compliance",
)
def report_compliance(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    data: JSONBody[ComplianceReportIn],
) -> ComplianceOutcome:
    """The key's agent reports how it complied; each action it owes is checked by the
    resolution's method (R20). A failed check is recorded, not refused: it opens a
    ``policy_conflict`` dispute at human appeal (R21) and may flag the agent (R22)."""
    return accord_of(state).disputes.comply(dispute_id, acting_agent(request), data.model_dump())


@get(
    "/disputes/{dispute_id:str}/compliance",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=_READ_ERRORS,
    tags=_TAGS,
    operation_id="listCompliance",
    summary="List a dispute's required actions",
)
def list_compliance(
    request: Request[object, object, State], state: State, dispute_id: DisputeId
) -> ComplianceOut:
    """The dispute's required actions: pending, verified, failed or stayed."""
    accord = accord_of(state)
    readable_dispute(accord, caller(request), dispute_id)
    return ComplianceOut(actions=accord.disputes.compliance.actions(dispute_id=dispute_id))


@post(
    "/disputes/{dispute_id:str}/objections",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=201,
    responses=_STEP_ERRORS,
    tags=_TAGS,
    operation_id="fileObjection",
    summary="File an objection",
)
def file_objection(
    request: Request[object, object, State],
    state: State,
    dispute_id: DisputeId,
    data: JSONBody[ObjectionIn],
) -> StoredObjection:
    """The key's agent (a party) files its signed objection to the dispute's resolution
    (R27); the resolution stays in force (R28); a ``rights`` objection goes to human appeal
    (R29)."""
    return accord_of(state).disputes.object(
        dispute_id,
        data.resolution_id,
        acting_agent(request),
        data.objection_type,
        data.grounds.model_dump(),
        data.remedy.model_dump(),
    )


@get(
    "/disputes/{dispute_id:str}/objections",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=_READ_ERRORS,
    tags=_TAGS,
    operation_id="listObjections",
    summary="List a dispute's objections",
)
def list_objections(
    request: Request[object, object, State], state: State, dispute_id: DisputeId
) -> ObjectionList:
    """The objections filed in the dispute, each with its stay if one was ordered."""
    accord = accord_of(state)
    readable_dispute(accord, caller(request), dispute_id)
    return ObjectionList(items=accord.disputes.objections.of_dispute(dispute_id))


@post(
    "/objections/{objection_id:str}/stay",
    opt=allow(Role.REVIEWER),
    sync_to_thread=True,
    status_code=201,
    responses=_STEP_ERRORS,
    tags=_TAGS,
    operation_id="orderStay",
    summary="Order or refuse a stay",
)
def order_stay(
    request: Request[object, object, State],
    state: State,
    objection_id: ObjectionId,
    data: JSONBody[StayIn],
) -> StoredStay:
    """The key's principal stays the resolution the objection answers (R28), signed with
    its reviewer key; its required actions are set aside."""
    principal_id = caller(request).principal_id
    assert principal_id is not None  # a reviewer key is always bound to a principal
    return stay_as_reviewer(accord_of(state), objection_id, principal_id, data.reason)


@get(
    "/compliance/flags",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 422),
    tags=_TAGS,
    operation_id="listComplianceFlags",
    summary="List compliance flags",
)
def list_flags(
    request: Request[object, object, State],
    state: State,
    agent_id: Annotated[
        str | None,
        Parameter(max_length=256, pattern=ID_PATTERN, description="Only flags on this agent."),
    ] = None,
) -> FlagList:
    """Agents flagged for repeated non-compliance (R22), oldest first, only ``agent_id``'s
    if given, for a person to weigh termination for cause. An agent key reads only its own
    agent's flags."""
    key = caller(request)
    if key.role is Role.AGENT:
        if agent_id is not None and agent_id != key.agent_id:
            raise Forbidden(
                f"this key acts as {key.agent_id}, not as {agent_id}",
                field="agent_id",
                rule="an agent key reads only its own agent's flags",
            )
        agent_id = key.agent_id
    return FlagList(items=accord_of(state).disputes.compliance.flags(agent_id))


@get(
    "/objections/awaiting-appeal",
    opt=allow(*OVERSEERS),
    sync_to_thread=True,
    responses=error_responses(401, 403),
    tags=_TAGS,
    operation_id="listObjectionsAwaitingAppeal",
    summary="List objections awaiting appeal",
)
def objections_awaiting_appeal(state: State) -> ObjectionList:
    """Rights objections routed to human appeal (R29) on which no stay was ordered, for the
    principals to hear (reviewer, auditor and admin keys)."""
    return ObjectionList(items=accord_of(state).disputes.objections.awaiting_appeal())


@get(
    "/objections/{objection_id:str}",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=_READ_ERRORS,
    tags=_TAGS,
    operation_id="getObjection",
    summary="Get an objection",
)
def get_objection(
    request: Request[object, object, State], state: State, objection_id: ObjectionId
) -> StoredObjection:
    """One objection with its stay, if one was ordered; an agent key reads only the
    objections of disputes its agent is a party to."""
    accord = accord_of(state)
    found = accord.disputes.objections.get(objection_id)
    readable_dispute(accord, caller(request), found.record.dispute_id)
    return found


@post(
    "/disputes/cross-check",
    opt=allow(*READERS),
    sync_to_thread=True,
    status_code=200,
    responses=error_responses(400, 401, 403, 413, 422),
    tags=_TAGS,
    operation_id="crossCheckDisputes",
    summary="Cross-check another service's disputes",
)
def cross_check(data: JSONBody[CrossCheckIn], state: State) -> CrossChainReport:
    """Check that the parties' exported chains agree about one dispute (R31): each chain
    links, all reference the dispute, evidence timestamps and hashes agree, the resolution
    is in every chain. A mismatch is refused (422 ``dcp.cross_chain_mismatch``) naming the
    check, the party and the field. Pure: nothing is read or written."""
    chains = {
        party: entries_of(values, where=f"chains.{party}") for party, values in data.chains.items()
    }
    return accord_of(state).disputes.cross_check(chains, data.dispute_id)


ROUTES = [
    report_compliance,
    list_compliance,
    file_objection,
    list_objections,
    order_stay,
    list_flags,
    objections_awaiting_appeal,
    get_objection,
    cross_check,
]
"""Every route of this file, for ``create_app``."""
