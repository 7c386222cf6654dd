"""The reviewer's pages: sign in, the queue, a case, and deciding it."""

from __future__ import annotations

import json
from typing import Annotated, Any, cast

from litestar import Request, Response, get, post
from litestar.datastructures import State
from litestar.enums import RequestEncodingType
from litestar.params import Body, Parameter
from litestar.response import Redirect, Template
from pydantic import BaseModel, ConfigDict, Field

from accord.api.api_keys import ApiKey
from accord.api.deciding import decide_as_reviewer
from accord.api.errors import status_for
from accord.api.routes._state import accord_of
from accord.api.ui.diff import field_rows
from accord.api.ui.session import sign_in, sign_out, signed_in
from accord.api.write_gate import write_gate
from accord.app import Accord
from accord.conflicts.kinds import ConflictKind, Severity
from accord.disputes.case_pages import QueueFilter, queue_page
from accord.disputes.decision_history import decision_history
from accord.errors import AccordError, NotFound

QUEUE_PAGE = 100
Filter = Annotated[str | None, Parameter(max_length=256)]


class SignInForm(BaseModel):
    model_config = ConfigDict(extra="ignore")
    key: Annotated[str, Field(max_length=256)] = ""


class DecisionForm(BaseModel):
    model_config = ConfigDict(extra="ignore")
    choice: Annotated[str, Field(max_length=256)] = ""
    reasoning: Annotated[str, Field(max_length=5_000)] = ""


Form = Body(media_type=RequestEncodingType.URL_ENCODED)


@get("/", include_in_schema=False, sync_to_thread=False)
def home() -> Redirect:
    return Redirect("/queue")


@get("/signin", include_in_schema=False, sync_to_thread=False)
def signin_page() -> Template:
    return Template("signin.html", context={"error": None})


@post("/signin", include_in_schema=False, sync_to_thread=True, status_code=303)
def signin(request: Request[Any, Any, State], data: Annotated[SignInForm, Form]) -> Response[Any]:
    try:
        sign_in(request, data.key)
    except AccordError as exc:
        return Template("signin.html", context={"error": exc.message}, status_code=status_for(exc))
    return Redirect("/queue", status_code=303)


@post("/signout", include_in_schema=False, sync_to_thread=False, status_code=303)
def signout(request: Request[Any, Any, State]) -> Redirect:
    sign_out(request)
    return Redirect("/signin", status_code=303)


@get("/queue", include_in_schema=False, sync_to_thread=True)
def queue(
    request: Request[Any, Any, State],
    state: State,
    kind: Filter = None,
    severity: Filter = None,
    agent: Filter = None,
) -> Response[Any]:
    reviewer = signed_in(request)
    if reviewer is None:
        return Redirect("/signin")
    filters = QueueFilter(kind=kind or None, severity=severity or None, agent=agent or None)
    page = queue_page(accord_of(state).db, filters, limit=QUEUE_PAGE)
    return Template(
        "queue.html",
        context={
            "reviewer": reviewer,
            "entries": page.rows,
            "more": page.next_cursor is not None,
            "filters": {"kind": kind or "", "severity": severity or "", "agent": agent or ""},
            "kinds": _KINDS,
            "severities": _SEVERITIES,
        },
    )


@get("/history", include_in_schema=False, sync_to_thread=True)
def history(request: Request[Any, Any, State], state: State) -> Response[Any]:
    """Who decided what, when, how long it took, linked to the signed ledger entry."""
    reviewer = signed_in(request)
    if reviewer is None:
        return Redirect("/signin")
    accord = accord_of(state)
    entries = decision_history(accord.db, accord.ledger, limit=QUEUE_PAGE)
    return Template("history.html", context={"reviewer": reviewer, "entries": entries})


_KINDS = tuple(k.value for k in ConflictKind)
_SEVERITIES = tuple(s.value for s in Severity)


def _case_context(accord: Accord, item_id: str, reviewer: ApiKey) -> dict[str, Any]:
    item = accord.approvals.get(item_id)
    case = accord.cases.get(item.case_id)
    outputs = [p.model_dump(mode="json")["output"] for p in case.positions]
    return {
        "reviewer": reviewer,
        "item": item,
        "case": case,
        "positions": case.positions,
        "rows": field_rows(outputs),
        "option_agents": {
            option: [
                p.agent
                for p, output in zip(case.positions, outputs, strict=True)
                if _label(output) == option
            ]
            for option in item.options
        },
    }


def _label(output: Any) -> str:
    return output if isinstance(output, str) else json.dumps(output, sort_keys=True)


@get("/cases/{item_id:str}", include_in_schema=False, sync_to_thread=True)
def case_page(
    request: Request[Any, Any, State],
    state: State,
    item_id: Annotated[str, Parameter(max_length=64)],
) -> Response[Any]:
    reviewer = signed_in(request)
    if reviewer is None:
        return Redirect("/signin")
    try:
        context = _case_context(accord_of(state), item_id, reviewer)
    except NotFound as exc:
        return Template("missing.html", context={"message": exc.message}, status_code=404)
    return Template("case.html", context=context)


@post("/cases/{item_id:str}/decision", include_in_schema=False, sync_to_thread=True)
def decide(
    request: Request[Any, Any, State],
    state: State,
    item_id: Annotated[str, Parameter(max_length=64)],
    data: Annotated[DecisionForm, Form],
) -> Response[Any]:
    """Decide as the signed-in reviewer; answers the decision fragment (htmx swaps it in)."""
    reviewer = signed_in(request)
    if reviewer is None:
        return Template(
            "_decision.html",
            context={"error": "your session has ended: sign in again", "item": None},
            status_code=401,
        )
    if not data.choice or not data.reasoning.strip():
        missing = "a position" if not data.choice else "your reasoning"
        return Template(
            "_decision.html",
            context={"error": f"choose {missing} before deciding", "item": None},
            status_code=422,
        )
    try:
        with write_gate(state):
            item = decide_as_reviewer(
                accord_of(state),
                item_id,
                cast(str, reviewer.principal_id),
                choice=data.choice,
                deny=False,
                reasoning=data.reasoning.strip(),
            )
    except AccordError as exc:
        return Template(
            "_decision.html",
            context={"error": exc.message, "code": exc.code, "item": None},
            status_code=status_for(exc),
        )
    return Template("_decision.html", context={"error": None, "item": item})
