"""ML-DSA-65 (FIPS 204) signing and verification over ``cryptography``: the post-quantum half."""

from __future__ import annotations

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.mldsa import MLDSA65PrivateKey, MLDSA65PublicKey

from accord.crypto.kid import ML_DSA_65, derive_kid
from accord.errors import CryptoError, SignatureInvalid

SEED_BYTES = 32
PUBLIC_KEY_BYTES = 1952
SIGNATURE_BYTES = 3309


class MlDsa65Signer:
    """An ML-DSA-65 private key, known by its 32-byte seed ξ; signs raw messages (empty context)."""

    __slots__ = ("_key", "_kid", "_public_key", "_seed")

    def __init__(self, seed: bytes) -> None:
        if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
            raise CryptoError(
                "an ML-DSA-65 seed is 32 bytes",
                code="crypto.bad_seed",
                field="seed",
                rule="ML-DSA-65 seeds are exactly 32 bytes",
                alg=ML_DSA_65,
            )
        self._seed = seed
        self._key = MLDSA65PrivateKey.from_seed_bytes(seed)
        self._public_key = self._key.public_key().public_bytes_raw()
        self._kid = derive_kid(ML_DSA_65, self._public_key)

    @classmethod
    def generate(cls) -> MlDsa65Signer:
        """A fresh key from the operating system's randomness."""
        return cls(MLDSA65PrivateKey.generate().private_bytes_raw())

    @classmethod
    def from_seed(cls, seed: bytes) -> MlDsa65Signer:
        """The key whose seed (``private_bytes_raw``) is ``seed``."""
        return cls(seed)

    @property
    def alg(self) -> str:
        """Always ``"ml-dsa-65"``."""
        return ML_DSA_65

    @property
    def kid(self) -> str:
        """Key id derived from the public key."""
        return self._kid

    @property
    def public_key(self) -> bytes:
        """The 1952-byte raw public key."""
        return self._public_key

    @property
    def seed(self) -> bytes:
        """The 32-byte seed: the whole secret. Handle with care."""
        return self._seed

    def sign(self, message: bytes) -> bytes:
        """The 3309-byte signature of ``message`` (hedged: differs on every call)."""
        return self._key.sign(message)

    def __repr__(self) -> str:
        return f"MlDsa65Signer(kid={self._kid!r})"


def verify_ml_dsa_65(public_key: bytes, message: bytes, signature: bytes) -> None:
    """Return if ``signature`` is ``public_key``'s signature of ``message``; else raise."""
    if len(public_key) != PUBLIC_KEY_BYTES or len(signature) != SIGNATURE_BYTES:
        raise SignatureInvalid(
            "malformed ML-DSA-65 key or signature",
            alg=ML_DSA_65,
            rule="ML-DSA-65 public keys are 1952 bytes and signatures 3309 bytes",
            public_key_length=len(public_key),
            signature_length=len(signature),
        )
    try:
        MLDSA65PublicKey.from_public_bytes(public_key).verify(signature, message)
    except InvalidSignature:
        raise SignatureInvalid(
            "ML-DSA-65 signature does not verify",
            alg=ML_DSA_65,
            kid=derive_kid(ML_DSA_65, public_key),
            rule="signature must verify under the public key",
        ) from None
