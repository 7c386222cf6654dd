"""Refuse key material others could read or replace.

A key folder writable by group or other lets anyone drop in or swap a key file; a private key
readable by them is no longer private. Both are refused with ``crypto.unsafe_permissions``
naming the path and its mode, unless the deployment opts out (``keys.allow_unsafe_permissions``
/ ``--allow-unsafe-key-permissions``), which turns the refusal into a logged warning.
"""

from __future__ import annotations

import logging
import stat
from pathlib import Path

from accord.errors import CryptoError

UNSAFE_DIRECTORY_BITS = 0o022
"""Group- or other-writable."""
UNSAFE_PRIVATE_BITS = 0o077
"""Any access for group or other."""

log = logging.getLogger("accord.crypto")


def check_directory(directory: Path, *, allow_unsafe: bool = False) -> None:
    """Refuse a key folder that group or other may write to."""
    _check(directory, UNSAFE_DIRECTORY_BITS, "key folder writable by group or other", allow_unsafe)


def check_private_file(path: Path, *, allow_unsafe: bool = False) -> None:
    """Refuse a private key file that group or other may access."""
    _check(path, UNSAFE_PRIVATE_BITS, "private key accessible to group or other", allow_unsafe)


def _check(path: Path, bits: int, problem: str, allow_unsafe: bool) -> None:
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return  # absent: whoever reads it reports that
    if not mode & bits:
        return
    if allow_unsafe:
        log.warning("unsafe key permissions: %s %s has mode %04o", problem, path, mode)
        return
    raise CryptoError(
        f"{problem}: {path} has mode {mode:04o} (chmod {'700' if bits == 0o022 else '600'} it, "
        "or opt out with keys.allow_unsafe_permissions / --allow-unsafe-key-permissions)",
        code="crypto.unsafe_permissions",
        path=str(path),
        mode=f"{mode:04o}",
        rule=f"no {oct(bits)} permission bits",
    )
