"""A directory of named signing keys: one per signer (agent, arbitrator, reviewer, the service).

Each key is two files. ``<name>.key.json`` (0600, in a 0700 directory) holds the seeds, sealed
under a passphrase if one was given. ``<name>.pub.json`` (0644) holds only public keys and kids,
so an auditor can verify signatures with nothing but the ``.pub.json`` files.
"""

from __future__ import annotations

import builtins
import os
import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from accord.clock import Clock, isoformat
from accord.crypto.ed25519 import SEED_BYTES as ED25519_SEED_BYTES
from accord.crypto.ed25519 import Ed25519Signer
from accord.crypto.encoding import b64decode, b64encode
from accord.crypto.key_files import (
    DIRECTORY_MODE,
    PRIVATE_FILE_MODE,
    PRIVATE_SUFFIX,
    PUBLIC_FILE_MODE,
    PUBLIC_SUFFIX,
    PlainSeeds,
    PrivateKeyFile,
    PublicKeyFile,
    corrupt,
    legacy_public_path,
    private_path,
    public_path,
    read_private_key_file,
    read_public_key_file,
    write_key_file,
)
from accord.crypto.key_permissions import check_directory, check_private_file
from accord.crypto.kid import ML_DSA_65
from accord.crypto.ml_dsa import SEED_BYTES as ML_DSA_65_SEED_BYTES
from accord.crypto.ml_dsa import MlDsa65Signer
from accord.crypto.sealing import SealedSecret, seal, unseal
from accord.errors import CryptoError, KeyNotFound, ValidationError


class KeyInfo(BaseModel):
    """What is public about a key in the keyring, and whether its seeds are sealed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    alg: str
    kid: str
    public_key_b64: str
    pq_kid: str | None
    pq_public_key_b64: str | None
    encrypted: bool
    created_at: str


class Keyring:
    """Named keys in ``directory``; ``clock`` stamps ``created_at``.

    Unlocking a sealed key runs Argon2id (tens of milliseconds): keep the signer you get.
    """

    def __init__(
        self, directory: Path, clock: Clock, *, allow_unsafe_permissions: bool = False
    ) -> None:
        """``allow_unsafe_permissions`` only warns about a folder writable by group/other or a
        private key they can read, instead of refusing (``crypto.unsafe_permissions``)."""
        self._directory = Path(directory)
        refuse_file_as_folder(self._directory)
        self._clock = clock
        self._allow_unsafe = allow_unsafe_permissions
        self._unlocked: dict[str, tuple[_Stamp, tuple[Ed25519Signer, MlDsa65Signer | None]]] = {}

    @property
    def directory(self) -> Path:
        """The keyring's directory."""
        return self._directory

    def create(self, name: str, *, passphrase: str | None = None, with_pq: bool = False) -> KeyInfo:
        """Make a new key called ``name``; never overwrites (``crypto.key_exists``)."""
        private_file = private_path(self._directory, name)
        if passphrase is not None and not passphrase:
            raise ValidationError(
                "an empty passphrase protects nothing",
                code="keyring.invalid_passphrase",
                field="passphrase",
                rule="a passphrase, when given, is non-empty",
            )
        for existing in (private_file, *self._public_files(name)):
            if existing.exists():
                raise CryptoError(
                    f"a key named {name!r} already exists",
                    code="crypto.key_exists",
                    name=name,
                    file=str(existing),
                    rule="keys are never overwritten",
                )
        classical = Ed25519Signer.generate()
        pq = MlDsa65Signer.generate() if with_pq else None
        public = PublicKeyFile(
            name=name,
            kid=classical.kid,
            public_key_b64=b64encode(classical.public_key),
            pq_alg=None if pq is None else ML_DSA_65,
            pq_kid=None if pq is None else pq.kid,
            pq_public_key_b64=None if pq is None else b64encode(pq.public_key),
            created_at=isoformat(self._clock.now()),
        )
        secret: PlainSeeds | SealedSecret
        if passphrase is None:
            secret = PlainSeeds(
                seed_b64=b64encode(classical.seed),
                pq_seed_b64=None if pq is None else b64encode(pq.seed),
            )
        else:
            secret = seal(classical.seed + (b"" if pq is None else pq.seed), passphrase)
        key_file = PrivateKeyFile(public=public, secret=secret)
        self._ensure_directory()
        check_directory(self._directory, allow_unsafe=self._allow_unsafe)
        write_key_file(private_file, key_file, PRIVATE_FILE_MODE)
        try:
            write_key_file(public_path(self._directory, name, public.kid), public, PUBLIC_FILE_MODE)
        except BaseException:
            private_file.unlink(missing_ok=True)  # no half-made key
            raise
        return _key_info(key_file)

    def get_or_create(
        self, name: str, *, passphrase: str | None = None, with_pq: bool = False
    ) -> KeyInfo:
        """The key called ``name``, made first if the keyring has none by that name.

        ``passphrase`` and ``with_pq`` apply only when the key is made here.
        """
        if private_path(self._directory, name).exists():
            return self.info(name)
        return self.create(name, passphrase=passphrase, with_pq=with_pq)

    def info(self, name: str) -> KeyInfo:
        """Public facts about key ``name`` (no passphrase needed); ``KeyNotFound`` if absent."""
        return _key_info(self._read_private(name)[1])

    def signer(self, name: str, passphrase: str | None = None) -> Ed25519Signer:
        """The Ed25519 signer of key ``name``."""
        return self._unlock(name, passphrase)[0]

    def is_unlocked(self, name: str, passphrase: str | None = None) -> bool:
        """Whether :meth:`signer` would answer from the keys it keeps unlocked, without
        reading the file or unsealing it (an unseal runs argon2: a noticeable pause)."""
        return self.unlocked_signer(name, passphrase) is not None

    def unlocked_signer(self, name: str, passphrase: str | None = None) -> Ed25519Signer | None:
        """What :meth:`signer` answers when it would answer from the keys it keeps unlocked
        (the files unchanged since), else None: the same checks, without reading the file or
        unsealing it."""
        kept = self._kept(name, self._stamp(name, passphrase))
        return None if kept is None else kept[0]

    def pq_signer(self, name: str, passphrase: str | None = None) -> MlDsa65Signer:
        """The ML-DSA-65 signer of key ``name``; ``KeyNotFound`` if it was made without one."""
        pq = self._unlock(name, passphrase)[1]
        if pq is None:
            raise KeyNotFound(
                f"key {name!r} has no ML-DSA-65 part",
                name=name,
                alg=ML_DSA_65,
                rule="create the key with with_pq=True to sign post-quantum",
            )
        return pq

    def trusted_public_keys(self) -> dict[str, bytes]:
        """Ed25519 kid → raw public key, from every ``*.pub.json`` in the directory (the
        candidates a verifier may pin; ``verify`` trusts only the pinned one and its registry)."""
        return load_public_keys(self._directory, allow_unsafe_permissions=self._allow_unsafe)

    def list(self) -> builtins.list[KeyInfo]:
        """Every key this keyring can sign with, sorted by name."""
        if not self._directory.is_dir():
            return []
        infos = [
            _key_info(read_private_key_file(path))
            for path in self._directory.glob(f"*{PRIVATE_SUFFIX}")
        ]
        return sorted(infos, key=lambda info: info.name)

    def _read_private(self, name: str) -> tuple[Path, PrivateKeyFile]:
        path = private_path(self._directory, name)
        if not path.is_file():
            raise KeyNotFound(
                f"no key named {name!r} in the key folder {self._directory} (no {path.name})",
                name=name,
                file=str(path),
                directory=str(self._directory),
            )
        return path, read_private_key_file(path)

    def _unlock(
        self, name: str, passphrase: str | None
    ) -> tuple[Ed25519Signer, MlDsa65Signer | None]:
        """The key's signers. A service signs with the same few keys on every request, so an
        unlocked key is kept while the folder's and the file's ``stat`` (mode, owner, inode,
        size, modification time) and the passphrase stay the same: then the permission checks
        and the file would answer as they did. Any change reads and checks it all again."""
        stamp = self._stamp(name, passphrase)
        kept = self._kept(name, stamp)
        if kept is not None:
            return kept
        path = private_path(self._directory, name)
        check_directory(self._directory, allow_unsafe=self._allow_unsafe)
        check_private_file(path, allow_unsafe=self._allow_unsafe)
        path, key_file = self._read_private(name)
        signers = _unlock_file(path, key_file, passphrase)
        self._unlocked[name] = (stamp, signers)
        return signers

    def _stamp(self, name: str, passphrase: str | None) -> _Stamp:
        path = private_path(self._directory, name)
        return (_stat_stamp(self._directory), _stat_stamp(path), passphrase)

    def _kept(self, name: str, stamp: _Stamp) -> tuple[Ed25519Signer, MlDsa65Signer | None] | None:
        """The unlocked signers kept for ``name`` while ``stamp`` is what they were read at."""
        cached = self._unlocked.get(name)
        if cached is not None and cached[0] == stamp and None not in stamp[:2]:
            return cached[1]
        return None

    def _public_files(self, name: str) -> builtins.list[Path]:
        """The public files of key ``name``: ``<name>-<kid>.pub.json`` and the legacy name."""
        pattern = re.compile(re.escape(name) + r"-[0-9a-f]{32}" + re.escape(PUBLIC_SUFFIX))
        found = [legacy_public_path(self._directory, name)]
        if self._directory.is_dir():
            found += [p for p in self._directory.iterdir() if pattern.fullmatch(p.name)]
        return found

    def _ensure_directory(self) -> None:
        if not self._directory.is_dir():
            self._directory.mkdir(mode=DIRECTORY_MODE, parents=True, exist_ok=True)
            os.chmod(self._directory, DIRECTORY_MODE)


def signer_from_file(
    path: Path, passphrase: str | None = None, *, allow_unsafe_permissions: bool = False
) -> Ed25519Signer:
    """The Ed25519 signer of one private key file (e.g. a reviewer's ``--key FILE``)."""
    path = Path(path)
    check_directory(path.parent, allow_unsafe=allow_unsafe_permissions)
    check_private_file(path, allow_unsafe=allow_unsafe_permissions)
    return _unlock_file(path, read_private_key_file(path), passphrase)[0]


def _unlock_file(
    path: Path, key_file: PrivateKeyFile, passphrase: str | None
) -> tuple[Ed25519Signer, MlDsa65Signer | None]:
    name = key_file.public.name
    secret = key_file.secret
    if isinstance(secret, PlainSeeds):
        seed = b64decode(secret.seed_b64)
        pq_seed = None if secret.pq_seed_b64 is None else b64decode(secret.pq_seed_b64)
    else:
        if passphrase is None:
            raise CryptoError(
                f"key {name!r} is sealed: a passphrase is required",
                code="crypto.passphrase_required",
                name=name,
                file=str(path),
                rule="sealed keys open only with their passphrase",
            )
        seeds = _unseal_in(path, secret, passphrase)
        if len(seeds) not in (ED25519_SEED_BYTES, ED25519_SEED_BYTES + ML_DSA_65_SEED_BYTES):
            raise corrupt(path, "sealed seeds are 32 bytes, or 64 with an ML-DSA-65 seed")
        seed, pq_seed = seeds[:ED25519_SEED_BYTES], seeds[ED25519_SEED_BYTES:] or None
    return _signers(path, key_file.public, seed, pq_seed)


def refuse_file_as_folder(directory: Path, field: str = "keys.directory") -> None:
    """``crypto.key_folder_not_a_folder`` when ``directory``, or the nearest part of it that
    exists, is a file (or anything else that is not a folder): never a traceback later."""
    for part in (directory, *directory.parents):
        try:
            if not part.exists():
                continue
        except OSError:  # e.g. a name too long: the first use reports it
            return
        if part.is_dir():
            return
        raise CryptoError(
            f"the key folder {directory} is not a folder: {part} is a file",
            code="crypto.key_folder_not_a_folder",
            field=field,
            rule="the key folder is a directory (or does not exist yet)",
            path=str(part),
        )


def load_public_keys(
    directory: Path, *, allow_unsafe_permissions: bool = False
) -> dict[str, bytes]:
    """Ed25519 kid → raw public key from the ``*.pub.json`` files of ``directory`` only.

    A missing directory holds no keys. A malformed or inconsistent file raises
    ``crypto.key_corrupt`` naming it; a folder others may write to, ``crypto.unsafe_permissions``.
    """
    directory = Path(directory)
    refuse_file_as_folder(directory)
    if not directory.is_dir():
        return {}
    check_directory(directory, allow_unsafe=allow_unsafe_permissions)
    keys: dict[str, bytes] = {}
    for path in sorted(directory.glob(f"*{PUBLIC_SUFFIX}")):
        public = read_public_key_file(path)
        keys[public.kid] = public.public_key
    return keys


def _key_info(key_file: PrivateKeyFile) -> KeyInfo:
    public = key_file.public
    return KeyInfo(
        name=public.name,
        alg=public.alg,
        kid=public.kid,
        public_key_b64=public.public_key_b64,
        pq_kid=public.pq_kid,
        pq_public_key_b64=public.pq_public_key_b64,
        encrypted=key_file.encrypted,
        created_at=public.created_at,
    )


def _unseal_in(path: Path, secret: SealedSecret, passphrase: str) -> bytes:
    try:
        return unseal(secret, passphrase)
    except CryptoError as exc:
        raise type(exc)(exc.message, code=exc.code, **{**exc.context, "file": str(path)}) from None


def _signers(
    path: Path, public: PublicKeyFile, seed: bytes, pq_seed: bytes | None
) -> tuple[Ed25519Signer, MlDsa65Signer | None]:
    """Signers from the seeds, once they are shown to yield the recorded public keys."""
    classical = Ed25519Signer.from_seed(seed)
    if classical.public_key != public.public_key:
        raise corrupt(path, "the Ed25519 seed does not yield the recorded public key")
    if (pq_seed is None) != (public.pq_public_key is None):
        raise corrupt(path, "an ML-DSA-65 seed is stored exactly when its public key is")
    if pq_seed is None:
        return classical, None
    pq = MlDsa65Signer.from_seed(pq_seed)
    if pq.public_key != public.pq_public_key:
        raise corrupt(path, "the ML-DSA-65 seed does not yield the recorded public key")
    return classical, pq


def role_key_name(role: str, principal_id: str) -> str:
    """The default key name of ``principal_id``'s ``role`` key (``reviewer-human:alice``):
    what ``accord keys new --role reviewer --principal human:alice`` makes and what the
    service looks up to sign that reviewer's decisions."""
    return f"{role}-{principal_id}".lower()


_FileStamp = tuple[int, int, int, int, int, int]
_Stamp = tuple[_FileStamp | None, _FileStamp | None, str | None]


def _stat_stamp(path: Path) -> _FileStamp | None:
    """What a cached unlocked key depends on in ``path``'s ``stat``; None when absent."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mode, st.st_uid, st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns)
