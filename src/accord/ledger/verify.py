"""Full ledger verification: every link, every signature, every checkpoint.

The ledger is cut into aligned chunks of 2**13 entries. Each chunk is checked by a worker
process that reads its rows straight from the database (so reading, hashing and signature
checks all run in parallel, in constant memory) and returns only the chunk's boundary
hashes and Merkle subtree roots; the parent stitches chunks together in order, so the
first failing entry is always the one reported.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import sys
import time
import types
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import nacl.bindings
import nacl.exceptions
from pydantic import BaseModel, ConfigDict
from sqlalchemy.engine import make_url

from accord.crypto import DISPUTE_SIG_TAG
from accord.errors import ValidationError, VerificationFailed
from accord.ledger.checkpoint import Checkpoint, checkpoint_from_row
from accord.ledger.entry import body_bytes, record_slice, splice_signature
from accord.ledger.merkle import Frontier, leaf_hash
from accord.ledger.trust import SignerWindow
from accord.values import revised

CHUNK_BITS = 13
CHUNK = 1 << CHUNK_BITS
_TAG_PREFIX = DISPUTE_SIG_TAG.encode("utf-8") + b"\x00"
_BODY_KEYS = frozenset(
    {
        "event_type",
        "prev_hash",
        "prev_hash_secondary",
        "record",
        "record_hash",
        "record_type",
        "seq",
        "signer_kid",
        "timestamp",
    }
)
_COLUMNS = (
    "seq, event_type, timestamp, signer_kid, body, signature, entry_hash, entry_hash_secondary"
)


class VerificationReport(BaseModel):
    """What a successful verification proved."""

    model_config = ConfigDict(frozen=True)

    entries: int
    checkpoints: int
    head_hash: str
    root_hash: str
    signer_kids: list[str]
    workers: int
    trust_root: str = ""
    """The pinned service kid every signer chains back to."""
    signed_decisions: int = 0
    """Human decisions whose reviewer signature was checked against a registered key."""
    os_login_decisions: int = 0
    """Decisions an opted-in deployment took from the OS login (no reviewer signature)."""
    cases: int = 0
    """Case rows cross-checked against their signed records (``Accord.verify``)."""
    disputes: int = 0
    """DCP-07 dispute rows cross-checked (with their tables) against their signed events."""
    unproved_shown: int = 0
    """Approval items requested before what a reviewer is shown was signed (ledgers written
    before 0.19): their summary, analysis and the positions' text are stored, not proved."""
    seconds: float


@dataclass(frozen=True, slots=True)
class Problem:
    seq: int
    field: str
    reason: str
    code: str = "ledger.verification_failed"


@dataclass(slots=True)
class ChunkResult:
    start: int
    end: int
    first_prev: tuple[str, str] | None = None
    last: tuple[str, str] | None = None
    nodes: list[tuple[int, bytes]] = field(default_factory=list)
    at_checkpoints: dict[int, list[tuple[int, bytes]]] = field(default_factory=dict)
    kids: set[str] = field(default_factory=set)
    watched: dict[int, str] = field(default_factory=dict)
    """seq → entry_hash of the rows of the watched event types (see ``key_registry``)."""
    problem: Problem | None = None


def check_rows(
    rows: Iterator[Sequence[Any]],
    start: int,
    end: int,
    signers: Mapping[str, SignerWindow],
    checkpoint_sizes: Sequence[int] = (),
    watched: frozenset[str] = frozenset(),
) -> ChunkResult:
    """Check rows ``start <= seq < end`` (pure: rows in, result out); each must be signed by a
    key of ``signers`` whose window covers its seq."""
    result = ChunkResult(start, end)
    frontier = Frontier()
    append_leaf = frontier.append
    wanted = {size - start + 1: size for size in checkpoint_sizes if start <= size < end}
    kids = result.kids
    expected = start
    prev: tuple[str, str] | None = None
    for row in rows:
        seq = row[0]
        if seq != expected:
            result.problem = Problem(expected, "seq", f"entry {expected} is missing")
            return result
        checked = _check_one(row, prev, signers)
        if isinstance(checked, Problem):
            result.problem = checked
            return result
        link, prev, digest = checked
        if watched and row[1] in watched:
            result.watched[seq] = prev[0]
        if seq == start:
            result.first_prev = link
        kids.add(row[3] if type(row[3]) is str else _as_text(row[3]))
        append_leaf(leaf_hash(digest))
        if wanted and seq - start + 1 in wanted:
            result.at_checkpoints[wanted[seq - start + 1]] = _with_heights(frontier)
        expected += 1
    if expected != end:
        result.problem = Problem(expected, "seq", f"entry {expected} is missing")
        return result
    assert prev is not None
    result.last = prev
    result.nodes = _with_heights(frontier)
    return result


def _as_bytes(value: object) -> bytes:
    """Stored bytes, whatever type a hand edit left them as (content is what gets checked)."""
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    return repr(value).encode("utf-8")


def _as_text(value: object) -> str:
    return value if isinstance(value, str) else repr(value)


def _with_heights(frontier: Frontier) -> list[tuple[int, bytes]]:
    size = frontier.size
    heights = [h for h in range(size.bit_length() - 1, -1, -1) if size >> h & 1]
    return list(zip(heights, frontier.nodes(), strict=True))


def _check_one(
    row: Sequence[Any], prev: tuple[str, str] | None, signers: Mapping[str, SignerWindow]
) -> Problem | tuple[tuple[str, str], tuple[str, str], bytes]:
    """Check one stored row against the entry before it.

    Returns (the row's link to its predecessor, its own two hashes, its SHA-256 digest).
    """
    seq, event_type, timestamp, kid, body, sig, h1, h2 = row
    # stored types are normally exact; anything a hand edit left behind is normalized
    if type(event_type) is not str:
        event_type = _as_text(event_type)
    if type(timestamp) is not str:
        timestamp = _as_text(timestamp)
    if type(kid) is not str:
        kid = _as_text(kid)
    if type(body) is not bytes:
        body = _as_bytes(body)
    if type(sig) is not bytes:
        sig = _as_bytes(sig)
    if type(h1) is not str:
        h1 = _as_text(h1)
    if type(h2) is not str:
        h2 = _as_text(h2)
    # 1. a service key trusted at this seq signed exactly these bytes under the DCP tag
    window = signers.get(kid)
    if window is None or not window[1] <= seq <= window[2]:
        return Problem(
            seq,
            "signer_kid",
            f"signed by {kid!r}, which is not the pinned service key nor a service key it "
            "registered (unrevoked) before this entry",
            "ledger.untrusted_signer",
        )
    try:
        _open_signed(sig + _TAG_PREFIX + body, window[0])
    except (nacl.exceptions.BadSignatureError, ValueError, TypeError):
        return Problem(seq, "signature", "signature does not verify")
    # 2. the signed body is the canonical entry for this position, these columns and the
    #    chain before it (rebuilt byte for byte, so nothing in it can differ unnoticed)
    if prev is None:  # first row of a chunk: its link is stitched by the parent
        prev = _prev_link(body)
        if prev is None:
            return Problem(seq, "body", "body is not a ledger entry")
    try:
        record = record_slice(body)
    except ValueError:
        return Problem(seq, "body", "body is not a ledger entry")
    record_hash = "sha256:" + hashlib.sha256(record).hexdigest()
    rebuilt = body_bytes(event_type, prev, record, record_hash, seq, kid, timestamp)
    if rebuilt != body:
        return Problem(seq, _first_difference(body, rebuilt, seq), "does not match the signed body")
    # 3. the stored hashes are the entry's own
    full = splice_signature(body, kid, sig)
    digest = hashlib.sha256(full).digest()
    if h1 != "sha256:" + digest.hex():
        return Problem(seq, "entry_hash", "stored entry_hash does not match the entry")
    if h2 != "sha3-256:" + hashlib.sha3_256(full).hexdigest():
        return Problem(seq, "entry_hash_secondary", "stored entry_hash_secondary does not match")
    return prev, (h1, h2), digest


_open_signed = nacl.bindings.crypto_sign_open


def _prev_link(body: bytes) -> tuple[str, str] | None:
    try:
        data = json.loads(body)
        return str(data["prev_hash"]), str(data["prev_hash_secondary"])
    except (ValueError, KeyError, TypeError):
        return None


def _first_difference(body: bytes, rebuilt: bytes, seq: int) -> str:
    """Name the field whose column or link disagrees with the signed body (for the report)."""
    try:
        data = json.loads(body)
    except ValueError:
        return "body"
    if not isinstance(data, dict) or data.keys() != _BODY_KEYS:
        return "body"
    try:
        expected = json.loads(rebuilt)
    except ValueError:  # a column held characters that broke the rebuilt JSON
        expected = {}
    for name in sorted(_BODY_KEYS):
        if data.get(name) != expected.get(name):
            return name
    return "body"  # pragma: no cover - bytes differ only in form, e.g. non-canonical spacing


# --- reading rows in a worker -------------------------------------------------------------


def _connect(url: str) -> tuple[Any, str]:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        import sqlite3

        conn = sqlite3.connect(f"file:{parsed.database}?mode=ro", uri=True)
        return conn, "?"
    import psycopg

    libpq = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
    return psycopg.connect(libpq), "%s"


_Task = tuple[str, int, int, Mapping[str, SignerWindow], Sequence[int], frozenset[str]]


#: Set in each pool worker by :func:`_watch_stop`: once the parent has found a bad entry the
#: chunks still queued return at once (a per-process flag, as a pool initializer must leave).
_stop: Any = None


def _watch_stop(stop: Any) -> None:
    global _stop  # the pool worker's own copy, set once when it starts
    _stop = stop


def _verify_chunk(args: _Task) -> ChunkResult:
    url, start, end, keys, sizes, watched = args
    if _stop is not None and _stop.is_set():  # the verification already failed: skip
        return ChunkResult(start, end)
    conn, mark = _connect(url)
    try:
        cur = conn.cursor()
        cur.execute(
            f"SELECT {_COLUMNS} FROM ledger_entries WHERE seq >= {mark} AND seq < {mark} "
            "ORDER BY seq",
            (start, end),
        )
        return check_rows(_stream(cur), start, end, keys, sizes, watched)
    finally:
        conn.close()


def _stream(cursor: Any, batch: int = 2048) -> Iterator[Sequence[Any]]:
    """Rows in bounded batches, so a worker holds a few thousand rows, not a whole chunk."""
    while rows := cursor.fetchmany(batch):
        yield from rows


def _chunks(size: int, chunk: int) -> list[tuple[int, int]]:
    return [(s, min(s + chunk, size + 1)) for s in range(1, size + 1, chunk)]


def verify_chain(
    url: str,
    size: int,
    checkpoints: Sequence[tuple[Checkpoint, str]],
    signers: Mapping[str, SignerWindow],
    *,
    workers: int | None = None,
    read_chunk: Any = None,
    chunk: int = CHUNK,
    watched: frozenset[str] = frozenset(),
) -> tuple[VerificationReport, dict[int, str]]:
    """Verify entries 1..size and the given checkpoints (with their stored frontiers).

    Returns the report and the entry hashes of the rows of the ``watched`` event types.
    ``read_chunk(start, end)`` may supply rows in-process (used for in-memory databases);
    otherwise workers read ``url`` themselves.
    """
    began = time.perf_counter()
    for checkpoint, _frontier in checkpoints:
        if checkpoint.tree_size > size:
            raise VerificationFailed(
                f"ledger truncated: checkpoint covers {checkpoint.tree_size} entries "
                f"but only {size} are stored: entries {size + 1}..{checkpoint.tree_size} "
                "are missing",
                code="ledger.truncated",
                seq=size + 1,
                field="seq",
                tree_size=checkpoint.tree_size,
                missing_from=size + 1,
                missing_to=checkpoint.tree_size,
            )
    sizes = sorted(cp.tree_size for cp, _ in checkpoints)
    if chunk < 1 or chunk & (chunk - 1):
        raise ValidationError(
            "chunk must be a power of two", code="ledger.bad_setting", field="chunk"
        )
    chunks = _chunks(size, chunk)
    workers = max(1, min(workers or os.cpu_count() or 1, len(chunks)))
    tasks: list[_Task] = [
        (url, s, e, dict(signers), [z for z in sizes if s <= z < e], watched) for s, e in chunks
    ]
    seen: dict[int, str] = {}
    if read_chunk is not None or workers == 1:
        results: Iterator[ChunkResult] = (
            check_rows(iter(read_chunk(t[1], t[2])), *t[1:])
            if read_chunk is not None
            else _verify_chunk(t)
            for t in tasks
        )
        report = _stitch(results, size, checkpoints, 1, seen)
    else:
        with _worker_pool(workers) as pool:
            report = _stitch(pool.imap(_verify_chunk, tasks), size, checkpoints, workers, seen)
    # after the chain, so a ledger re-signed under another key is named at its first entry
    for checkpoint, _frontier in checkpoints:
        checkpoint.verify_signature(_checkpoint_signers(signers, checkpoint.tree_size))
    return revised(report, seconds=time.perf_counter() - began), seen


def _checkpoint_signers(signers: Mapping[str, SignerWindow], tree_size: int) -> dict[str, bytes]:
    """Keys that may sign the checkpoint over the first ``tree_size`` entries: trusted at
    that entry, or registered by it (a new key may checkpoint the size it was registered at)."""
    return {
        kid: key
        for kid, (key, first, last) in signers.items()
        if first <= tree_size + 1 and tree_size <= last
    }


@contextmanager
def _worker_pool(workers: int) -> Iterator[Any]:
    """A ``forkserver`` pool (never ``fork``: a forked child inherits the parent's live
    database sockets and locks held by other threads). Workers only run accord code, so the
    caller's ``__main__`` is hidden while they start: a script without a main guard works."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["accord.ledger.verify"])
    stop = ctx.Event()
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        pool = ctx.Pool(workers, initializer=_watch_stop, initargs=(stop,))
    finally:
        if main is not None:
            sys.modules["__main__"] = main
    try:
        yield pool
    except BaseException:
        # A failure found early: the chunks still queued return at once. Never terminate():
        # killing a worker that holds the result queue's lock hangs the pool's join forever.
        stop.set()
        raise
    finally:
        pool.close()  # the workers exit on their own (and flush what they buffered, a
        pool.join()  # coverage run's data included) instead of being killed


def _stitch(
    results: Iterator[ChunkResult],
    size: int,
    checkpoints: Sequence[tuple[Checkpoint, str]],
    workers: int,
    seen: dict[int, str],
) -> VerificationReport:
    by_size = {cp.tree_size: (cp, frontier) for cp, frontier in checkpoints}
    frontier = Frontier()
    head: tuple[str, str] = ("GENESIS", "GENESIS")
    kids: set[str] = set()
    for chunk in results:
        if chunk.problem is not None:
            p = chunk.problem
            raise VerificationFailed(
                f"entry {p.seq}: {p.reason}",
                code=p.code,
                seq=p.seq,
                field=p.field,
            )
        if chunk.first_prev != head:
            raise VerificationFailed(
                f"entry {chunk.start}: prev_hash does not match entry {chunk.start - 1}",
                code="ledger.verification_failed",
                seq=chunk.start,
                field="prev_hash",
            )
        for tree_size, nodes in chunk.at_checkpoints.items():
            partial = frontier.copy()
            for height, node in nodes:
                partial.append_subtree(height, node)
            _check_checkpoint(by_size[tree_size], partial)
        for height, node in chunk.nodes:
            frontier.append_subtree(height, node)
        assert chunk.last is not None
        head = chunk.last
        kids |= chunk.kids
        seen.update(chunk.watched)
    return VerificationReport(
        entries=size,
        checkpoints=len(checkpoints),
        head_hash=head[0],
        root_hash="sha256:" + frontier.root().hex(),
        signer_kids=sorted(kids),
        workers=workers,
        seconds=0.0,
    )


def _check_checkpoint(item: tuple[Checkpoint, str], frontier: Frontier) -> None:
    checkpoint, stored_frontier = item
    root = frontier.root()
    if checkpoint.root_bytes() != root:
        raise VerificationFailed(
            f"checkpoint at size {checkpoint.tree_size}: root does not match the entries",
            code="ledger.checkpoint_mismatch",
            seq=checkpoint.tree_size,
            tree_size=checkpoint.tree_size,
            field="root_hash",
        )
    if stored_frontier != encode_frontier(frontier):
        raise VerificationFailed(
            f"checkpoint at size {checkpoint.tree_size}: stored frontier was altered",
            code="ledger.checkpoint_mismatch",
            seq=checkpoint.tree_size,
            tree_size=checkpoint.tree_size,
            field="frontier",
        )


def encode_frontier(frontier: Frontier) -> str:
    return json.dumps([n.hex() for n in frontier.nodes()])


def decode_frontier(size: int, text: str) -> Frontier:
    return Frontier(size, [bytes.fromhex(h) for h in json.loads(text)])


def checkpoint_rows_to_items(rows: Sequence[Sequence[Any]]) -> list[tuple[Checkpoint, str]]:
    """(tree_size, body, signature, signer_kid, frontier) rows → checked checkpoint items."""
    items = []
    for tree_size, body, sig, kid, frontier in rows:
        try:
            cp = checkpoint_from_row(_as_bytes(body), _as_bytes(sig))
        except (ValueError, KeyError, TypeError, RecursionError) as exc:
            # pydantic's ValidationError is a ValueError; json's errors are too
            raise VerificationFailed(
                f"checkpoint at size {tree_size}: body is not a signed checkpoint record "
                f"({_why_not_a_checkpoint(exc)})",
                code="ledger.bad_checkpoint",
                seq=tree_size,
                tree_size=tree_size,
                field="body",
            ) from exc
        if not isinstance(tree_size, int) or tree_size < 1:
            raise VerificationFailed(
                f"checkpoint at size {tree_size}: a tree size is a positive number of entries",
                code="ledger.bad_checkpoint",
                seq=tree_size,
                tree_size=tree_size,
                field="tree_size",
            )
        for name, stored, signed in (
            ("tree_size", tree_size, cp.tree_size),
            ("signer_kid", kid, cp.signer_kid),
        ):
            if stored != signed:
                raise VerificationFailed(
                    f"checkpoint at size {tree_size}: column {name} does not match the "
                    "signed body",
                    code="ledger.checkpoint_mismatch",
                    seq=tree_size,
                    tree_size=tree_size,
                    field=name,
                )
        items.append((cp, frontier))
    return items


def _why_not_a_checkpoint(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"no {exc.args[0]!r}"
    if isinstance(exc, json.JSONDecodeError | UnicodeDecodeError):
        return "not JSON"
    if isinstance(exc, TypeError):
        return "not a JSON object"
    return "a field has the wrong type"


__all__ = ["VerificationReport", "check_rows", "verify_chain"]
