"""Corrupt or tampered key files are refused with ``crypto.key_corrupt`` naming the file."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from accord.clock import FrozenClock
from accord.crypto import CryptoError, Ed25519Signer, KeyNotFound, Keyring, MlDsa65Signer
from accord.crypto.encoding import b64encode
from accord.crypto.key_files import read_public_key_file
from accord.crypto.sealing import seal

from .conftest import public_file


@pytest.fixture
def keyring(tmp_path: Path) -> Keyring:
    return Keyring(tmp_path / "keys", FrozenClock())


def _edit(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def _corrupt_error(action: Callable[[], object], path: Path) -> CryptoError:
    with pytest.raises(CryptoError) as caught:
        action()
    assert caught.value.code == "crypto.key_corrupt"
    assert caught.value.context["file"] == str(path)
    assert caught.value.context["rule"]
    return caught.value


def test_a_public_file_whose_kid_does_not_match_its_key_is_refused(keyring: Keyring) -> None:
    keyring.create("agent:alpha")
    path = public_file(keyring.directory, "agent:alpha")
    _edit(path, lambda d: d.update(kid="0" * 32))
    error = _corrupt_error(keyring.trusted_public_keys, path)
    assert "kid" in error.context["rule"]


def test_a_public_file_with_a_swapped_key_is_refused(keyring: Keyring) -> None:
    keyring.create("agent:alpha")
    path = public_file(keyring.directory, "agent:alpha")
    intruder = Ed25519Signer.generate()
    _edit(path, lambda d: d.update(public_key_b64=b64encode(intruder.public_key)))
    _corrupt_error(keyring.trusted_public_keys, path)


def test_a_public_file_under_another_name_is_refused(keyring: Keyring) -> None:
    keyring.create("agent:alpha")
    source = public_file(keyring.directory, "agent:alpha")
    renamed = public_file(keyring.directory, "agent:beta")
    source.rename(renamed)
    _corrupt_error(keyring.trusted_public_keys, renamed)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(pq_kid="0" * 32),
        lambda d: d.update(pq_public_key_b64=None),
        lambda d: d.update(pq_public_key_b64=b64encode(bytes(10))),
        lambda d: d.update(public_key_b64="***"),
        lambda d: d.update(name="Not Valid"),
        lambda d: d.update(alg="rsa"),
        lambda d: d.update(extra="field"),
    ],
)
def test_inconsistent_public_fields_are_refused(
    keyring: Keyring, change: Callable[[dict[str, Any]], None]
) -> None:
    keyring.create("service", with_pq=True)
    path = public_file(keyring.directory, "service")
    _edit(path, change)
    _corrupt_error(keyring.trusted_public_keys, path)


def test_a_key_file_that_is_not_json_is_refused(keyring: Keyring) -> None:
    keyring.create("agent:alpha")
    path = keyring.directory / "agent:alpha.key.json"
    path.write_text("{ not json")
    _corrupt_error(lambda: keyring.info("agent:alpha"), path)
    _corrupt_error(keyring.list, path)


def test_a_private_file_whose_seed_was_replaced_is_refused(keyring: Keyring) -> None:
    keyring.create("agent:alpha")
    path = keyring.directory / "agent:alpha.key.json"
    other = Ed25519Signer.generate()
    _edit(path, lambda d: d["secret"].update(seed_b64=b64encode(other.seed)))
    error = _corrupt_error(lambda: keyring.signer("agent:alpha"), path)
    assert "Ed25519 seed" in error.context["rule"]


def test_a_private_file_whose_pq_seed_was_replaced_is_refused(keyring: Keyring) -> None:
    keyring.create("service", with_pq=True)
    path = keyring.directory / "service.key.json"
    other = MlDsa65Signer.generate()
    _edit(path, lambda d: d["secret"].update(pq_seed_b64=b64encode(other.seed)))
    _corrupt_error(lambda: keyring.signer("service"), path)


def test_a_pq_seed_without_a_pq_public_key_is_refused(keyring: Keyring) -> None:
    keyring.create("agent:alpha")
    path = keyring.directory / "agent:alpha.key.json"
    _edit(path, lambda d: d["secret"].update(pq_seed_b64=b64encode(bytes(32))))
    _corrupt_error(lambda: keyring.signer("agent:alpha"), path)


def test_a_seed_of_the_wrong_length_is_refused_on_reading(keyring: Keyring) -> None:
    keyring.create("agent:alpha")
    path = keyring.directory / "agent:alpha.key.json"
    _edit(path, lambda d: d["secret"].update(seed_b64=b64encode(bytes(16))))
    _corrupt_error(lambda: keyring.info("agent:alpha"), path)


def test_sealed_seeds_of_the_wrong_length_are_refused(keyring: Keyring) -> None:
    keyring.create("agent:alpha", passphrase="pw")
    path = keyring.directory / "agent:alpha.key.json"
    sealed = seal(bytes(40), "pw").model_dump()
    _edit(path, lambda d: d.update(secret=sealed))
    _corrupt_error(lambda: keyring.signer("agent:alpha", "pw"), path)


def test_sealed_seeds_of_another_key_are_refused(keyring: Keyring) -> None:
    keyring.create("agent:alpha", passphrase="pw")
    path = keyring.directory / "agent:alpha.key.json"
    sealed = seal(Ed25519Signer.generate().seed, "pw").model_dump()
    _edit(path, lambda d: d.update(secret=sealed))
    _corrupt_error(lambda: keyring.signer("agent:alpha", "pw"), path)


def test_an_unreadable_public_file_is_reported_with_its_path(keyring: Keyring) -> None:
    keyring.directory.mkdir(parents=True)
    strange = public_file(keyring.directory, "folder")
    strange.mkdir()
    with pytest.raises(CryptoError) as caught:
        keyring.trusted_public_keys()
    assert caught.value.code == "crypto.key_unreadable"
    assert caught.value.context["file"] == str(strange)


def test_reading_a_missing_public_file_is_key_not_found(tmp_path: Path) -> None:
    with pytest.raises(KeyNotFound):
        read_public_key_file(public_file(tmp_path, "ghost"))
