"""The boundary with httpx: every httpx exception becomes a ``ModelError``.

The checks run most specific first; ``tests/llm/test_httpx_error_mapping.py``
enumerates httpx's exception classes and checks each lands on an intended code.
"""

from __future__ import annotations

import httpx

from accord.llm.errors import (
    ModelBadOutput,
    ModelConfigError,
    ModelError,
    ModelHTTPError,
    ModelRateLimited,
    ModelTimeout,
    ModelUnreachable,
)

BODY_EXCERPT_CHARS = 500

HttpxFailure = httpx.HTTPError | httpx.InvalidURL | httpx.CookieConflict | httpx.StreamError
"""Every exception class httpx raises on purpose."""

HTTPX_FAILURES = (httpx.HTTPError, httpx.InvalidURL, httpx.CookieConflict, httpx.StreamError)


def model_error_from_httpx(error: HttpxFailure) -> ModelError:
    """The ``ModelError`` that stands for ``error`` (chain it with ``raise … from error``)."""
    kind = type(error).__name__
    if isinstance(error, httpx.HTTPStatusError):
        return _from_status(error)
    if isinstance(error, httpx.TimeoutException):
        return ModelTimeout(f"the model did not answer in time: {error}", kind=kind)
    if isinstance(error, httpx.UnsupportedProtocol | httpx.InvalidURL):
        return ModelConfigError(f"invalid model URL: {error}", kind=kind)
    if isinstance(error, httpx.DecodingError):
        return ModelBadOutput(f"undecodable answer: {error}", code="llm.bad_response", kind=kind)
    if isinstance(error, httpx.TooManyRedirects):
        return ModelHTTPError(f"too many redirects: {error}", kind=kind)
    if isinstance(error, httpx.RequestError):
        return ModelUnreachable(f"the model endpoint is unreachable: {error}", kind=kind)
    return ModelError(f"HTTP client failure: {error}", kind=kind)


def retry_after_seconds(value: str | None) -> float | None:
    """A ``Retry-After`` header in delta-seconds; HTTP dates are ignored (no wall clock here)."""
    if value is None:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None
    return seconds if 0.0 <= seconds < float("inf") else None


def _from_status(error: httpx.HTTPStatusError) -> ModelError:
    response = error.response
    status = response.status_code
    kind = ModelRateLimited if status == 429 else ModelHTTPError
    what = "rate limited" if status == 429 else f"answered HTTP {status}"
    return kind(
        f"{error.request.url.host} {what}",
        status=status,
        body=_excerpt(response),
        retry_after=retry_after_seconds(response.headers.get("retry-after")),
    )


def _excerpt(response: httpx.Response) -> str:
    try:
        text = response.text
    except httpx.ResponseNotRead:
        return ""
    if len(text) <= BODY_EXCERPT_CHARS:
        return text
    return text[:BODY_EXCERPT_CHARS] + "…"
