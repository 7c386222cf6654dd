"""Accord's error hierarchy: every error carries a stable code and structured context.

Codes are dotted, lower-case and stable across releases (``canonical.float``,
``ledger.chain_broken``); callers and HTTP/CLI boundaries map on the code, never on
the message text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class AccordError(Exception):
    """Base of every error Accord raises on purpose."""

    code: str = "accord.error"

    def __init__(self, message: str, *, code: str | None = None, **context: Any) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message
        self.context: Mapping[str, Any] = dict(context)

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly view for CLI and HTTP answers."""
        return {"code": self.code, "message": self.message, "context": dict(self.context)}


class ValidationError(AccordError):
    """Input at a boundary broke a rule; ``context`` names the field and the rule."""

    code = "validation.invalid"


class ConfigError(AccordError):
    """A configuration file is malformed: names the file, the key path and the rule."""

    code = "config.invalid"


class CanonicalizationError(ValidationError):
    """A value cannot be expressed in the dcp-jcs-v1 canonical form."""

    code = "canonical.invalid"


class CryptoError(AccordError):
    """Key handling or signing failed."""

    code = "crypto.error"


class SignatureInvalid(CryptoError):
    """A signature does not verify against the given key and message."""

    code = "crypto.signature_invalid"


class KeyNotFound(CryptoError):
    """No key with that name or key id is known."""

    code = "crypto.key_not_found"


class IllegalTransition(AccordError):
    """A case was asked to move between two DCP statuses the lifecycle does not join (R6);
    ``context`` names ``from_status``, ``to_status``, the case and the rule."""

    code = "case.illegal_transition"


class StoreError(AccordError):
    """The database could not do what was asked."""

    code = "store.error"


class SavepointLost(StoreError):
    """A savepoint could not be rolled back to or released: the transaction around it is no
    longer what its caller began (the database may have rolled it all back), so no caller may
    treat this as one failed step and carry on."""

    code = "store.savepoint_lost"


class LedgerError(AccordError):
    """The ledger could not append or read."""

    code = "ledger.error"


class VerificationFailed(LedgerError):
    """The ledger does not verify; ``context['seq']`` names the first bad entry."""

    code = "ledger.verification_failed"


class NotFound(AccordError):
    """A requested object does not exist."""

    code = "not_found"
