"""Ed25519 signing and verification over libsodium (PyNaCl), kept thin for the ledger's hot path."""

from __future__ import annotations

import nacl.bindings
import nacl.exceptions
import nacl.utils

from accord.crypto.kid import ED25519, derive_kid
from accord.errors import CryptoError, SignatureInvalid

SEED_BYTES = 32
PUBLIC_KEY_BYTES = 32
SIGNATURE_BYTES = 64


class Ed25519Signer:
    """An Ed25519 private key, known by its seed; signs raw messages."""

    __slots__ = ("_kid", "_public_key", "_secret_key", "_seed")

    def __init__(self, seed: bytes) -> None:
        if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
            raise CryptoError(
                "an Ed25519 seed is 32 bytes",
                code="crypto.bad_seed",
                field="seed",
                rule="Ed25519 seeds are exactly 32 bytes",
                alg=ED25519,
            )
        public_key, secret_key = nacl.bindings.crypto_sign_seed_keypair(seed)
        self._seed = seed
        self._public_key: bytes = public_key
        self._secret_key: bytes = secret_key
        self._kid = derive_kid(ED25519, public_key)

    @classmethod
    def generate(cls) -> Ed25519Signer:
        """A fresh key from the operating system's randomness."""
        return cls(nacl.utils.random(SEED_BYTES))

    @classmethod
    def from_seed(cls, seed: bytes) -> Ed25519Signer:
        """The key whose 32-byte seed is ``seed`` (RFC 8032 "secret key")."""
        return cls(seed)

    @property
    def alg(self) -> str:
        """Always ``"ed25519"``."""
        return ED25519

    @property
    def kid(self) -> str:
        """Key id derived from the public key."""
        return self._kid

    @property
    def public_key(self) -> bytes:
        """The 32-byte raw public key."""
        return self._public_key

    @property
    def seed(self) -> bytes:
        """The 32-byte seed: the whole secret. Handle with care."""
        return self._seed

    def sign(self, message: bytes) -> bytes:
        """The 64-byte detached signature of ``message``."""
        return nacl.bindings.crypto_sign(message, self._secret_key)[:SIGNATURE_BYTES]

    def __repr__(self) -> str:
        return f"Ed25519Signer(kid={self._kid!r})"


def verify_ed25519(public_key: bytes, message: bytes, signature: bytes) -> None:
    """Return if ``signature`` is ``public_key``'s signature of ``message``; else raise."""
    if len(public_key) != PUBLIC_KEY_BYTES or len(signature) != SIGNATURE_BYTES:
        raise SignatureInvalid(
            "malformed Ed25519 key or signature",
            alg=ED25519,
            rule="Ed25519 public keys are 32 bytes and signatures 64 bytes",
            public_key_length=len(public_key),
            signature_length=len(signature),
        )
    try:
        nacl.bindings.crypto_sign_open(signature + message, public_key)
    except nacl.exceptions.BadSignatureError:
        raise SignatureInvalid(
            "Ed25519 signature does not verify",
            alg=ED25519,
            kid=derive_kid(ED25519, public_key),
            rule="signature must verify under the public key",
        ) from None


def parse_public_key(text: str, *, field: str = "public_key") -> bytes:
    """The raw 32 bytes of an Ed25519 public key given as standard base64 of those bytes or
    as a PEM ``PUBLIC KEY`` (SubjectPublicKeyInfo); ``ValidationError`` naming ``field``."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    from cryptography.hazmat.primitives.serialization import (
        Encoding,
        PublicFormat,
        load_pem_public_key,
    )

    from accord.crypto.encoding import b64decode
    from accord.errors import ValidationError

    rule = "an Ed25519 public key: 32 bytes in standard base64, or a PEM PUBLIC KEY"
    text = text.strip()
    try:
        if text.startswith("-----BEGIN"):
            loaded = load_pem_public_key(text.encode("ascii"))
            if not isinstance(loaded, Ed25519PublicKey):
                raise ValueError("not Ed25519")
            raw = loaded.public_bytes(Encoding.Raw, PublicFormat.Raw)
        else:
            raw = b64decode(text)
        if len(raw) != PUBLIC_KEY_BYTES:
            raise ValueError("not 32 bytes")
        Ed25519PublicKey.from_public_bytes(raw)
    except (ValueError, UnicodeEncodeError, TypeError):
        raise ValidationError(
            f"{field} is not {rule}", code="keys.bad_public_key", field=field, rule=rule
        ) from None
    return raw
