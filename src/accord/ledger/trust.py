"""The root of trust of a verification: one pinned service key, named from outside the database.

Everything else a verifier accepts — rotated service keys, reviewer keys — is introduced by a
signed ``key_registered`` entry that chains back to this key (see ``key_registry``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from accord.crypto import ED25519, derive_kid
from accord.errors import KeyNotFound, ValidationError

NO_END = 2**63 - 1
"""``last`` of a signing window that no revocation closed."""

SignerWindow = tuple[bytes, int, int]
"""(raw Ed25519 public key, first seq it may sign, last seq it may sign) — picklable, so the
verification workers receive the whole map."""


@dataclass(frozen=True, slots=True)
class TrustRoot:
    """The pinned service key: its kid and raw Ed25519 public key (kid derived from the key)."""

    kid: str
    public_key: bytes

    def __post_init__(self) -> None:
        if derive_kid(ED25519, self.public_key) != self.kid:
            raise ValidationError(
                f"trust root {self.kid!r} does not match its public key",
                code="ledger.bad_trust_root",
                field="kid",
                rule="the kid is derived from the Ed25519 public key",
            )

    @classmethod
    def from_public_keys(cls, keys: Mapping[str, bytes], kid: str) -> TrustRoot:
        """The key ``kid`` among ``keys`` (kid → public key, e.g. ``load_public_keys``)."""
        key = keys.get(kid)
        if key is None:
            raise KeyNotFound(
                f"no public key with kid {kid!r} to pin as the signer",
                kid=kid,
                field="signer",
                rule="--signer names the kid of a *.pub.json file in --public-keys",
                known=sorted(keys),
            )
        return cls(kid, key)

    def windows(self) -> dict[str, SignerWindow]:
        """The signing windows when no key was ever registered: the root signs everything."""
        return {self.kid: (self.public_key, 1, NO_END)}
