"""The ``webhooks:`` section of ``accord.yaml`` and the rules every subscription's URL obeys."""

from __future__ import annotations

from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, field_validator, model_validator

from accord.errors import ValidationError
from accord.settings_model import StrictSettings

WebhookEvent = Literal["item.waiting", "item.decided", "agent.named", "deadline.near"]
WEBHOOK_EVENTS: tuple[WebhookEvent, ...] = (
    "item.waiting",
    "item.decided",
    "agent.named",
    "deadline.near",
)
MAX_URL_CHARS = 2048
MAX_SUBSCRIPTIONS = 100


def check_url(url: str, field: str = "url") -> str:
    """``url`` if it is an absolute http(s) URL with a host and no credentials."""
    parts = urlsplit(url)
    if (
        len(url) > MAX_URL_CHARS
        or parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.username is not None
        or any(c.isspace() or ord(c) < 32 for c in url)
    ):
        raise ValidationError(
            f"{field} is not a webhook URL",
            code="webhooks.bad_url",
            field=field,
            rule=f"an absolute http:// or https:// URL with a host, no user:password, "
            f"no spaces, ≤ {MAX_URL_CHARS} characters",
        )
    return url


class WebhookTarget(StrictSettings):
    """One configured subscription; its secret comes from an environment variable or a file."""

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,47}$")
    url: str = Field(min_length=1, max_length=MAX_URL_CHARS)
    events: list[WebhookEvent] = Field(default=list(WEBHOOK_EVENTS), min_length=1, max_length=4)
    agent: str | None = Field(default=None, min_length=1, max_length=256)
    secret_env: str | None = Field(default=None, pattern=r"^[A-Z_][A-Z0-9_]{0,127}$")
    secret_file: str | None = Field(default=None, min_length=1, max_length=1024)

    @field_validator("url")
    @classmethod
    def _url(cls, value: str) -> str:
        try:
            return check_url(value)
        except ValidationError as exc:
            raise ValueError(str(exc.context["rule"])) from None

    @model_validator(mode="after")
    def _one_secret_source(self) -> WebhookTarget:
        if (self.secret_env is None) == (self.secret_file is None):
            raise ValueError("name exactly one of secret_env and secret_file")
        return self


class WebhookSettings(StrictSettings):
    """Where and how Accord pushes events (docs/webhooks.md)."""

    subscriptions: list[WebhookTarget] = Field(default_factory=list, max_length=MAX_SUBSCRIPTIONS)
    max_attempts: int = Field(default=8, ge=1, le=30)
    backoff_seconds: float = Field(default=5.0, gt=0, le=3600)
    max_backoff_seconds: float = Field(default=3600.0, gt=0, le=86400)
    timeout_seconds: float = Field(default=10.0, gt=0, le=60)
    interval_seconds: float = Field(default=2.0, gt=0, le=3600)
    deadline_warning_seconds: float = Field(default=600.0, ge=0, le=7 * 86400)
    batch: int = Field(default=100, ge=1, le=1000)
