"""Trusted checkpoints: a signed tree head kept outside the database, and the proof that the
ledger still extends it.

A checkpoint kept elsewhere (a file, a witness) is the outside anchor the database cannot
rewrite: whoever deletes the newest entries deletes the checkpoint rows above them too, but
not a copy they never had. :func:`check_extends` proves, with an RFC 6962 consistency proof
from the checkpoint's size to the ledger's current size, that none of the first
``tree_size`` entries was removed or altered. It proves nothing about entries after it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

from pydantic import ValidationError as PydanticValidationError

from accord.errors import ValidationError, VerificationFailed
from accord.ledger.checkpoint import Checkpoint
from accord.ledger.merkle import verify_consistency
from accord.safe_files import write_text_file

#: A checkpoint file is a few hundred bytes; anything much larger is not one.
MAX_CHECKPOINT_FILE_BYTES = 64 * 1024
_KID = re.compile(r"[0-9a-f]{32}")


#: The key of an exported checkpoint file naming the kid of the service key the exporting
#: installation pins (beside the signed record, not part of it: the file is kept outside the
#: database and the key folder, which is what makes it an anchor).
TRUST_ROOT_FIELD = "trust_root"


def checkpoint_file_text(checkpoint: Checkpoint, trust_root: str | None = None) -> str:
    """The JSON a checkpoint file holds (the signed record with its signature object, and the
    pinned ``trust_root`` kid when given)."""
    data = checkpoint.to_json_dict()
    if trust_root is not None:
        data[TRUST_ROOT_FIELD] = trust_root
    return json.dumps(data, indent=2) + "\n"


def write_checkpoint_file(
    path: Path, checkpoint: Checkpoint, *, force: bool = False, trust_root: str | None = None
) -> None:
    """Write ``checkpoint`` (and the ``trust_root`` kid it is pinned to) to ``path``; an
    existing file is refused unless ``force``."""
    write_text_file(path, checkpoint_file_text(checkpoint, trust_root), force=force)


def read_checkpoint_file(path: Path) -> Checkpoint:
    """Parse a checkpoint file; unusable input is ``ledger.bad_trusted_checkpoint`` (exit 2).

    Only the form is checked here: :func:`check_extends` checks the signature.
    """
    return read_anchor_file(path)[0]


def read_anchor_file(path: Path) -> tuple[Checkpoint, str | None]:
    """:func:`read_checkpoint_file`, and the trust root kid the file pins (``None`` for a
    file written before checkpoints carried it)."""

    def bad(rule: str) -> ValidationError:
        return ValidationError(
            f"{path}: not a usable checkpoint file: {rule}",
            code="ledger.bad_trusted_checkpoint",
            path=str(path),
            rule=rule,
        )

    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_CHECKPOINT_FILE_BYTES + 1)
    except OSError as exc:
        raise bad(f"cannot read it ({exc.strerror})") from exc
    if len(raw) > MAX_CHECKPOINT_FILE_BYTES:
        raise bad(f"larger than {MAX_CHECKPOINT_FILE_BYTES} bytes")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise bad("not JSON") from exc
    if not isinstance(data, dict):
        raise bad("not a JSON object")
    trust_root = data.pop(TRUST_ROOT_FIELD, None)
    if trust_root is not None and (
        not isinstance(trust_root, str) or not _KID.fullmatch(trust_root)
    ):
        raise bad("trust_root is not a kid (32 lowercase hex digits)")
    try:
        checkpoint = Checkpoint.from_json_dict(data)
    except VerificationFailed as exc:
        raise bad("record_type is not ledger_checkpoint") from exc
    except PydanticValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        raise bad(f"{where}: {first['msg']}") from exc
    if checkpoint.tree_size < 1:
        raise bad("tree_size must be at least 1")
    try:
        root = checkpoint.root_bytes()
    except ValueError as exc:
        raise bad("root_hash is not sha256:<64 hex digits>") from exc
    if not checkpoint.root_hash.startswith("sha256:") or len(root) != 32:
        raise bad("root_hash is not sha256:<64 hex digits>")
    return checkpoint, trust_root


def check_truncation(trusted: Checkpoint, size: int) -> None:
    """``ledger.truncated`` naming the missing range when the ledger is shorter than
    ``trusted``'s tree."""
    if size < trusted.tree_size:
        first, last = size + 1, trusted.tree_size
        span = f"entry {first} is" if first == last else f"entries {first}..{last} are"
        raise VerificationFailed(
            f"the trusted checkpoint covers {trusted.tree_size} entries but the ledger has "
            f"{size}: {span} missing",
            code="ledger.truncated",
            seq=first,
            field="seq",
            tree_size=trusted.tree_size,
            missing_from=first,
            missing_to=last,
            check="trusted_checkpoint",
        )


def check_extends(
    trusted: Checkpoint,
    *,
    size: int,
    root: bytes,
    path: list[bytes],
    trusted_keys: Mapping[str, bytes],
) -> None:
    """Prove the ledger of ``size`` entries and Merkle ``root`` extends ``trusted``.

    ``path`` is the RFC 6962 consistency proof from ``trusted.tree_size`` to ``size``.
    Raises ``VerificationFailed``: the checkpoint's own signature (``ledger.bad_signature``,
    ``ledger.untrusted_signer``), a shorter ledger (``ledger.truncated``, naming the missing
    entries), a different history (``ledger.forked``).
    """
    trusted.verify_signature(trusted_keys)
    check_truncation(trusted, size)
    if not verify_consistency(trusted.tree_size, size, trusted.root_bytes(), root, path):
        raise VerificationFailed(
            f"the ledger does not extend the trusted checkpoint at size {trusted.tree_size}: "
            f"its first {trusted.tree_size} entries have another Merkle root than "
            f"{trusted.root_hash} (entries 1..{trusted.tree_size} were altered, replaced "
            "or re-signed)",
            code="ledger.forked",
            seq=trusted.tree_size,
            field="root_hash",
            tree_size=trusted.tree_size,
            check="trusted_checkpoint",
        )
