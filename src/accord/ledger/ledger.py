"""The append-only, signed, hash-chained ledger with Merkle checkpoints."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, func, insert, select

from accord.clock import Clock, isoformat
from accord.crypto import ED25519, Ed25519Signer, derive_kid
from accord.crypto.encoding import b64encode
from accord.errors import LedgerError, NotFound, ValidationError
from accord.ledger.checkpoint import Checkpoint, checkpoint_from_row, sign_checkpoint
from accord.ledger.entry import (
    ChainHead,
    LedgerEntry,
    SealedEntry,
    entry_from_row,
    record_bytes,
    seal,
    validate_event_type,
)
from accord.ledger.key_events import KEY_EVENTS, KeyRegistered, KeyRevoked, KeyRole
from accord.ledger.key_registry import KeyRegistry
from accord.ledger.leaf_reader import leaf_hashes, leaf_reader
from accord.ledger.merkle import (
    Frontier,
    consistency_path,
    inclusion_path,
    leaf_hash,
    subtree_root,
)
from accord.ledger.proofs import ConsistencyProof, InclusionProof
from accord.ledger.stored_verification import ENTRY_COLUMNS as _ENTRY_COLUMNS
from accord.ledger.stored_verification import verify_stored
from accord.ledger.trust import TrustRoot
from accord.ledger.verify import (
    CHUNK,
    VerificationReport,
    decode_frontier,
    encode_frontier,
)
from accord.store import Database
from accord.store.database import driver_row
from accord.store.tables import ledger_checkpoints, ledger_entries

Event = tuple[str, Mapping[str, Any]]
_PREPARED = object()


@dataclass(frozen=True, slots=True)
class PreparedEvent:
    """An event type and its record's canonical bytes, checked by :meth:`Ledger.prepare`.

    Only ``prepare`` makes these, so the ledger never signs bytes it did not canonicalize.
    """

    event_type: str
    record: bytes
    _made_by_prepare: object = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self._made_by_prepare is not _PREPARED:
            raise TypeError("a PreparedEvent comes from Ledger.prepare, not from its constructor")


_MAX_SEQ = 2**63 - 1
_SHA256 = re.compile(r"^sha256:[0-9a-f]{64}\Z")
_SHA3 = re.compile(r"^sha3-256:[0-9a-f]{64}\Z")


class Ledger:
    """Signs and appends events; reads, proves and verifies them.

    Appends take the database writer lock, so concurrent writers (threads or processes,
    SQLite or PostgreSQL) serialize and the chain never forks. ``checkpoint_every``
    entries, a signed checkpoint is written in the same transaction.
    """

    def __init__(
        self,
        db: Database,
        signer: Ed25519Signer,
        clock: Clock,
        *,
        checkpoint_every: int | None = 1024,
        on_checkpoint: Callable[[Checkpoint], None] | None = None,
        on_sealed: Callable[[Connection, Sequence[SealedEntry]], None] | None = None,
    ) -> None:
        if checkpoint_every is not None and checkpoint_every < 1:
            raise ValidationError(
                "checkpoint_every must be a positive number of entries or None",
                code="ledger.bad_setting",
                field="checkpoint_every",
            )
        self.db = db
        self.signer = signer
        self.clock = clock
        self.checkpoint_every = checkpoint_every
        self.on_checkpoint = on_checkpoint
        """Called with each new checkpoint once its transaction has committed (witnesses)."""
        self.on_sealed = on_sealed
        """Called with the entries just inserted, inside their transaction (the webhook
        outbox: what is pushed commits or rolls back with what happened)."""
        self._registry: tuple[tuple[int, int], KeyRegistry] | None = None

    # --- writing ------------------------------------------------------------------------

    def append(self, event_type: str, record: Mapping[str, Any]) -> LedgerEntry:
        """Sign and append one event; returns the stored entry once it is durable."""
        sealed = self.append_many([(event_type, record)])
        return entry_from_row(sealed[0].row())

    def append_many(self, events: Iterable[Event]) -> list[SealedEntry]:
        """Append several events atomically (all or none), in order."""
        prepared = self._prepare(events)
        with self.db.write() as conn:
            return self._append_prepared(conn, prepared)

    def append_within(self, conn: Connection, events: Iterable[Event]) -> list[SealedEntry]:
        """Append inside a transaction the caller opened with ``db.write()``."""
        return self._append_prepared(conn, self._prepare(events))

    def prepare(self, events: Iterable[Event]) -> list[PreparedEvent]:
        """Validate and canonicalize events ahead of a transaction (no lock, no I/O).

        Batch writers call this as each item is ready, so only compact bytes wait for the
        writer lock; :meth:`append_prepared_within` then seals them in order.
        """
        return self._prepare(events)

    def append_prepared_within(
        self, conn: Connection, prepared: Sequence[PreparedEvent]
    ) -> list[SealedEntry]:
        """Seal and append events from :meth:`prepare` inside the caller's ``db.write()``."""
        for index, item in enumerate(prepared):
            if not isinstance(item, PreparedEvent):
                raise ValidationError(
                    f"prepared[{index}] is not a PreparedEvent from Ledger.prepare",
                    code="ledger.not_prepared",
                    field=f"prepared[{index}]",
                    rule="pass what Ledger.prepare returned",
                )
        return self._append_prepared(conn, prepared)

    def _prepare(self, events: Iterable[Event]) -> list[PreparedEvent]:
        prepared = []
        for index, (event_type, record) in enumerate(events):
            try:
                prepared.append(
                    PreparedEvent(validate_event_type(event_type), record_bytes(record), _PREPARED)
                )
            except ValidationError as exc:
                exc.context = {**exc.context, "index": index}
                raise
        return prepared

    def append_linked_within(
        self, conn: Connection, builders: Sequence[Callable[[ChainHead], Event]]
    ) -> list[SealedEntry]:
        """Append, inside the caller's ``db.write()``, one event per builder, each built from
        the head it will follow (a record that carries its predecessor's hashes, as DCP-07
        records' ``prev_hash`` do); sealed in order and inserted together."""
        if not builders:
            return []
        head = _head(conn)
        timestamp = isoformat(self.clock.now())
        sealed: list[SealedEntry] = []
        for index, build in enumerate(builders):
            event_type, record = build(head)
            try:
                item = PreparedEvent(
                    validate_event_type(event_type), record_bytes(record), _PREPARED
                )
            except ValidationError as exc:
                exc.context = {**exc.context, "index": index}
                raise
            entry = seal(head.seq + 1, item.event_type, item.record, head, self.signer, timestamp)
            sealed.append(entry)
            head = entry.head()
        return self._insert_sealed(conn, sealed)

    def _append_prepared(
        self, conn: Connection, prepared: Sequence[PreparedEvent]
    ) -> list[SealedEntry]:
        if not prepared:
            return []
        head = _head(conn)
        timestamp = isoformat(self.clock.now())
        sealed: list[SealedEntry] = []
        for item in prepared:
            entry = seal(head.seq + 1, item.event_type, item.record, head, self.signer, timestamp)
            sealed.append(entry)
            head = entry.head()
        return self._insert_sealed(conn, sealed)

    def _insert_sealed(self, conn: Connection, sealed: list[SealedEntry]) -> list[SealedEntry]:
        head = sealed[-1].head()
        self.db.insert_rows(conn, ledger_entries, [s.row() for s in sealed])
        if self.on_sealed is not None:
            self.on_sealed(conn, sealed)
        every = self.checkpoint_every
        if every is not None and head.seq // every > (sealed[0].seq - 1) // every:
            self._checkpoint_multiples(conn, sealed, every)
        return sealed

    def _checkpoint_multiples(
        self, conn: Connection, sealed: Sequence[SealedEntry], every: int
    ) -> None:
        """Sign a checkpoint at every multiple of ``every`` the batch reached."""
        frontier = self._frontier_at(conn, sealed[0].seq - 1)
        timestamp = isoformat(self.clock.now())
        for entry in sealed:
            frontier.append(leaf_hash(bytes.fromhex(entry.entry_hash[7:])))
            if entry.seq % every == 0:
                self._insert_checkpoint(conn, frontier, timestamp)

    # --- checkpoints ----------------------------------------------------------------------

    def checkpoint(self) -> Checkpoint:
        """Sign a checkpoint over the whole ledger now (returns the latest if nothing changed;
        that one is offered to the witnesses again, which keep each checkpoint once)."""
        with self.db.write() as conn:
            size = _head(conn).seq
            latest = _latest_checkpoint_row(conn)
            if latest is None or latest.tree_size != size:
                if size == 0:
                    raise ValidationError(
                        "an empty ledger has nothing to checkpoint", code="ledger.empty"
                    )
                return self._write_checkpoint(conn, size)
        existing = checkpoint_from_row(latest.body, latest.signature)
        if self.on_checkpoint is not None:
            self.on_checkpoint(existing)
        return existing

    def _write_checkpoint(self, conn: Connection, size: int) -> Checkpoint:
        frontier = self._frontier_at(conn, size)
        return self._insert_checkpoint(conn, frontier, isoformat(self.clock.now()))

    def _frontier_at(self, conn: Connection, size: int) -> Frontier:
        """The Merkle frontier at ``size``, from the nearest stored checkpoint below it."""
        latest = _latest_checkpoint_row(conn, at_most=size)
        frontier = (
            Frontier() if latest is None else decode_frontier(latest.tree_size, latest.frontier)
        )
        for h in leaf_hashes(conn, frontier.size, size):
            frontier.append(h)
        return frontier

    def _insert_checkpoint(
        self, conn: Connection, frontier: Frontier, timestamp: str
    ) -> Checkpoint:
        size = frontier.size
        checkpoint, body, sig = sign_checkpoint(size, frontier.root(), timestamp, self.signer)
        conn.execute(
            insert(ledger_checkpoints).values(
                tree_size=size,
                body=body,
                signature=sig,
                signer_kid=self.signer.kid,
                frontier=encode_frontier(frontier),
            )
        )
        publish = self.on_checkpoint
        if publish is not None:
            self.db.after_commit(conn, lambda: publish(checkpoint))
        return checkpoint

    def latest_checkpoint(self) -> Checkpoint | None:
        with self.db.read() as conn:
            row = _latest_checkpoint_row(conn)
        return None if row is None else checkpoint_from_row(row.body, row.signature)

    def checkpoints(self) -> list[Checkpoint]:
        with self.db.read() as conn:
            rows = conn.execute(
                select(ledger_checkpoints.c.body, ledger_checkpoints.c.signature).order_by(
                    ledger_checkpoints.c.tree_size
                )
            ).all()
        return [checkpoint_from_row(r.body, r.signature) for r in rows]

    def _checkpoint_at(self, conn: Connection, tree_size: int) -> Checkpoint:
        row = conn.execute(
            select(ledger_checkpoints.c.body, ledger_checkpoints.c.signature).where(
                ledger_checkpoints.c.tree_size == tree_size
            )
        ).first()
        if row is None:
            raise NotFound(
                f"no checkpoint at tree size {tree_size}",
                code="ledger.no_checkpoint",
                tree_size=tree_size,
            )
        return checkpoint_from_row(row.body, row.signature)

    # --- reading --------------------------------------------------------------------------

    def size(self) -> int:
        with self.db.read() as conn:
            return _head(conn).seq

    def head(self) -> ChainHead:
        with self.db.read() as conn:
            return _head(conn)

    def get(self, seq: int) -> LedgerEntry:
        if not 1 <= seq <= _MAX_SEQ:  # beyond what the column can hold: no such entry
            raise NotFound(f"no ledger entry {seq}", code="ledger.no_entry", seq=seq)
        with self.db.read() as conn:
            row = conn.execute(select(*_ENTRY_COLUMNS).where(ledger_entries.c.seq == seq)).first()
        if row is None:
            raise NotFound(f"no ledger entry {seq}", code="ledger.no_entry", seq=seq)
        return entry_from_row(row._mapping)

    def tail(self, count: int = 10) -> list[LedgerEntry]:
        with self.db.read() as conn:
            rows = conn.execute(
                select(*_ENTRY_COLUMNS).order_by(ledger_entries.c.seq.desc()).limit(count)
            ).all()
        return [entry_from_row(r._mapping) for r in reversed(rows)]

    def entries(
        self, start: int = 1, end: int | None = None, batch: int = 1000
    ) -> Iterator[LedgerEntry]:
        """Stream entries ``start..end`` (inclusive) in order, ``batch`` rows at a time."""
        seq = start
        while end is None or seq <= end:
            stop = seq + batch - 1 if end is None else min(seq + batch - 1, end)
            with self.db.read() as conn:
                rows = conn.execute(
                    select(*_ENTRY_COLUMNS)
                    .where(ledger_entries.c.seq.between(seq, stop))
                    .order_by(ledger_entries.c.seq)
                ).all()
            if not rows:
                return
            for row in rows:
                yield entry_from_row(row._mapping)
            seq = rows[-1].seq + 1

    def records_within(
        self, conn: Connection, event_types: Iterable[str], batch: int = 1000
    ) -> Iterator[tuple[int, str, dict[str, Any]]]:
        """``(seq, event_type, record)`` of every entry of those types, in ledger order, read
        through the caller's transaction (not verified here: :meth:`verify` does that)."""
        return records_within(conn, event_types, batch)

    def find_record_within(
        self, conn: Connection, event_types: Iterable[str], key: str, value: str, batch: int = 200
    ) -> int | None:
        """The seq of the newest entry of those types whose record has ``key == value``
        (unverified: the caller proves what it found); None if there is none."""
        kinds = sorted(set(event_types))
        below: int | None = None
        while True:
            query = select(ledger_entries.c.seq, ledger_entries.c.body).where(
                ledger_entries.c.event_type.in_(kinds)
            )
            if below is not None:
                query = query.where(ledger_entries.c.seq < below)
            rows = conn.execute(query.order_by(ledger_entries.c.seq.desc()).limit(batch)).all()
            for row in rows:
                if json.loads(row.body)["record"].get(key) == value:
                    return int(row.seq)
            if len(rows) < batch:
                return None
            below = int(rows[-1].seq)

    def count_by_event_type(self) -> dict[str, int]:
        with self.db.read() as conn:
            rows = conn.execute(
                select(ledger_entries.c.event_type, func.count()).group_by(
                    ledger_entries.c.event_type
                )
            ).all()
        return {str(r[0]): int(r[1]) for r in rows}

    # --- proofs ---------------------------------------------------------------------------

    def inclusion_proof(self, seq: int) -> InclusionProof:
        """Prove entry ``seq`` is in the current tree (checkpointed now if the ledger grew)."""
        entry = self.get(seq)
        latest = self.checkpoint()
        with self.db.read() as conn:
            path = inclusion_path(leaf_reader(conn), seq - 1, latest.tree_size)
        return InclusionProof(
            entry=entry.to_json_dict(),
            leaf_index=seq - 1,
            tree_size=latest.tree_size,
            audit_path=[p.hex() for p in path],
            checkpoint=latest.to_json_dict(),
        )

    def consistency_proof(self, old_size: int, new_size: int | None = None) -> ConsistencyProof:
        """Prove the checkpoint at ``old_size`` is a prefix of the one at ``new_size``."""
        with self.db.read() as conn:
            if new_size is None:
                row = _latest_checkpoint_row(conn)
                if row is None:
                    raise NotFound("the ledger has no checkpoint yet", code="ledger.no_checkpoint")
                new_size = int(row.tree_size)
            old = self._checkpoint_at(conn, old_size)
            new = self._checkpoint_at(conn, new_size)
            path = consistency_path(leaf_reader(conn), old_size, new_size)
        return ConsistencyProof(
            old_checkpoint=old.to_json_dict(),
            new_checkpoint=new.to_json_dict(),
            path=[p.hex() for p in path],
        )

    def root_at(self, tree_size: int) -> bytes:
        with self.db.read() as conn:
            return subtree_root(leaf_reader(conn), 0, tree_size)

    def consistency_path_between(self, old_size: int, new_size: int) -> list[bytes]:
        """The RFC 6962 consistency proof between any two sizes of the stored tree."""
        with self.db.read() as conn:
            return consistency_path(leaf_reader(conn), old_size, new_size)

    # --- verification ---------------------------------------------------------------------

    def verify(
        self,
        root: TrustRoot,
        *,
        workers: int | None = None,
        chunk: int = CHUNK,
        trusted_checkpoint: Checkpoint | None = None,
    ) -> VerificationReport:
        """Check every entry, link and checkpoint against the pinned ``root`` and the keys it
        registered; raise VerificationFailed at the first fault (see ``stored_verification``).

        With ``trusted_checkpoint`` (one kept outside the database, see ``ledger.anchor``)
        also prove that the ledger extends it: no entry at or below its size was removed or
        altered. Its signer must be the root or a service key the root registered.
        """
        return verify_stored(
            self.db, root, workers=workers, chunk=chunk, trusted_checkpoint=trusted_checkpoint
        )

    # --- keys -----------------------------------------------------------------------------

    def register_key(
        self, public_key: bytes, role: KeyRole, principal: str | None = None
    ) -> LedgerEntry:
        """Sign a ``key_registered`` entry: the key may act as ``role`` from the next entry."""
        event = KeyRegistered(
            kid=derive_kid(ED25519, public_key),
            public_key_b64=b64encode(public_key),
            role=role,
            principal=principal,
            registered_by=self.signer.kid,
        )
        return self.append(*event.event())

    def revoke_key(self, kid: str, reason: str = "") -> LedgerEntry:
        """Sign a ``key_revoked`` entry: ``kid`` may sign nothing after it."""
        return self.append(*KeyRevoked(kid=kid, reason=reason).event())

    def key_registry(self) -> KeyRegistry:
        """The registered keys as stored (not verified: :meth:`verify` does that), as of now:
        every call reads the newest key event's seq and the number of key events (one index
        read), and replays the key events only when those changed since the last call (the
        ledger is append-only, so they name the registry's state). Treat it as read-only.

        The unchanged case, every request of a service, is one driver-level statement with no
        read transaction around it (``Database.read_row``)."""
        cached = self._registry
        if cached is not None and cached[0] == _key_stamp(self.db.read_row(_KEY_STAMP_SQL)):
            return cached[1]
        with self.db.read() as conn:
            stamp = _key_stamp(driver_row(conn, _KEY_STAMP_SQL))
            registry = registry_within(conn)
        self._registry = (stamp, registry)
        return registry


def _key_stamp(row: tuple[Any, ...] | None) -> tuple[int, int]:
    assert row is not None  # an aggregate always answers one row
    return int(row[0] or 0), int(row[1])


#: The key events' newest seq and count (the event types are this module's constants).
_KEY_STAMP_SQL = (
    "SELECT max(seq), count(*) FROM ledger_entries WHERE event_type IN ("
    + ", ".join(f"'{kind}'" for kind in KEY_EVENTS)
    + ")"
)


def registry_within(conn: Connection) -> KeyRegistry:
    """The key registry replayed from the key events visible in ``conn`` (unverified)."""
    registry = KeyRegistry(None)
    for seq, event_type, record in records_within(conn, KEY_EVENTS):
        registry.apply(seq, event_type, "", record)
    return registry


def pinned_registry_within(
    conn: Connection, root: TrustRoot, head: int
) -> tuple[KeyRegistry, dict[int, str]]:
    """The key registry as the ledger's entries up to ``head`` (verified) state it, pinned
    to ``root`` (each key event signed by a service key trusted at its entry), and each key
    event's timestamp by seq: who could sign what, at which entry, for the stored-rows audit."""
    registry = KeyRegistry(root)
    times: dict[int, str] = {}
    rows = conn.execute(
        select(ledger_entries.c.seq, ledger_entries.c.timestamp, ledger_entries.c.body)
        .where(ledger_entries.c.event_type.in_(KEY_EVENTS))
        .where(ledger_entries.c.seq >= 1, ledger_entries.c.seq <= head)
        .order_by(ledger_entries.c.seq)
    )
    for seq, timestamp, body in rows:
        entry = json.loads(bytes(body))
        registry.apply(int(seq), entry["event_type"], entry["signer_kid"], entry["record"])
        times[int(seq)] = str(timestamp)
    return registry, times


def records_within(
    conn: Connection, event_types: Iterable[str], batch: int = 1000
) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """``(seq, event_type, record)`` of every entry of those types, in ledger order (unverified;
    no signer needed, so auditors read records too)."""
    kinds = sorted(set(event_types))
    last = 0
    while True:
        rows = conn.execute(
            select(ledger_entries.c.seq, ledger_entries.c.event_type, ledger_entries.c.body)
            .where(ledger_entries.c.event_type.in_(kinds))
            .where(ledger_entries.c.seq > last)
            .order_by(ledger_entries.c.seq)
            .limit(batch)
        ).all()
        if not rows:
            return
        for row in rows:
            yield int(row.seq), str(row.event_type), json.loads(row.body)["record"]
        last = int(rows[-1].seq)


def head_within(conn: Connection) -> ChainHead:
    """The ledger's last entry as seen in ``conn`` (genesis when empty): what a record appended
    next in that transaction chains to (``prev_hash``)."""
    return _head(conn)


_HEAD_SQL = (
    "SELECT seq, entry_hash, entry_hash_secondary FROM ledger_entries ORDER BY seq DESC LIMIT 1"
)


def _head(conn: Connection) -> ChainHead:
    row = driver_row(conn, _HEAD_SQL)
    if row is None:
        return ChainHead.genesis()
    seq, entry_hash, secondary = row
    if not (
        isinstance(entry_hash, str)
        and isinstance(secondary, str)
        and _SHA256.match(entry_hash)
        and _SHA3.match(secondary)
    ):
        raise LedgerError(
            f"the stored head entry {seq} has malformed hashes; run `accord verify`",
            code="ledger.corrupt_head",
            seq=int(seq),
        )
    return ChainHead(int(seq), entry_hash, secondary)


def _latest_checkpoint_row(conn: Connection, at_most: int | None = None) -> Any:
    query = select(ledger_checkpoints).order_by(ledger_checkpoints.c.tree_size.desc()).limit(1)
    if at_most is not None:
        query = query.where(ledger_checkpoints.c.tree_size <= at_most)
    return conn.execute(query).first()
