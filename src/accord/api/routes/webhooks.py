"""``/api/v1/webhooks``: an admin subscribes a URL to events, lists and deletes subscriptions.

The secret that signs every delivery is answered once, by the create; the list never shows it.
"""

from __future__ import annotations

from typing import Annotated

from litestar import delete, get, post
from litestar.datastructures import State
from litestar.params import JSONBody, Parameter
from pydantic import BaseModel, Field

from accord.api.api_keys import Role
from accord.api.errors import error_responses
from accord.api.guards import allow
from accord.api.routes._state import accord_of
from accord.api.schemas import NO_NUL, _In
from accord.webhooks import WEBHOOK_EVENTS, Subscription

Id = Annotated[str, Parameter(max_length=64, description="The subscription's id.")]


class SubscribeIn(_In):
    """Where to push which events; ``agent`` keeps only the events that name that agent."""

    url: Annotated[str, Field(min_length=1, max_length=2048, pattern=NO_NUL)] = Field(
        description="An absolute http(s) URL; redirects from it are never followed."
    )
    events: Annotated[list[str], Field(min_length=1, max_length=4)] = Field(
        default=list(WEBHOOK_EVENTS), description=f"Any of {', '.join(WEBHOOK_EVENTS)}."
    )
    agent: Annotated[str, Field(min_length=1, max_length=256, pattern=NO_NUL)] | None = Field(
        default=None, description="Only events that name this agent (1 to 256 characters)."
    )


class SubscriptionOut(BaseModel):
    """A subscription; ``secret`` only in the answer that created it."""

    subscription_id: str = Field(description="The subscription's id.")
    url: str = Field(description="Where deliveries are POSTed.")
    events: list[str] = Field(description="The events delivered.")
    agent: str | None = Field(description="Only events that name this agent; null: all.")
    source: str = Field(description="config (accord.yaml) or api")
    created_at: str = Field(description="When it was created (ISO 8601).")
    secret: str | None = Field(
        default=None, description="HMAC-SHA256 key of the signatures; shown once"
    )

    @classmethod
    def of(cls, sub: Subscription, secret: str | None = None) -> SubscriptionOut:
        return cls(**sub.model_dump(), secret=secret)


@post(
    "/webhooks",
    opt=allow(Role.ADMIN),
    sync_to_thread=True,
    status_code=201,
    responses=error_responses(400, 401, 403, 413, 422),
    tags=["webhooks"],
    operation_id="createWebhookSubscription",
    summary="Subscribe a URL to signed webhooks",
)
def subscribe(state: State, data: JSONBody[SubscribeIn]) -> SubscriptionOut:
    """Subscribe a URL to events; the answer carries the signing secret, shown only here."""
    sub, secret = accord_of(state).webhooks.subscribe(data.url, data.events, agent=data.agent)
    return SubscriptionOut.of(sub, secret)


@get(
    "/webhooks",
    opt=allow(Role.ADMIN),
    sync_to_thread=True,
    responses=error_responses(401, 403),
    tags=["webhooks"],
    operation_id="listWebhookSubscriptions",
    summary="List webhook subscriptions",
)
def list_subscriptions(state: State) -> list[SubscriptionOut]:
    """Every subscription, configured and created over HTTP (no secrets)."""
    return [SubscriptionOut.of(s) for s in accord_of(state).webhooks.subscriptions()]


@delete(
    "/webhooks/{subscription_id:str}",
    opt=allow(Role.ADMIN),
    sync_to_thread=True,
    status_code=204,
    responses=error_responses(400, 401, 403, 404),
    tags=["webhooks"],
    operation_id="deleteWebhookSubscription",
    summary="Delete a webhook subscription",
)
def unsubscribe(state: State, subscription_id: Id) -> None:
    """Delete a subscription; its pending deliveries are dropped, its delivery log kept."""
    accord_of(state).webhooks.unsubscribe(subscription_id)


ROUTES = [subscribe, list_subscriptions, unsubscribe]
