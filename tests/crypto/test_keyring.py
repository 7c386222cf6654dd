"""The keyring makes, stores, protects and hands out named keys, and never overwrites one."""

from __future__ import annotations

import json
import os
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from accord.clock import FrozenClock
from accord.crypto import (
    CryptoError,
    Ed25519Signer,
    KeyInfo,
    KeyNotFound,
    Keyring,
    load_public_keys,
    sign_record,
    verify_ed25519,
    verify_ml_dsa_65,
    verify_record,
)
from accord.crypto.keyring import signer_from_file
from accord.errors import ValidationError

from .conftest import public_file


@pytest.fixture
def directory(tmp_path: Path) -> Path:
    return tmp_path / "keys"


@pytest.fixture
def keyring(directory: Path) -> Keyring:
    return Keyring(directory, FrozenClock())


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def permissive_umask() -> Iterator[None]:
    previous = os.umask(0)
    try:
        yield
    finally:
        os.umask(previous)


def test_a_new_key_is_described_by_its_public_facts(keyring: Keyring) -> None:
    info = keyring.create("agent:alpha")
    assert isinstance(info, KeyInfo)
    assert info.name == "agent:alpha"
    assert info.alg == "ed25519"
    assert info.created_at == "2026-01-01T00:00:00.000000Z"
    assert info.encrypted is False
    assert info.pq_kid is None
    assert info.pq_public_key_b64 is None
    assert keyring.info("agent:alpha") == info


@pytest.mark.usefixtures("permissive_umask")
def test_files_get_0600_and_0644_in_a_0700_directory_whatever_the_umask(
    keyring: Keyring, directory: Path
) -> None:
    keyring.create("arbitrator")
    assert _mode(directory) == 0o700
    assert _mode(directory / "arbitrator.key.json") == 0o600
    assert _mode(public_file(directory, "arbitrator")) == 0o644


def test_a_strict_umask_does_not_hide_the_public_file(keyring: Keyring, directory: Path) -> None:
    previous = os.umask(0o077)
    try:
        keyring.create("reviewer")
    finally:
        os.umask(previous)
    assert _mode(public_file(directory, "reviewer")) == 0o644


def test_no_temporary_files_are_left_behind(keyring: Keyring, directory: Path) -> None:
    info = keyring.create("service")
    assert sorted(p.name for p in directory.iterdir()) == [
        f"service-{info.kid}.pub.json",
        "service.key.json",
    ]


def test_the_signer_matches_the_key_info_and_its_signatures_verify(keyring: Keyring) -> None:
    info = keyring.create("agent:beta")
    signer = keyring.signer("agent:beta")
    assert signer.kid == info.kid
    verify_ed25519(keyring.trusted_public_keys()[info.kid], b"m", signer.sign(b"m"))


def test_a_key_with_a_post_quantum_half_hands_out_both_signers(
    keyring: Keyring, directory: Path
) -> None:
    info = keyring.create("service", with_pq=True)
    pq = keyring.pq_signer("service")
    assert info.pq_kid == pq.kid
    verify_ml_dsa_65(pq.public_key, b"m", pq.sign(b"m"))
    public = json.loads((public_file(directory, "service")).read_text())
    assert public["pq_kid"] == pq.kid
    assert public["pq_alg"] == "ml-dsa-65"


def test_asking_for_a_pq_signer_of_a_classical_key_is_key_not_found(keyring: Keyring) -> None:
    keyring.create("agent:gamma")
    with pytest.raises(KeyNotFound):
        keyring.pq_signer("agent:gamma")


def test_an_existing_key_is_never_overwritten(keyring: Keyring, directory: Path) -> None:
    first = keyring.create("agent:alpha")
    with pytest.raises(CryptoError) as caught:
        keyring.create("agent:alpha")
    assert caught.value.code == "crypto.key_exists"
    assert keyring.info("agent:alpha") == first


def test_a_name_taken_by_a_public_file_alone_is_not_overwritten(
    keyring: Keyring, directory: Path
) -> None:
    keyring.create("agent:alpha")
    (directory / "agent:alpha.key.json").unlink()
    with pytest.raises(CryptoError) as caught:
        keyring.create("agent:alpha")
    assert caught.value.code == "crypto.key_exists"
    assert caught.value.context["file"] == str(public_file(directory, "agent:alpha"))


def test_get_or_create_returns_the_existing_key_or_makes_one(keyring: Keyring) -> None:
    made = keyring.get_or_create("service", with_pq=True)
    assert keyring.get_or_create("service") == made
    assert made.pq_kid is not None


def test_list_gives_every_key_sorted_by_name(keyring: Keyring) -> None:
    assert keyring.list() == []
    for name in ["reviewer", "agent:beta", "arbitrator", "agent:alpha"]:
        keyring.create(name)
    assert [info.name for info in keyring.list()] == [
        "agent:alpha",
        "agent:beta",
        "arbitrator",
        "reviewer",
    ]


def test_unknown_names_are_key_not_found(keyring: Keyring) -> None:
    with pytest.raises(KeyNotFound) as caught:
        keyring.info("nobody")
    assert caught.value.context["name"] == "nobody"
    with pytest.raises(KeyNotFound):
        keyring.signer("nobody")


def test_a_sealed_key_opens_with_its_passphrase_only(keyring: Keyring, directory: Path) -> None:
    info = keyring.create("arbitrator", passphrase="s3cret", with_pq=True)
    assert info.encrypted
    text = (directory / "arbitrator.key.json").read_text()
    assert "seed_b64" not in text
    assert keyring.signer("arbitrator", "s3cret").kid == info.kid
    assert keyring.pq_signer("arbitrator", "s3cret").kid == info.pq_kid
    with pytest.raises(CryptoError) as wrong:
        keyring.signer("arbitrator", "guess")
    assert wrong.value.code == "crypto.bad_passphrase"
    assert wrong.value.context["file"].endswith("arbitrator.key.json")
    with pytest.raises(CryptoError) as missing:
        keyring.signer("arbitrator")
    assert missing.value.code == "crypto.passphrase_required"


def test_a_key_reads_as_unlocked_only_once_signed_with_and_while_its_file_is_unchanged(
    keyring: Keyring, directory: Path
) -> None:
    keyring.create("reviewer", passphrase="s3cret")
    assert not keyring.is_unlocked("reviewer", "s3cret")
    keyring.signer("reviewer", "s3cret")
    assert keyring.is_unlocked("reviewer", "s3cret")
    assert not keyring.is_unlocked("reviewer", "other")  # another passphrase: read again
    assert not keyring.is_unlocked("nobody")
    path = directory / "reviewer.key.json"
    os.utime(path, (1, 1))  # the file's stat changed: it is read and checked again
    assert not keyring.is_unlocked("reviewer", "s3cret")


def test_the_unlocked_signer_is_the_signers_own_and_none_once_its_file_changed(
    keyring: Keyring, directory: Path
) -> None:
    keyring.create("reviewer", passphrase="s3cret")
    assert keyring.unlocked_signer("reviewer", "s3cret") is None  # never read yet
    signer = keyring.signer("reviewer", "s3cret")
    assert keyring.unlocked_signer("reviewer", "s3cret") is signer
    assert keyring.unlocked_signer("reviewer", "other") is None
    os.utime(directory / "reviewer.key.json", (1, 1))
    assert keyring.unlocked_signer("reviewer", "s3cret") is None


def test_an_empty_passphrase_is_refused(keyring: Keyring) -> None:
    with pytest.raises(ValidationError) as caught:
        keyring.create("agent:alpha", passphrase="")
    assert caught.value.context["field"] == "passphrase"


@pytest.mark.parametrize(
    "name",
    ["", "Alice", "-agent", "_x", "a/b", "../etc", "a" * 65, "agent\n", "two words", "é"],
)
def test_invalid_names_are_refused_naming_the_rule(keyring: Keyring, name: str) -> None:
    with pytest.raises(ValidationError) as caught:
        keyring.create(name)
    assert caught.value.code == "keyring.invalid_name"
    assert caught.value.context["field"] == "name"
    assert "[a-z0-9]" in caught.value.context["rule"]


@pytest.mark.parametrize("name", ["a", "agent:alpha@acme.org", "svc_1.accord-x", "9" * 64])
def test_valid_names_are_accepted(keyring: Keyring, name: str) -> None:
    assert keyring.create(name).name == name


def test_an_auditor_verifies_with_only_the_public_files(
    keyring: Keyring, directory: Path, tmp_path: Path
) -> None:
    keyring.create("agent:alpha")
    keyring.create("arbitrator", passphrase="pw")
    record = {"dispute_id": "d-1", "status": "resolved"}
    signature = sign_record(record, keyring.signer("agent:alpha"))
    audit = tmp_path / "audit"
    audit.mkdir()
    for public in directory.glob("*.pub.json"):
        shutil.copy(public, audit)
    trusted = load_public_keys(audit)
    assert set(trusted) == {info.kid for info in keyring.list()}
    verify_record(record, signature, trusted[signature.kid])
    assert Keyring(audit, FrozenClock()).list() == []


def test_trusted_public_keys_ignore_private_and_other_files(
    keyring: Keyring, directory: Path
) -> None:
    info = keyring.create("agent:alpha")
    (directory / "notes.txt").write_text("not a key")
    (directory / ".agent:alpha.pub.json.0123.tmp").write_text("{")
    assert keyring.trusted_public_keys() == {
        info.kid: Ed25519Signer.from_seed(keyring.signer("agent:alpha").seed).public_key
    }


def test_a_missing_directory_holds_no_public_keys(tmp_path: Path) -> None:
    assert load_public_keys(tmp_path / "absent") == {}


def test_a_failed_write_leaves_neither_a_half_made_key_nor_temporary_files(
    keyring: Keyring, directory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_replace = os.replace
    calls: list[str] = []

    def replace_then_fail(source: str | Path, target: str | Path) -> None:
        calls.append(str(target))
        if str(target).endswith(".pub.json"):
            raise OSError(28, "No space left on device")
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", replace_then_fail)
    with pytest.raises(OSError, match="No space"):
        keyring.create("agent:alpha")
    assert len(calls) == 2
    assert list(directory.iterdir()) == []
    monkeypatch.undo()
    assert keyring.create("agent:alpha").name == "agent:alpha"


def test_a_public_file_under_its_pre_kid_name_is_still_read(
    keyring: Keyring, directory: Path
) -> None:
    info = keyring.create("service")
    current = public_file(directory, "service")
    assert current.name == f"service-{info.kid}.pub.json"
    current.rename(directory / "service.pub.json")
    assert set(keyring.trusted_public_keys()) == {info.kid}
    (directory / "service.key.json").unlink()
    with pytest.raises(CryptoError) as taken:
        keyring.create("service")  # the legacy file still holds the name
    assert taken.value.context["file"] == str(directory / "service.pub.json")


def test_a_key_file_read_by_path_needs_safe_permissions(keyring: Keyring, directory: Path) -> None:
    info = keyring.create("reviewer", passphrase="pw")
    path = directory / "reviewer.key.json"
    assert signer_from_file(path, "pw").kid == info.kid
    os.chmod(path, 0o640)
    with pytest.raises(CryptoError) as refused:
        signer_from_file(path, "pw")
    assert (refused.value.code, refused.value.context["mode"]) == (
        "crypto.unsafe_permissions",
        "0640",
    )
    assert signer_from_file(path, "pw", allow_unsafe_permissions=True).kid == info.kid


def test_a_key_handed_out_again_is_checked_again_once_its_file_changes_mode(
    keyring: Keyring, directory: Path
) -> None:
    keyring.create("svc")
    first = keyring.signer("svc")
    assert keyring.signer("svc").kid == first.kid  # unchanged: the same key
    private = next(directory.glob("svc*.key.json"))
    private.chmod(0o644)
    with pytest.raises(CryptoError, match="private key accessible to group or other"):
        keyring.signer("svc")


def test_a_key_file_replaced_under_the_same_name_hands_out_the_new_key(
    keyring: Keyring, tmp_path: Path, directory: Path
) -> None:
    keyring.create("svc")
    old = keyring.signer("svc")
    other = Keyring(tmp_path / "other", FrozenClock())
    other.create("svc")
    replacement = next((tmp_path / "other").glob("svc*.key.json"))
    private = next(directory.glob("svc*.key.json"))
    shutil.copy2(replacement, private)
    assert keyring.signer("svc").kid == other.signer("svc").kid != old.kid


def test_a_sealed_key_handed_out_once_still_needs_its_passphrase(keyring: Keyring) -> None:
    keyring.create("sealed", passphrase="right horse")
    keyring.signer("sealed", passphrase="right horse")
    with pytest.raises(CryptoError):
        keyring.signer("sealed", passphrase="wrong")
    with pytest.raises(CryptoError):
        keyring.signer("sealed")
