"""The reviewer's pages: sign in, the queue, a case, and deciding it."""

from __future__ import annotations

from typing import Annotated, Any, cast

from litestar import Request, Response, get, post
from litestar.datastructures import State
from litestar.enums import RequestEncodingType
from litestar.params import Body, Parameter
from litestar.response import Redirect, Template
from pydantic import BaseModel, ConfigDict, Field

from accord.api.deciding import decide_as_reviewer
from accord.api.errors import status_for
from accord.api.queries.decision_history import decision_history
from accord.api.routes._state import accord_of
from accord.api.ui.case_view import case_context
from accord.api.ui.fragments import fragment
from accord.api.ui.queue_view import QUEUE_PAGE, QueueChoice, queue_view
from accord.api.ui.reasons import joined_reasoning, lf_line_breaks
from accord.api.ui.session import sign_in, sign_out, signed_in
from accord.app import Accord
from accord.approvals import MAX_WRITTEN_OUTCOME_CHARS, verdict_of
from accord.errors import AccordError, NotFound, ValidationError

Filter = Annotated[str | None, Parameter(max_length=256)]


class SignInForm(BaseModel):
    model_config = ConfigDict(extra="ignore")
    key: Annotated[str, Field(max_length=256)] = ""


WRITTEN = "outcome"
"""The form's ``verdict`` for "write an outcome" (its text in the ``outcome`` field)."""


class DecisionForm(BaseModel):
    """A position by number, ``deny`` or ``outcome`` (the text written in ``outcome``), a
    preset reason and/or a written one."""

    model_config = ConfigDict(extra="ignore")
    verdict: Annotated[str, Field(max_length=8)] = ""
    outcome: Annotated[str, Field(max_length=MAX_WRITTEN_OUTCOME_CHARS)] = ""
    preset: Annotated[str, Field(max_length=256)] = ""
    reasoning: Annotated[str, Field(max_length=5_000)] = ""

    def full_reasoning(self) -> str:
        """The preset reason (if it is one of the page's) then the written reasoning."""
        return joined_reasoning(self.preset, self.reasoning)


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
    tier: Filter = None,
    department: Filter = None,
    agent: Filter = None,
    sort: Filter = None,
) -> Response[Any]:
    """The pending items, filtered and sorted; the rows refresh themselves (``/queue/rows``)."""
    reviewer = signed_in(request)
    if reviewer is None:
        return Redirect("/signin")
    chosen = QueueChoice(kind, severity, tier, department, agent, sort)
    try:
        view = queue_view(accord_of(state), chosen)
    except AccordError as exc:
        return Template(
            "missing.html",
            context={
                "reviewer": reviewer,
                "title": "Cannot show the queue",
                "message": exc.message,
            },
            status_code=status_for(exc),
        )
    return Template("queue.html", context={"reviewer": reviewer, **view})


@get("/queue/rows", include_in_schema=False, sync_to_thread=True)
def queue_rows(
    request: Request[Any, Any, State],
    state: State,
    kind: Filter = None,
    severity: Filter = None,
    tier: Filter = None,
    department: Filter = None,
    agent: Filter = None,
    sort: Filter = None,
    seen: Filter = None,
) -> Response[Any]:
    """The queue's rows for htmx polling: 204 while nothing changed since ``seen``."""
    reviewer = signed_in(request)
    if reviewer is None:  # htmx follows HX-Redirect instead of swapping the rows away
        return Response(content=b"", status_code=401, headers={"HX-Redirect": "/signin"})
    chosen = QueueChoice(kind, severity, tier, department, agent, sort)
    view = queue_view(accord_of(state), chosen)
    if seen is not None and seen == view["token"]:
        return Response(content=b"", status_code=204)
    return Template("_queue_rows.html", context={"reviewer": reviewer, "fragment": True, **view})


@get("/history", include_in_schema=False, sync_to_thread=True)
def history(request: Request[Any, Any, State], state: State) -> Response[Any]:
    """Who decided what, when, how long it took, linked to the signed ledger entry."""
    reviewer = signed_in(request)
    if reviewer is None:
        return Redirect("/signin")
    accord = accord_of(state)
    entries = decision_history(accord.db, accord.ledger, limit=QUEUE_PAGE)
    return Template("history.html", context={"reviewer": reviewer, "entries": entries})


@get("/cases/{item_id:str}", include_in_schema=False, sync_to_thread=True)
def case_page(
    request: Request[Any, Any, State],
    state: State,
    item_id: Annotated[str, Parameter(max_length=64)],
) -> Response[Any]:
    reviewer = signed_in(request)
    if reviewer is None:
        return Redirect("/signin")
    accord = accord_of(state)
    try:
        paper = accord.disputes.tiers.arbitration.ballot_paper(item_id)
        if paper is not None:  # a human panel member's vote (R14)
            item = accord.approvals.get(item_id)
            context = {"reviewer": reviewer, "item": item, "paper": paper}
            return Template("ballot.html", context=context)
        context = case_context(accord, item_id, reviewer)
    except NotFound as exc:
        return Template("missing.html", context={"message": exc.message}, status_code=404)
    return Template("case.html", context=context)


def _refused(
    request: Request[Any, Any, State], message: str, status: int, code: str | None = None
) -> Template:
    context = {"error": message, "code": code, "item": None}
    return fragment(request, "_decision.html", context, status)


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
        return _refused(request, "your session has ended: sign in again", 401)
    reasoning = data.full_reasoning()
    if not data.verdict or not reasoning:
        return _refused(
            request,
            "choose a position or write an outcome before deciding"
            if not data.verdict
            else "choose or write a reason before deciding",
            422,
        )
    written = data.verdict == WRITTEN
    if not written and data.outcome.strip():
        return _refused(
            request,
            "write an outcome or choose a position, not both: choose 'write an outcome' "
            "or clear the outcome",
            422,
            "approvals.invalid",
        )
    accord = accord_of(state)
    try:
        choice = None if written else _choice(accord, item_id, data.verdict)
        item = decide_as_reviewer(
            accord,
            item_id,
            cast(str, reviewer.principal_id),
            choice=choice,
            deny=choice is None and not written,
            reasoning=reasoning,
            outcome=lf_line_breaks(data.outcome) if written else None,
        )
    except AccordError as exc:
        return _refused(request, exc.message, status_for(exc), exc.code)
    verdict = verdict_of(item) or "-"
    context = {"reviewer": reviewer, "error": None, "item": item, "verdict": verdict}
    return fragment(request, "_decision.html", context)


def _choice(accord: Accord, item_id: str, verdict: str) -> str | None:
    """The option the form's ``verdict`` names (its 1-based number), or None for deny."""
    if verdict == "deny":
        return None
    options = accord.approvals.get(item_id).options
    if not verdict.isdigit() or not 1 <= int(verdict) <= len(options):
        raise ValidationError(
            f"verdict must be deny or an option number from 1 to {len(options)}",
            code="approvals.unknown_choice",
            field="verdict",
            rule="deny or 1..number of options",
        )
    return options[int(verdict) - 1]
