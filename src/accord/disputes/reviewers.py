"""From a reviewer key to the reviewer who decides: the ledger's key registry says whose key it
is; the configuration says whether that principal may decide at all."""

from __future__ import annotations

from collections.abc import Callable

from accord.approvals import Principal, Reviewer, UnconfiguredReviewer
from accord.crypto import Ed25519Signer
from accord.ledger import KeyRegistry
from accord.ledger.trust import NO_END


def reviewer_for(
    registry: KeyRegistry, signer: Ed25519Signer, configured: Callable[[str], Principal]
) -> Reviewer:
    """The reviewer ``signer`` authenticates: its key must be a registered, unrevoked reviewer
    key, and its principal configured (``configured`` raises otherwise)."""
    key = registry.reviewer_at(signer.kid, NO_END)
    if key is None or key.public_key != signer.public_key or key.principal is None:
        raise UnconfiguredReviewer(
            f"key {signer.kid} is not a registered, unrevoked reviewer key "
            "(create one with `accord keys new --role reviewer --principal human:NAME`)",
            kid=signer.kid,
            field="key",
            rule="decisions are signed by a reviewer key registered in the ledger",
        )
    return Reviewer(configured(key.principal), signer)
