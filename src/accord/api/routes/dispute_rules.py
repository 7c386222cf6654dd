"""After a resolution, over HTTP: compliance reports (R20–R22), objections (R27, R29) and
the stays people order on them (R28) — one route per ``Accord.disputes`` call.

The reporting and the objecting agent is the API key's agent (the library refuses a
non-party, 403); a stay is ordered by the key's principal, signed with its reviewer key from
the server's key folder. Reads follow the dispute's read rule.
"""

from __future__ import annotations

from typing import Annotated

from litestar import Request, get, post
from litestar.datastructures import State
from litestar.params import JSONBody, Parameter
from pydantic import BaseModel

from accord.api.api_keys import Role
from accord.api.deciding import stay_as_reviewer
from accord.api.dispute_schemas import ComplianceReportIn, ObjectionIn, StayIn
from accord.api.errors import error_responses
from accord.api.guards import READERS, allow, caller
from accord.api.routes._state import accord_of
from accord.api.routes.disputes import DisputeId, acting_agent, readable_dispute
from accord.api.write_gate import write_gate
from accord.disputes.compliance import ComplianceOutcome
from accord.disputes.compliance.actions import TrackedAction
from accord.disputes.objections import StoredObjection, StoredStay

_TAGS = ["dispute rules"]
_STEP_ERRORS = error_responses(400, 401, 403, 404, 409, 413, 422)
_READ_ERRORS = error_responses(400, 401, 403, 404)


class ComplianceOut(BaseModel):
    """The required actions of the dispute's binding resolution, and where each stands."""

    actions: list[TrackedAction]


class ObjectionList(BaseModel):
    items: list[StoredObjection]


@post(
    "/disputes/{dispute_id:str}/compliance-reports",
    guards=[allow(Role.AGENT)],
    sync_to_thread=True,
    status_code=200,
    responses=_STEP_ERRORS,
    tags=_TAGS,
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
    with write_gate(state):
        return accord_of(state).disputes.comply(
            dispute_id, acting_agent(request), data.model_dump()
        )


@get(
    "/disputes/{dispute_id:str}/compliance",
    guards=[allow(*READERS)],
    sync_to_thread=True,
    responses=_READ_ERRORS,
    tags=_TAGS,
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
    guards=[allow(Role.AGENT)],
    sync_to_thread=True,
    status_code=201,
    responses=_STEP_ERRORS,
    tags=_TAGS,
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
    with write_gate(state):
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
    guards=[allow(*READERS)],
    sync_to_thread=True,
    responses=_READ_ERRORS,
    tags=_TAGS,
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
    guards=[allow(Role.REVIEWER)],
    sync_to_thread=True,
    status_code=201,
    responses=_STEP_ERRORS,
    tags=_TAGS,
)
def order_stay(
    request: Request[object, object, State],
    state: State,
    objection_id: Annotated[str, Parameter(max_length=64, pattern=r"^obj:[0-9a-f-]{36}$")],
    data: JSONBody[StayIn],
) -> StoredStay:
    """The key's principal stays the resolution the objection answers (R28), signed with
    its reviewer key; its required actions are set aside."""
    principal_id = caller(request).principal_id
    assert principal_id is not None  # a reviewer key is always bound to a principal
    with write_gate(state):
        return stay_as_reviewer(accord_of(state), objection_id, principal_id, data.reason)


ROUTES = [report_compliance, list_compliance, file_objection, list_objections, order_stay]
"""Every route of this file, for ``create_app``."""
