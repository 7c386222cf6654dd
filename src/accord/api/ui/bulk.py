"""The queue's batch decide bar: one verdict and reasoning for every selected item.

Each item is its own compare-and-set decision through ``decide_each`` (the loop the
API's ``POST /api/v1/approvals/decisions`` makes), as the signed-in reviewer: one that is
refused (already decided, no such option, a party of yours) is reported and does not stop the
rest. The form carries the CSRF token like every page form.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, cast

from litestar import Request, Response, post
from litestar.datastructures import State
from litestar.enums import RequestEncodingType
from litestar.params import Body
from litestar.response import Template
from pydantic import BaseModel, ConfigDict, Field, field_validator

from accord.api.deciding import Verdict, decide_each
from accord.api.routes._state import accord_of
from accord.api.ui.fragments import fragment
from accord.api.ui.reasons import joined_reasoning
from accord.api.ui.session import signed_in
from accord.errors import AccordError

MAX_BATCH = 100
"""As many items as the API's batch decision takes."""
OPTION_PREFIX = "option:"
DENY = "deny"


class BulkForm(BaseModel):
    model_config = ConfigDict(extra="ignore")
    item: Annotated[list[Annotated[str, Field(max_length=64)]], Field(max_length=MAX_BATCH)] = []
    verdict: Annotated[str, Field(max_length=300)] = ""
    """``option:<label>`` or ``deny``."""
    preset: Annotated[str, Field(max_length=256)] = ""
    reasoning: Annotated[str, Field(max_length=5_000)] = ""

    @field_validator("item", mode="before")
    @classmethod
    def _one_is_a_list(cls, value: object) -> object:
        """A form with one checked box sends one value, not a list."""
        return [value] if isinstance(value, str) else value


@dataclass(frozen=True)
class BulkResult:
    item_id: str
    decided: bool
    message: str


def _fragment(
    request: Request[Any, Any, State], results: list[BulkResult], error: str | None, status: int
) -> Template:
    response = fragment(request, "_bulk_result.html", {"results": results, "error": error}, status)
    if results:
        response.headers["HX-Trigger"] = "queue-changed"  # the rows refresh at once
    return response


@post("/queue/decisions", include_in_schema=False, sync_to_thread=True)
def decide_selected(
    request: Request[Any, Any, State],
    state: State,
    data: Annotated[BulkForm, Body(media_type=RequestEncodingType.URL_ENCODED)],
) -> Response[Any]:
    """Decide every selected item with the bar's verdict and reasoning."""
    reviewer = signed_in(request)
    if reviewer is None:
        return _fragment(request, [], "your session has ended: sign in again", 401)
    items = list(dict.fromkeys(data.item))
    reasoning = joined_reasoning(data.preset, data.reasoning)
    deny = data.verdict == DENY
    choice = data.verdict.removeprefix(OPTION_PREFIX) if not deny else None
    if not items:
        return _fragment(request, [], "select at least one item", 422)
    if not deny and not (data.verdict.startswith(OPTION_PREFIX) and choice):
        return _fragment(request, [], "choose a verdict for the selected items", 422)
    if not reasoning:
        return _fragment(request, [], "pick a preset reason or write your reasoning", 422)
    principal = cast(str, reviewer.principal_id)
    verdicts = [Verdict(item_id, choice, deny, reasoning) for item_id in items]
    results = []
    for item_id, outcome in zip(
        items, decide_each(accord_of(state), principal, verdicts), strict=True
    ):
        if isinstance(outcome, AccordError):
            results.append(BulkResult(item_id, False, outcome.message))
        else:
            decision = outcome.decision
            chosen = decision.choice if decision and decision.choice else "denied"
            results.append(BulkResult(item_id, True, chosen))
    return _fragment(request, results, None, 200)
