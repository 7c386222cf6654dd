"""Passphrase protection of key seeds: Argon2id stretches the passphrase, SecretBox seals."""

from __future__ import annotations

import unicodedata
from typing import Final, Literal

import nacl.exceptions
import nacl.pwhash.argon2id as argon2id
import nacl.secret
import nacl.utils
from pydantic import BaseModel, ConfigDict, Field

from accord.crypto.encoding import b64decode, b64encode
from accord.errors import CryptoError

SEAL_SCHEME: Final = "argon2id+xsalsa20poly1305"
OPSLIMIT_MAX_ACCEPTED = argon2id.OPSLIMIT_SENSITIVE
MEMLIMIT_MAX_ACCEPTED = argon2id.MEMLIMIT_SENSITIVE


class SealedSecret(BaseModel):
    """A secret sealed under a passphrase, with the KDF parameters needed to open it again.

    The limits are bounded on reading, so a crafted file cannot make the KDF exhaust memory.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    protection: Literal["argon2id+xsalsa20poly1305"] = SEAL_SCHEME
    opslimit: int = Field(ge=argon2id.OPSLIMIT_MIN, le=OPSLIMIT_MAX_ACCEPTED)
    memlimit: int = Field(ge=argon2id.MEMLIMIT_MIN, le=MEMLIMIT_MAX_ACCEPTED)
    salt_b64: str
    box_b64: str


def seal(
    secret: bytes,
    passphrase: str,
    *,
    opslimit: int = argon2id.OPSLIMIT_INTERACTIVE,
    memlimit: int = argon2id.MEMLIMIT_INTERACTIVE,
) -> SealedSecret:
    """Encrypt ``secret`` under a key stretched from ``passphrase`` (NFC-normalized UTF-8)."""
    salt = nacl.utils.random(argon2id.SALTBYTES)
    box = nacl.secret.SecretBox(_stretch(passphrase, salt, opslimit, memlimit))
    return SealedSecret(
        opslimit=opslimit,
        memlimit=memlimit,
        salt_b64=b64encode(salt),
        box_b64=b64encode(bytes(box.encrypt(secret))),
    )


def unseal(sealed: SealedSecret, passphrase: str) -> bytes:
    """The secret ``sealed`` holds; ``crypto.bad_passphrase`` if the passphrase is wrong."""
    try:
        salt = b64decode(sealed.salt_b64)
        boxed = b64decode(sealed.box_b64)
    except ValueError:
        raise _malformed("salt and box are standard padded base64") from None
    if len(salt) != argon2id.SALTBYTES:
        raise _malformed(f"the salt is {argon2id.SALTBYTES} bytes")
    box = nacl.secret.SecretBox(_stretch(passphrase, salt, sealed.opslimit, sealed.memlimit))
    try:
        return bytes(box.decrypt(boxed))
    except (nacl.exceptions.CryptoError, ValueError):
        raise CryptoError(
            "wrong passphrase (or the sealed secret was altered)",
            code="crypto.bad_passphrase",
            field="passphrase",
            rule="the passphrase must open the sealed seeds",
        ) from None


def _stretch(passphrase: str, salt: bytes, opslimit: int, memlimit: int) -> bytes:
    password = unicodedata.normalize("NFC", passphrase).encode("utf-8")
    key: bytes = argon2id.kdf(
        nacl.secret.SecretBox.KEY_SIZE, password, salt, opslimit=opslimit, memlimit=memlimit
    )
    return key


def _malformed(rule: str) -> CryptoError:
    return CryptoError(f"sealed secret is malformed: {rule}", code="crypto.key_corrupt", rule=rule)
