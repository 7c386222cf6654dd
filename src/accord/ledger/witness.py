"""Witnesses: folders and URLs outside the database that receive every new signed checkpoint.

Each checkpoint is written, once its transaction has committed, as its own file
``checkpoint-<tree_size>.json`` in every configured witness folder (a file already there is
never overwritten), and POSTed as the same JSON to every witness URL. Keep a witness on another
disk or machine (a mounted share, a synced folder, a service of your own): any checkpoint it
holds is a trusted checkpoint for ``accord verify --trusted-checkpoint``. A checkpoint is public
and signed, so nothing secret is sent and no credential goes with it.

A witness that cannot be written or does not answer 2xx is logged (``ledger.witness_failed``)
and does not undo the commit: the entries are already durable, and the next checkpoint (or
``accord ledger checkpoint``) is offered again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import httpx

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


class UrlWitnesses:
    """POSTs each checkpoint (``application/json``) to witness URLs; ``transport`` is
    httpx's, injected by tests. Each call waits at most ``timeout`` seconds per URL."""

    def __init__(
        self,
        urls: Sequence[str],
        *,
        transport: httpx.BaseTransport | None = None,
        timeout: float = 5.0,
    ) -> None:
        self.urls = list(urls)
        self._transport = transport
        self._timeout = timeout

    def __call__(self, checkpoint: Checkpoint) -> None:
        body = checkpoint_file_text(checkpoint).encode("utf-8")
        headers = {"content-type": "application/json"}
        with httpx.Client(transport=self._transport, timeout=self._timeout) as client:
            for url in self.urls:
                try:
                    answer = client.post(url, content=body, headers=headers)
                    answer.raise_for_status()
                except httpx.HTTPError as exc:
                    log.error(
                        "ledger.witness_failed",
                        witness=url,
                        tree_size=checkpoint.tree_size,
                        error=str(exc),
                    )


Publish = Callable[[Checkpoint], None]


def _all(publishers: Sequence[Publish]) -> Publish:
    def publish(checkpoint: Checkpoint) -> None:
        for each in publishers:
            each(checkpoint)

    return publish


def witnesses_from_settings(
    entries: Sequence[str],
    *,
    base_dir: Path,
    source: str,
    transport: httpx.BaseTransport | None = None,
) -> Publish | None:
    """The configured ``ledger.witnesses``: folders (relative to the config file's folder)
    and ``http(s)://`` URLs; any other scheme is ``config.invalid`` naming the entry."""
    directories: list[Path] = []
    urls: list[str] = []
    for index, entry in enumerate(entries):
        if "://" in entry:
            if not entry.startswith(("http://", "https://")) or not httpx.URL(entry).host:
                raise config_error(
                    source,
                    key_path("ledger", ["witnesses", index]),
                    "a witness is a folder path or an http(s):// URL",
                    code="config.invalid",
                )
            urls.append(entry)
        else:
            directories.append((base_dir / Path(entry).expanduser()).resolve())
    publishers: list[Publish] = []
    if directories:
        publishers.append(FileWitnesses(directories))
    if urls:
        publishers.append(UrlWitnesses(urls, transport=transport))
    return _all(publishers) if publishers else None
