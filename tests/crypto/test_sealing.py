"""Seeds sealed under a passphrase open only with that passphrase."""

from __future__ import annotations

import nacl.pwhash.argon2id as argon2id
import pytest

from accord.crypto.encoding import b64encode
from accord.crypto.sealing import SealedSecret, seal, unseal
from accord.errors import CryptoError

FAST = {"opslimit": argon2id.OPSLIMIT_MIN, "memlimit": argon2id.MEMLIMIT_MIN}


def test_a_sealed_secret_opens_with_its_passphrase() -> None:
    sealed = seal(b"seed" * 8, "correct horse", **FAST)
    assert unseal(sealed, "correct horse") == b"seed" * 8
    assert sealed.protection == "argon2id+xsalsa20poly1305"


def test_interactive_limits_are_the_default_and_are_recorded() -> None:
    sealed = seal(b"s", "pw")
    assert (sealed.opslimit, sealed.memlimit) == (
        argon2id.OPSLIMIT_INTERACTIVE,
        argon2id.MEMLIMIT_INTERACTIVE,
    )


def test_a_wrong_passphrase_is_refused() -> None:
    sealed = seal(b"secret", "right", **FAST)
    with pytest.raises(CryptoError) as caught:
        unseal(sealed, "wrong")
    assert caught.value.code == "crypto.bad_passphrase"


def test_the_passphrase_is_unicode_normalized() -> None:
    sealed = seal(b"secret", "caf\u00e9", **FAST)
    assert unseal(sealed, "cafe\u0301") == b"secret"


def test_a_tampered_box_is_refused_like_a_wrong_passphrase() -> None:
    sealed = seal(b"secret", "pw", **FAST)
    tampered = sealed.model_copy(update={"box_b64": b64encode(b"\x00" * 60)})
    with pytest.raises(CryptoError) as caught:
        unseal(tampered, "pw")
    assert caught.value.code == "crypto.bad_passphrase"


@pytest.mark.parametrize(
    "update",
    [{"salt_b64": "!!"}, {"salt_b64": b64encode(b"short")}, {"box_b64": "not base64"}],
)
def test_a_malformed_salt_or_box_is_reported_as_corrupt(update: dict[str, str]) -> None:
    sealed = seal(b"secret", "pw", **FAST).model_copy(update=update)
    with pytest.raises(CryptoError) as caught:
        unseal(sealed, "pw")
    assert caught.value.code == "crypto.key_corrupt"


def test_kdf_limits_outside_the_accepted_range_are_refused_on_reading() -> None:
    sealed = seal(b"secret", "pw", **FAST).model_dump()
    with pytest.raises(ValueError, match="memlimit"):
        SealedSecret.model_validate({**sealed, "memlimit": 2**40})
    with pytest.raises(ValueError, match="opslimit"):
        SealedSecret.model_validate({**sealed, "opslimit": 0})
