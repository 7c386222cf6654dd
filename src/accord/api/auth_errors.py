"""Why the service refused a caller: ``auth.*`` errors (401 unauthenticated, 403 forbidden)."""

from __future__ import annotations

from accord.errors import AccordError


class Unauthenticated(AccordError):
    """No credential, or one that is wrong, expired or revoked (HTTP 401)."""

    code = "auth.unauthenticated"


class Forbidden(AccordError):
    """The credential is valid but its role or identity may not do this (HTTP 403)."""

    code = "auth.forbidden"
