"""``parse_public_key``: an Ed25519 public key as base64 of its 32 bytes or as a PEM
``PUBLIC KEY``; anything else is refused naming the field."""

from __future__ import annotations

import base64

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from accord.crypto import parse_public_key
from accord.errors import ValidationError

KEY = Ed25519PrivateKey.from_private_bytes(b"\x07" * 32).public_key()
RAW = KEY.public_bytes(Encoding.Raw, PublicFormat.Raw)
PEM = KEY.public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo).decode()


@pytest.mark.parametrize("text", [base64.b64encode(RAW).decode(), PEM, f"\n  {PEM}  \n"])
def test_raw_base64_and_pem_give_the_same_32_bytes(text: str) -> None:
    assert parse_public_key(text) == RAW


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not base64!",
        base64.b64encode(RAW[:31]).decode(),
        base64.b64encode(RAW + b"\x00").decode(),
        "-----BEGIN PUBLIC KEY-----\nbroken\n-----END PUBLIC KEY-----",
        X25519PrivateKey.from_private_bytes(b"\x07" * 32)
        .public_key()
        .public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
        .decode(),
        "é" * 44,
    ],
)
def test_anything_else_is_refused_naming_the_field(text: str) -> None:
    with pytest.raises(ValidationError) as refused:
        parse_public_key(text, field="public_key")
    assert refused.value.code == "keys.bad_public_key"
    assert refused.value.context["field"] == "public_key"
