"""The keyring's files: ``<name>-<kid>.pub.json`` (public, for auditors; ``<name>.pub.json`` from
older versions is still read) and ``<name>.key.json`` (secret).

Files are self-checking: a kid must be derived from the key beside it, and a file's name must
match the key name inside. Anything else is reported as ``crypto.key_corrupt`` naming the file.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from pathlib import Path
from typing import Final, Literal, TypeVar

import pydantic
from pydantic import BaseModel, ConfigDict, Field, model_validator

from accord.crypto.ed25519 import PUBLIC_KEY_BYTES as ED25519_PUBLIC_KEY_BYTES
from accord.crypto.ed25519 import SEED_BYTES as ED25519_SEED_BYTES
from accord.crypto.encoding import b64decode
from accord.crypto.kid import ED25519, ML_DSA_65, derive_kid
from accord.crypto.ml_dsa import PUBLIC_KEY_BYTES as ML_DSA_65_PUBLIC_KEY_BYTES
from accord.crypto.ml_dsa import SEED_BYTES as ML_DSA_65_SEED_BYTES
from accord.crypto.sealing import SealedSecret
from accord.errors import CryptoError, KeyNotFound, ValidationError

PUBLIC_KEY_FORMAT: Final = "accord.public-key.v1"
PRIVATE_KEY_FORMAT: Final = "accord.private-key.v1"
PUBLIC_SUFFIX = ".pub.json"
PRIVATE_SUFFIX = ".key.json"
PUBLIC_FILE_MODE = 0o644
PRIVATE_FILE_MODE = 0o600
DIRECTORY_MODE = 0o700

KEY_NAME_RULE = "key names match ^[a-z0-9][a-z0-9_.:@-]{0,63}$"
_KEY_NAME = re.compile(r"[a-z0-9][a-z0-9_.:@-]{0,63}")

_Model = TypeVar("_Model", bound=BaseModel)


def validate_key_name(name: str) -> str:
    """Return ``name`` if it is a valid key name; else raise ``ValidationError`` naming the rule."""
    if not isinstance(name, str) or _KEY_NAME.fullmatch(name) is None:
        raise ValidationError(
            f"invalid key name {name!r}",
            code="keyring.invalid_name",
            field="name",
            rule=KEY_NAME_RULE,
        )
    return name


class PublicKeyFile(BaseModel):
    """Contents of ``<name>.pub.json``: enough for anyone to verify the key's signatures."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["accord.public-key.v1"] = PUBLIC_KEY_FORMAT
    name: str
    alg: Literal["ed25519"] = ED25519
    kid: str
    public_key_b64: str
    pq_alg: Literal["ml-dsa-65"] | None = None
    pq_kid: str | None = None
    pq_public_key_b64: str | None = None
    created_at: str

    @model_validator(mode="after")
    def _keys_match_kids(self) -> PublicKeyFile:
        if _KEY_NAME.fullmatch(self.name) is None:
            raise ValueError(KEY_NAME_RULE)
        if derive_kid(ED25519, _decode(self.public_key_b64, ED25519_PUBLIC_KEY_BYTES)) != self.kid:
            raise ValueError("kid must be derived from public_key_b64")
        if self.pq_alg is None and self.pq_kid is None and self.pq_public_key_b64 is None:
            return self
        if self.pq_alg is None or self.pq_kid is None or self.pq_public_key_b64 is None:
            raise ValueError("pq_alg, pq_kid and pq_public_key_b64 go together")
        pq_key = _decode(self.pq_public_key_b64, ML_DSA_65_PUBLIC_KEY_BYTES)
        if derive_kid(ML_DSA_65, pq_key) != self.pq_kid:
            raise ValueError("pq_kid must be derived from pq_public_key_b64")
        return self

    @property
    def public_key(self) -> bytes:
        """The raw Ed25519 public key."""
        return b64decode(self.public_key_b64)

    @property
    def pq_public_key(self) -> bytes | None:
        """The raw ML-DSA-65 public key, if the key has one."""
        return None if self.pq_public_key_b64 is None else b64decode(self.pq_public_key_b64)


class PlainSeeds(BaseModel):
    """Seeds stored in the clear (the file's 0600 mode is their only protection)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    protection: Literal["none"] = "none"
    seed_b64: str
    pq_seed_b64: str | None = None

    @model_validator(mode="after")
    def _seed_lengths(self) -> PlainSeeds:
        _decode(self.seed_b64, ED25519_SEED_BYTES)
        if self.pq_seed_b64 is not None:
            _decode(self.pq_seed_b64, ML_DSA_65_SEED_BYTES)
        return self


class PrivateKeyFile(BaseModel):
    """Contents of ``<name>.key.json``: the public part and the (possibly sealed) seeds."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["accord.private-key.v1"] = PRIVATE_KEY_FORMAT
    public: PublicKeyFile
    secret: PlainSeeds | SealedSecret = Field(discriminator="protection")

    @property
    def encrypted(self) -> bool:
        """Whether the seeds are sealed under a passphrase."""
        return isinstance(self.secret, SealedSecret)


def public_path(directory: Path, name: str, kid: str) -> Path:
    """Where the public file of key ``name`` lives: ``<name>-<kid>.pub.json``, so several
    hosts' keys of one name (each host's ``service``) share an auditor's folder."""
    return directory / f"{validate_key_name(name)}-{kid}{PUBLIC_SUFFIX}"


def legacy_public_path(directory: Path, name: str) -> Path:
    """Where keys made before kids were in file names kept their public file (still read)."""
    return directory / f"{validate_key_name(name)}{PUBLIC_SUFFIX}"


def private_path(directory: Path, name: str) -> Path:
    """Where the private file of key ``name`` lives."""
    return directory / f"{validate_key_name(name)}{PRIVATE_SUFFIX}"


def read_public_key_file(path: Path) -> PublicKeyFile:
    """Read and check a ``.pub.json`` file."""
    model = _read(path, PublicKeyFile)
    if path.name != f"{model.name}-{model.kid}{PUBLIC_SUFFIX}":
        _check_file_name(path, model.name, PUBLIC_SUFFIX)
    return model


def read_private_key_file(path: Path) -> PrivateKeyFile:
    """Read and check a ``.key.json`` file (sealed seeds stay sealed)."""
    model = _read(path, PrivateKeyFile)
    _check_file_name(path, model.public.name, PRIVATE_SUFFIX)
    return model


def write_key_file(path: Path, model: BaseModel, mode: int) -> None:
    """Write ``model`` as JSON to ``path`` atomically (temporary file, fsync, ``os.replace``)."""
    data = (model.model_dump_json(indent=2) + "\n").encode("utf-8")
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            os.fchmod(handle.fileno(), mode)  # the umask must not widen or narrow the mode
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    _fsync_directory(path.parent)


def corrupt(path: Path, rule: str) -> CryptoError:
    """The error for a key file that breaks ``rule``."""
    return CryptoError(
        f"key file {path} is corrupt: {rule}", code="crypto.key_corrupt", file=str(path), rule=rule
    )


def _read(path: Path, model: type[_Model]) -> _Model:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise KeyNotFound(f"no key file {path}", file=str(path)) from None
    except OSError as exc:
        raise CryptoError(
            f"cannot read key file {path}: {exc.strerror}",
            code="crypto.key_unreadable",
            file=str(path),
            rule="key files must be readable by the keyring's owner",
        ) from exc
    try:
        return model.model_validate_json(data)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        location = ".".join(str(part) for part in first["loc"]) or "$"
        raise corrupt(path, f"{location}: {first['msg']}") from None


def _check_file_name(path: Path, name: str, suffix: str) -> None:
    if path.name != name + suffix:
        raise corrupt(path, f"the file of key {name!r} is named {name}{suffix}")


def _decode(text: str, length: int) -> bytes:
    raw = b64decode(text)  # ValueError propagates into pydantic as a validation error
    if len(raw) != length:
        raise ValueError(f"expected {length} bytes, found {len(raw)}")
    return raw


def _fsync_directory(directory: Path) -> None:
    """Make the rename durable where the platform allows it."""
    with contextlib.suppress(OSError):
        descriptor = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
