"""Writing a user's files without destroying any: an existing file is replaced only when the
caller passed ``--force`` for it, and a new file appears whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path

from accord.errors import ValidationError


def refuse_existing(path: Path, *, force: bool) -> None:
    """``files.exists`` when ``path`` is there and the caller did not pass ``--force``."""
    if not force and (path.exists() or path.is_symlink()):
        raise ValidationError(
            f"{path} already exists; pass --force to overwrite it",
            code="files.exists",
            path=str(path),
            rule="an existing file is overwritten only with --force",
        )


def write_text_file(path: Path, text: str, *, force: bool = False) -> None:
    """Write ``text`` to ``path`` (refused when it exists, unless ``force``).

    The text goes to a file beside the destination that is renamed into place, so a reader
    never sees half of it.
    """
    refuse_existing(path, force=force)
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise ValidationError(
            f"cannot write {path}: {exc.strerror}",
            code="files.unwritable",
            path=str(path),
            rule="the folder must exist and be writable",
        ) from exc
