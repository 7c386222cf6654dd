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

Folders are written by the thread that committed (a local file). URLs are posted by a
background thread of their own, in order, so that no commit waits on the network: a checkpoint
is signed inside whichever write reached the checkpoint interval, often a settle, and on the
service that write may run on the event loop, which a slow witness (up to its timeout per
URL) would hold (issue 13). :meth:`Witnesses.close` (``Accord.close()``) waits until every
queued checkpoint was posted or logged as failed.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
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

    def __init__(self, directories: Sequence[Path], *, trust_root: str | None = None) -> None:
        """``trust_root``: the kid each file names as the pinned service key."""
        self.directories = list(directories)
        self.trust_root = trust_root

    def __call__(self, checkpoint: Checkpoint) -> None:
        text = checkpoint_file_text(checkpoint, self.trust_root)
        # the same signed checkpoint published before, with or without the pin
        published = {text, checkpoint_file_text(checkpoint)}
        for directory in self.directories:
            path = witness_file(directory, checkpoint.tree_size)
            try:
                if path.exists() and path.read_text(encoding="utf-8") in published:
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
    """POSTs each checkpoint (``application/json``) to witness URLs from a background thread,
    in order; ``transport`` is httpx's, injected by tests. Each post waits at most ``timeout``
    seconds per URL. A call returns at once; :meth:`flush` waits for what it queued."""

    def __init__(
        self,
        urls: Sequence[str],
        *,
        transport: httpx.BaseTransport | None = None,
        timeout: float = 5.0,
        trust_root: str | None = None,
    ) -> None:
        self.urls = list(urls)
        self.trust_root = trust_root
        self._transport = transport
        self._timeout = timeout
        self._queue: queue.Queue[Checkpoint | None] = queue.Queue()
        self._started = threading.Lock()
        self._thread: threading.Thread | None = None

    def __call__(self, checkpoint: Checkpoint) -> None:
        """Queue ``checkpoint`` for the background thread (started on first use)."""
        with self._started:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._post_queued, name="accord-url-witnesses", daemon=True
                )
                self._thread.start()
            self._queue.put(checkpoint)

    def flush(self) -> None:
        """Wait until every queued checkpoint was posted to every URL (or logged as failed)."""
        self._queue.join()

    def close(self) -> None:
        """:meth:`flush`, then end the background thread (a later call starts a new one)."""
        with self._started:
            thread, self._thread = self._thread, None
            if thread is None:
                return
            self._queue.put(None)
        thread.join()

    def _post_queued(self) -> None:
        with httpx.Client(transport=self._transport, timeout=self._timeout) as client:
            while True:
                checkpoint = self._queue.get()
                try:
                    if checkpoint is None:
                        return
                    self._post(client, checkpoint)
                finally:
                    self._queue.task_done()

    def _post(self, client: httpx.Client, checkpoint: Checkpoint) -> None:
        body = checkpoint_file_text(checkpoint, self.trust_root).encode("utf-8")
        headers = {"content-type": "application/json"}
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


class Witnesses:
    """The configured witnesses as one publisher (the ledger's ``on_checkpoint``)."""

    def __init__(self, folders: FileWitnesses | None, urls: UrlWitnesses | None) -> None:
        self.folders = folders
        self.urls = urls

    def __call__(self, checkpoint: Checkpoint) -> None:
        if self.folders is not None:
            self.folders(checkpoint)
        if self.urls is not None:
            self.urls(checkpoint)

    def flush(self) -> None:
        """Wait until the URL witnesses were offered every checkpoint so far."""
        if self.urls is not None:
            self.urls.flush()

    def close(self) -> None:
        """Flush and end the URL witnesses' background thread."""
        if self.urls is not None:
            self.urls.close()


def witnesses_from_settings(
    entries: Sequence[str],
    *,
    base_dir: Path,
    source: str,
    transport: httpx.BaseTransport | None = None,
    trust_root: str | None = None,
) -> Witnesses | None:
    """The configured ``ledger.witnesses``: folders (relative to the config file's folder)
    and ``http(s)://`` URLs; any other scheme is ``config.invalid`` naming the entry. Each
    checkpoint they receive names ``trust_root`` (the pinned service key's kid)."""
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
    if not directories and not urls:
        return None
    return Witnesses(
        FileWitnesses(directories, trust_root=trust_root) if directories else None,
        UrlWitnesses(urls, transport=transport, trust_root=trust_root) if urls else None,
    )
