"""Witnesses: folders outside the database that receive every new signed checkpoint.

Each checkpoint is written, once its transaction has committed, as its own file
``checkpoint-<tree_size>.json`` in every configured witness folder; a file already there is
never overwritten. Keep a witness on another disk or machine (a mounted share, a synced
folder): any file in it is a trusted checkpoint for ``accord verify --trusted-checkpoint``.

A witness that cannot be written is logged (``ledger.witness_failed``) and does not undo the
commit: the entries are already durable, and the next checkpoint is offered again.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from accord.config_errors import config_error, key_path
from accord.errors import AccordError
from accord.ledger.anchor import checkpoint_file_text
from accord.ledger.checkpoint import Checkpoint
from accord.log import get_logger
from accord.safe_files import write_text_file

log = get_logger("accord.ledger")


def witness_file(directory: Path, tree_size: int) -> Path:
    return directory / f"checkpoint-{tree_size:012d}.json"


class FileWitnesses:
    """Publishes checkpoints to witness folders (call it with each new checkpoint)."""

    def __init__(self, directories: Sequence[Path]) -> None:
        self.directories = list(directories)

    def __call__(self, checkpoint: Checkpoint) -> None:
        text = checkpoint_file_text(checkpoint)
        for directory in self.directories:
            path = witness_file(directory, checkpoint.tree_size)
            try:
                if path.exists() and path.read_text(encoding="utf-8") == text:
                    continue  # published before (the same signed checkpoint)
                directory.mkdir(parents=True, exist_ok=True)
                write_text_file(path, text)
            except (OSError, AccordError) as exc:
                log.error(
                    "ledger.witness_failed",
                    witness=str(directory),
                    tree_size=checkpoint.tree_size,
                    error=str(exc),
                )


def witnesses_from_settings(
    entries: Sequence[str], *, base_dir: Path, source: str
) -> FileWitnesses | None:
    """The configured ``ledger.witnesses`` (folders, relative to the config file's folder).

    URL witnesses are not built: ``config.not_built`` names the entry.
    """
    directories = []
    for index, entry in enumerate(entries):
        if "://" in entry:
            raise config_error(
                source,
                key_path("ledger", ["witnesses", index]),
                "URL witnesses are not built yet; give a folder path",
                code="config.not_built",
            )
        directories.append((base_dir / Path(entry).expanduser()).resolve())
    return FileWitnesses(directories) if directories else None
