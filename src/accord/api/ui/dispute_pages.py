"""The reviewer's dispute pages: the stored DCP-07 disputes, one dispute, ordering a stay, and
deciding a human appeal in the reviewer's own words.

Reads are the library's (``Accord.disputes.list`` / ``show``, ``disputes.objections``); a stay
is ordered by the signed-in reviewer's principal through the same call as
``POST /api/v1/objections/{id}/stay`` (``stay_as_reviewer``), and an appeal decided in the
reviewer's own words (R16) through the same calls as ``POST /api/v1/disputes/{id}/appeal/
proposals`` (``propose_appeal_as_reviewer``: the reviewer's principal proposes and signs; a
principal responsible for every party decides at once) and ``…/proposals/{proposal_id}/
signatures`` (``sign_appeal_as_reviewer``: another responsible principal co-signs the pending
proposal the page shows; the last signature decides) — never by a name from the form.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, cast

from litestar import Request, Response, get, post
from litestar.datastructures import State
from litestar.params import Parameter
from litestar.response import Redirect, Template
from pydantic import BaseModel, ConfigDict, Field

from accord.api.deciding import stay_as_reviewer
from accord.api.dispute_schemas import DISPUTE_ID_PATTERN
from accord.api.errors import status_for
from accord.api.routes._state import accord_of
from accord.api.routes.dispute_tiers import propose_appeal_as_reviewer, sign_appeal_as_reviewer
from accord.api.ui.fragments import fragment
from accord.api.ui.pages import Form
from accord.api.ui.reasons import lf_line_breaks
from accord.api.ui.session import signed_in
from accord.conflicts import Tier
from accord.dcp07 import CaseStatus
from accord.disputes import MAX_REASON_CHARS, MAX_TEXT
from accord.errors import AccordError

DISPUTES_PAGE: Final = 25
DEFAULT_STATUS: Final = CaseStatus.APPEALING.value
"""The disputes that wait for people come first."""
EVERY_STATUS: Final = "all"
STATUSES: Final = (DEFAULT_STATUS, *(s.value for s in CaseStatus if s.value != DEFAULT_STATUS))

DisputeId = Annotated[str, Parameter(pattern=DISPUTE_ID_PATTERN, max_length=64)]
ObjectionId = Annotated[str, Parameter(max_length=64, pattern=r"^obj:[0-9a-f-]{36}$")]


class StayForm(BaseModel):
    """Why the resolution is stayed (optional); who stays it is the session's reviewer."""

    model_config = ConfigDict(extra="ignore")
    reason: Annotated[str, Field(max_length=MAX_REASON_CHARS)] = ""


class AppealForm(BaseModel):
    """The appeal's outcome and reasoning in the reviewer's own words (the library refuses
    empty text, naming the field); who decides is the session's reviewer."""

    model_config = ConfigDict(extra="ignore")
    outcome: Annotated[str, Field(max_length=MAX_TEXT)] = ""
    reasoning: Annotated[str, Field(max_length=MAX_TEXT)] = ""


class AppealSignatureForm(BaseModel):
    """The pending proposal the reviewer co-signs (as the page showed it: a replaced one is
    refused, R16); who signs is the session's reviewer."""

    model_config = ConfigDict(extra="ignore")
    proposal_id: Annotated[str, Field(max_length=64, pattern=r"^[^\s\x00]*$")] = ""


_STAY: Final = {"heading": "Stay", "stay": None}
_APPEAL: Final = {"heading": "Appeal decision", "proposal": None}


def _cannot(reviewer: object, title: str, exc: AccordError) -> Template:
    return Template(
        "missing.html",
        context={"reviewer": reviewer, "title": title, "message": exc.message},
        status_code=status_for(exc),
    )


@get("/disputes", include_in_schema=False, sync_to_thread=True)
def disputes_page(
    request: Request[Any, Any, State],
    state: State,
    status: Annotated[str, Parameter(max_length=16)] = DEFAULT_STATUS,
    after: Annotated[str | None, Parameter(max_length=64)] = None,
) -> Response[Any]:
    """A page of stored disputes with ``status`` (``all``: any), oldest first."""
    reviewer = signed_in(request)
    if reviewer is None:
        return Redirect("/signin")
    try:
        page = accord_of(state).disputes.list(
            status=None if status == EVERY_STATUS else status, after=after, limit=DISPUTES_PAGE
        )
    except AccordError as exc:
        return _cannot(reviewer, "Cannot list the disputes", exc)
    return Template(
        "disputes.html",
        context={
            "reviewer": reviewer,
            "page": page,
            "status": status,
            "statuses": (*STATUSES, EVERY_STATUS),
            "after": after,
        },
    )


@get("/disputes/{dispute_id:str}", include_in_schema=False, sync_to_thread=True)
def dispute_page(
    request: Request[Any, Any, State], state: State, dispute_id: DisputeId
) -> Response[Any]:
    """The dispute as it stands, with its objections and a stay form for each."""
    reviewer = signed_in(request)
    if reviewer is None:
        return Redirect("/signin")
    accord = accord_of(state)
    try:
        stored = accord.disputes.show(dispute_id)
    except AccordError as exc:
        return _cannot(reviewer, "No such dispute", exc)
    at_appeal = (
        stored.resolution is None
        and stored.record.current_escalation_level.value == Tier.HUMAN_APPEAL.value
    )
    return Template(
        "dispute.html",
        context={
            "reviewer": reviewer,
            "dispute": stored,
            "record": stored.record,
            "resolution": stored.resolution,
            "objections": accord.disputes.objections.of_dispute(dispute_id),
            "max_reason": MAX_REASON_CHARS,
            "at_appeal": at_appeal,
            "appeal_proposal": (
                accord.disputes.tiers.appeal.pending_appeal(dispute_id) if at_appeal else None
            ),
            "max_text": MAX_TEXT,
        },
    )


@post("/objections/{objection_id:str}/stay", include_in_schema=False, sync_to_thread=True)
def stay_page(
    request: Request[Any, Any, State],
    state: State,
    objection_id: ObjectionId,
    data: Annotated[StayForm, Form],
) -> Response[Any]:
    """Stay the resolution as the signed-in reviewer; answers the stay fragment."""
    reviewer = signed_in(request)
    if reviewer is None:
        context: dict[str, Any] = {"error": "your session has ended: sign in again"}
        return fragment(request, "_stay.html", {**context, **_STAY}, 401)
    try:
        stay = stay_as_reviewer(
            accord_of(state), objection_id, cast(str, reviewer.principal_id), data.reason
        )
    except AccordError as exc:
        context = {"reviewer": reviewer, "error": exc.message, "code": exc.code, **_STAY}
        return fragment(request, "_stay.html", context, status_for(exc))
    context = {"reviewer": reviewer, "error": None, **_STAY, "stay": stay}
    return fragment(request, "_stay.html", context)


@post("/disputes/{dispute_id:str}/appeal", include_in_schema=False, sync_to_thread=True)
def appeal_page(
    request: Request[Any, Any, State],
    state: State,
    dispute_id: DisputeId,
    data: Annotated[AppealForm, Form],
) -> Response[Any]:
    """Propose the appeal decision as the signed-in reviewer, the outcome in their own words
    (R16): it decides at once when they are every party's principal, else it waits for the
    others' signatures; answers the decision fragment."""
    reviewer = signed_in(request)
    if reviewer is None:
        context: dict[str, Any] = {"error": "your session has ended: sign in again"}
        return fragment(request, "_appeal.html", {**context, **_APPEAL}, 401)
    try:
        proposal = propose_appeal_as_reviewer(
            accord_of(state),
            dispute_id,
            cast(str, reviewer.principal_id),
            outcome=lf_line_breaks(data.outcome),
            reasoning=lf_line_breaks(data.reasoning),
        )
    except AccordError as exc:
        context = {"reviewer": reviewer, "error": exc.message, "code": exc.code, **_APPEAL}
        return fragment(request, "_appeal.html", context, status_for(exc))
    context = {"reviewer": reviewer, "error": None, **_APPEAL, "proposal": proposal}
    return fragment(request, "_appeal.html", context)


@post("/disputes/{dispute_id:str}/appeal/sign", include_in_schema=False, sync_to_thread=True)
def appeal_sign_page(
    request: Request[Any, Any, State],
    state: State,
    dispute_id: DisputeId,
    data: Annotated[AppealSignatureForm, Form],
) -> Response[Any]:
    """Co-sign the pending appeal proposal as the signed-in reviewer (R16); the last
    responsible principal's signature decides. Answers the decision fragment."""
    reviewer = signed_in(request)
    if reviewer is None:
        context: dict[str, Any] = {"error": "your session has ended: sign in again"}
        return fragment(request, "_appeal.html", {**context, **_APPEAL}, 401)
    try:
        proposal = sign_appeal_as_reviewer(
            accord_of(state), dispute_id, cast(str, reviewer.principal_id), data.proposal_id
        )
    except AccordError as exc:
        context = {"reviewer": reviewer, "error": exc.message, "code": exc.code, **_APPEAL}
        return fragment(request, "_appeal.html", context, status_for(exc))
    context = {"reviewer": reviewer, "error": None, **_APPEAL, "proposal": proposal}
    return fragment(request, "_appeal.html", context)
