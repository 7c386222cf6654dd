"""One database handle per URL: engine settings, migrations and the single-writer lock.

SQLite (WAL) is the embedded default; PostgreSQL serves several processes or machines.
Every write goes through :meth:`Database.write`, which takes the database-wide writer
lock (``BEGIN IMMEDIATE`` on SQLite, a transaction-scoped advisory lock on PostgreSQL)
so ledger appends from many processes serialize and the hash chain never forks. Threads of
one process first queue on an in-process lock, so at most one of them waits at the database:
SQLite's busy handler sleeps and retries (1 ms growing to 100 ms a time), so threads that
collide there see seconds-long tails under load; a Python lock wakes the next writer the
moment the previous one commits. On SQLite, processes then queue the same way on a file lock
beside the database (``writer_file_lock``) before they meet at the database's own lock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from threading import RLock
from typing import Any, Literal

from sqlalchemy import Connection, Engine, Table, create_engine, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, OperationalError
from sqlalchemy.pool import QueuePool, StaticPool

from accord.errors import SavepointLost, StoreError
from accord.store.migrate import upgrade_to_head
from accord.store.writer_file_lock import WriterFileLock

DEFAULT_DATABASE_URL = "sqlite:///accord.db"
#: Key of the PostgreSQL advisory lock that serializes writers ("accord" in ASCII).
WRITER_LOCK_KEY = 0x6163636F7264

SqliteSync = Literal["OFF", "NORMAL", "FULL", "EXTRA"]
#: WAL pages before SQLite copies them back into the database file (its default is 1000).
#: A settle batch rewrites the same index and ledger pages commit after commit; checkpointing
#: less often writes each such page back once instead of many times (measured: ~8 % of the
#: cost of persisting a case). The WAL may grow to about this many 4 KiB pages (32 MiB).
SQLITE_WAL_AUTOCHECKPOINT_PAGES = 8192
#: Key in ``Connection.info`` of the callbacks :meth:`Database.after_commit` queued.
_AFTER_COMMIT = "accord_after_commit"


def resolve_database_url(explicit: str | None = None) -> str:
    """``explicit`` if given, else ``sqlite:///accord.db``. (The library reads no environment
    variable here: ``ACCORD_DB`` is read by the CLI and by ``accord.app.wiring``.)"""
    return explicit or DEFAULT_DATABASE_URL


def sqlite_relative_to(url: str, base: Path) -> str:
    """A SQLite URL with a relative file path made absolute under ``base`` (a config file's
    folder, as its key directory and org chart are); any other URL as it is."""
    parsed = _normalize(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return url
    path = Path(parsed.database or "").expanduser()
    if path.is_absolute():
        return url
    return parsed.set(database=str((base / path).resolve())).render_as_string(hide_password=False)


def missing_sqlite_file(url: str) -> Path | None:
    """The file a SQLite ``url`` names when it does not exist yet (None for anything else)."""
    parsed = _normalize(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    path = Path(parsed.database or "").expanduser()
    return None if path.exists() else path


def _normalize(url: str) -> URL:
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise StoreError(
            f"not a database URL: {url!r}", code="store.bad_url", url=url, rule=str(exc)
        ) from exc
    if parsed.drivername in ("postgresql", "postgres", "postgresql+psycopg2"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.drivername not in ("sqlite", "sqlite+pysqlite", "postgresql+psycopg"):
        raise StoreError(
            f"unsupported database {parsed.drivername!r}: use sqlite:///FILE or "
            "postgresql+psycopg://USER@HOST/DB",
            code="store.unsupported_dialect",
            url=parsed.render_as_string(hide_password=True),
        )
    return parsed


class Database:
    """An engine for one URL with Accord's settings and the writer lock."""

    def __init__(
        self,
        url: str,
        *,
        sqlite_synchronous: SqliteSync = "FULL",
        pool_size: int = 5,
    ) -> None:
        self.url: URL = _normalize(url)
        self.dialect: Literal["sqlite", "postgresql"] = (
            "sqlite" if self.url.get_backend_name() == "sqlite" else "postgresql"
        )
        self._in_memory = self.dialect == "sqlite" and self.url.database in (None, "", ":memory:")
        self.engine: Engine = self._create_engine(sqlite_synchronous, pool_size)
        self._insert_sql: dict[str, str] = {}
        self._update_sql: dict[tuple[str, tuple[str, ...], tuple[str, ...]], str] = {}
        # Reentrant: a nested write (another connection, same thread) behaves as it did
        # without this lock (it meets the database's lock), instead of hanging here.
        self._writers = RLock()
        # other processes' writers on the same SQLite file queue on this (see its module)
        self._file_lock: AbstractContextManager[object] = (
            WriterFileLock(Path(self.url.database or "").expanduser().resolve())
            if self.dialect == "sqlite" and not self._in_memory
            else nullcontext()
        )

    @property
    def is_sqlite(self) -> bool:
        return self.dialect == "sqlite"

    def idle_connections(self) -> int:
        """Connections the pool holds ready now: a checkout takes one without waiting."""
        pool = self.engine.pool
        return pool.checkedin() if isinstance(pool, QueuePool) else 0

    def writer_taken_now(self) -> AbstractContextManager[None] | None:
        """The writer lock, taken without waiting, as a block to leave when done (a
        :meth:`write` inside it re-enters it); None, holding nothing, while another thread of
        this process or, on a SQLite file, another process holds it."""
        if not self._writers.acquire(blocking=False):
            return None
        file_lock = self._file_lock if isinstance(self._file_lock, WriterFileLock) else None
        if file_lock is not None and not file_lock.try_enter():
            self._writers.release()
            return None
        return self._writer_held(file_lock)

    @contextmanager
    def _writer_held(self, file_lock: WriterFileLock | None) -> Iterator[None]:
        try:
            yield
        finally:
            if file_lock is not None:
                file_lock.__exit__(None, None, None)
            self._writers.release()

    @property
    def shareable(self) -> bool:
        """Whether other processes can open the same database (false for in-memory SQLite)."""
        return not self._in_memory

    def url_string(self) -> str:
        """The URL with its password, for handing to worker processes."""
        return self.url.render_as_string(hide_password=False)

    def _create_engine(self, synchronous: SqliteSync, pool_size: int) -> Engine:
        if self.dialect == "postgresql":
            # No pre-ping: it costs a round trip per transaction; recycle idle connections instead.
            return create_engine(self.url, pool_size=pool_size, pool_recycle=1800)
        kwargs: dict[str, Any] = {}
        if self._in_memory:
            kwargs["poolclass"] = StaticPool
            kwargs["connect_args"] = {"check_same_thread": False}
            # one connection serves every checkout: rolling it back when a read hands it back
            # would silently undo a write still open on it (a read inside a write transaction)
            kwargs["pool_reset_on_return"] = None
        else:
            database = self.url.database or ""
            Path(database).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(self.url, **kwargs)

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_conn: Any, _record: Any) -> None:
            # Let SQLAlchemy's "begin" event own transaction start, so writes can use
            # BEGIN IMMEDIATE (take the write lock up front, no upgrade deadlocks).
            dbapi_conn.isolation_level = None
            cur = dbapi_conn.cursor()
            if not self._in_memory:
                cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={synchronous}")
            cur.execute("PRAGMA busy_timeout=30000")
            # a savepoint's statement journal (each decision of a batch has one) in memory:
            # on disk it was a temporary file created, written page by page and deleted for
            # every batch, ~80 % of a decision's writes and ~10 % of its CPU time (issue 13)
            cur.execute("PRAGMA temp_store=MEMORY")
            cur.execute(f"PRAGMA wal_autocheckpoint={SQLITE_WAL_AUTOCHECKPOINT_PAGES}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        @event.listens_for(engine, "begin")
        def _on_begin(conn: Connection) -> None:
            immediate = conn.get_execution_options().get("accord_write", False)
            conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

        return engine

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A transaction holding the database-wide writer lock; commits on success.

        This process's writers queue on an in-process lock first (see the module docstring).
        """
        try:
            with self._writers, self._file_lock, self.engine.connect() as raw:
                conn = raw.execution_options(accord_write=True)
                try:
                    with conn.begin():
                        if self.dialect == "postgresql":
                            conn.execute(
                                text("SELECT pg_advisory_xact_lock(:k)"), {"k": WRITER_LOCK_KEY}
                            )
                        yield conn
                finally:
                    # conn.info lives as long as the pooled DBAPI connection: always empty it
                    callbacks = conn.info.pop(_AFTER_COMMIT, [])
        except OperationalError as exc:
            raise StoreError(
                f"database write failed: {exc.orig}", code="store.write_failed"
            ) from exc
        for callback in callbacks:  # reached only when the transaction committed
            callback()

    def after_commit(self, conn: Connection, callback: Callable[[], None]) -> None:
        """Run ``callback`` once the :meth:`write` transaction ``conn`` belongs to has
        committed (never when it rolls back)."""
        conn.info.setdefault(_AFTER_COMMIT, []).append(callback)

    def savepoint(self, conn: Connection) -> AbstractContextManager[Connection]:
        """A savepoint inside the :meth:`write` transaction ``conn`` (see :func:`savepoint`)."""
        return savepoint(conn)

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read transaction (a consistent snapshot on both engines)."""
        try:
            with self.engine.connect() as conn, conn.begin():
                if self.dialect == "postgresql":
                    conn.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"))
                yield conn
        except OperationalError as exc:
            raise StoreError(f"database read failed: {exc.orig}", code="store.read_failed") from exc

    def read_row(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        """The first row of one driver-level ``SELECT`` (the driver's own parameter marks:
        ``?`` on SQLite, ``%s`` on PostgreSQL), or None: a per-request lookup (an API key's
        revocation). See :meth:`statement_cursor`."""
        with self.statement_cursor() as cursor:
            cursor.execute(sql, tuple(params))
            row = cursor.fetchone()
        return None if row is None else tuple(row)

    @contextmanager
    def statement_cursor(self) -> Iterator[Any]:
        """A driver cursor for one read statement, with no transaction of this module's
        around it: one statement is its own consistent snapshot, so a per-request read (an
        API key's revocation, a page of the queue) skips :meth:`read`'s transaction
        bookkeeping (~40–60 µs a call through SQLAlchemy's connection, measured). The pool
        rolls the driver connection back on return; a driver error is a ``StoreError``."""
        try:
            raw = self.engine.raw_connection()
        except OperationalError as exc:
            raise StoreError(f"database read failed: {exc.orig}", code="store.read_failed") from exc
        try:
            cursor = raw.cursor()
            try:
                yield cursor
            finally:
                cursor.close()
        except self.engine.dialect.loaded_dbapi.Error as exc:
            raise StoreError(f"database read failed: {exc}", code="store.read_failed") from exc
        finally:
            raw.close()  # back to the pool (rolled back there)

    def insert_rows(
        self, conn: Connection, table: Table, rows: Sequence[Mapping[str, Any]]
    ) -> None:
        """Insert ``rows`` through the driver directly (hot paths: ledger, cases).

        SQLAlchemy Core spends ~100 µs per statement on cache keys and events; the SQL here is
        rendered once per table and dialect, and values go to the DBAPI as bound parameters.
        """
        if not rows:
            return
        sql = self._insert_sql.get(table.name)
        if sql is None:
            names = [c.name for c in table.columns]
            marks = [self._mark(n) for n in names]
            sql = f"INSERT INTO {table.name} ({', '.join(names)}) VALUES ({', '.join(marks)})"
            self._insert_sql[table.name] = sql
        # Rows must carry every column (the row builders next to each table do).
        driver_execute(conn, sql, rows)

    def update_rows(
        self,
        conn: Connection,
        table: Table,
        keys: Sequence[str],
        rows: Sequence[Mapping[str, Any]],
    ) -> None:
        """``UPDATE table SET ... WHERE`` each of ``keys`` equals the row's value, once per
        row, through the driver directly (as :meth:`insert_rows`, for the same reason). Every
        row names the same columns; those not in ``keys`` are the ones set."""
        if not rows:
            return
        names = tuple(rows[0])
        where = tuple(keys)
        sql = self._update_sql.get((table.name, names, where))
        if sql is None:
            columns = {c.name for c in table.columns}
            unknown = [n for n in (*names, *where) if n not in columns]
            if unknown or not set(where) <= set(names):
                raise ValueError(f"update_rows on {table.name}: bad columns {unknown or where}")
            assigned = ", ".join(f"{n} = {self._mark(n)}" for n in names if n not in where)
            matched = " AND ".join(f"{n} = {self._mark(n)}" for n in where)
            sql = f"UPDATE {table.name} SET {assigned} WHERE {matched}"
            self._update_sql[(table.name, names, where)] = sql
        driver_execute(conn, sql, rows)

    def _mark(self, name: str) -> str:
        """The driver's named parameter mark for ``name``."""
        return f":{name}" if self.is_sqlite else f"%({name})s"

    def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision (idempotent)."""
        try:
            upgrade_to_head(self.engine, postgres=self.dialect == "postgresql")
        except OperationalError as exc:
            raise StoreError(
                f"cannot open the database at {self.url.render_as_string(hide_password=True)}: "
                f"{(str(exc.orig).strip().splitlines() or [str(exc)])[0]}",
                code="store.unreachable",
                url=self.url.render_as_string(hide_password=True),
            ) from exc

    def dispose(self) -> None:
        self.engine.dispose()
        if isinstance(self._file_lock, WriterFileLock):
            self._file_lock.close()


@contextmanager
def driver_cursor(conn: Connection) -> Iterator[Any]:
    """A DBAPI cursor on the connection of ``conn``'s transaction, closed after the block;
    a driver error inside is raised as the SQLAlchemy exception ``Connection.execute`` would
    raise for it (``IntegrityError``, ``OperationalError``…).

    The hot paths (ledger entries, cases, approval items) run their statements here rather
    than through ``Connection.exec_driver_sql``: SQLAlchemy's execution context and result
    object cost ~30 µs a statement, several times the statement itself on SQLite.
    """
    cursor = conn.connection.cursor()
    try:
        yield cursor
    except conn.dialect.loaded_dbapi.Error as exc:
        dbapi_error = conn.dialect.loaded_dbapi.Error
        raise DBAPIError.instance(None, None, exc, dbapi_error, dialect=conn.dialect) from exc
    finally:
        cursor.close()


#: The savepoint name; nested savepoints share it (each statement names the newest).
_SAVEPOINT = "accord_savepoint"


@contextmanager
def savepoint(conn: Connection) -> Iterator[Connection]:
    """A savepoint inside the write transaction ``conn``: when the block raises, its writes
    roll back (and the :meth:`Database.after_commit` callbacks it queued are dropped) while
    the transaction goes on; the error propagates.

    Its statements go straight to the driver (the transaction stays SQLAlchemy's):
    ``Connection.begin_nested`` cost ~55 µs a savepoint, the driver's ~1 µs, and every
    decision of a batch takes one (issue 13)."""
    queued = len(conn.info.get(_AFTER_COMMIT, []))
    with driver_cursor(conn) as cursor:
        cursor.execute(f"SAVEPOINT {_SAVEPOINT}")
    try:
        yield conn
    except BaseException:
        _savepoint_statements(conn, f"ROLLBACK TO SAVEPOINT {_SAVEPOINT}", "rolled back to")
        del conn.info.get(_AFTER_COMMIT, [])[queued:]
        raise
    _savepoint_statements(conn, None, "released")


def _savepoint_statements(conn: Connection, first: str | None, what: str) -> None:
    """``first`` (if any), then ``RELEASE``; ``SavepointLost`` if the driver refuses either
    (e.g. SQLite rolled the whole transaction back on a full disk: the connection is then
    outside any transaction, and each later statement would commit on its own)."""
    try:
        with driver_cursor(conn) as cursor:
            if first is not None:
                cursor.execute(first)
            cursor.execute(f"RELEASE SAVEPOINT {_SAVEPOINT}")
    except DBAPIError as exc:
        raise SavepointLost(
            f"the savepoint could not be {what}: {exc.orig}; the transaction is lost"
        ) from exc


def driver_execute(conn: Connection, sql: str, rows: Sequence[Mapping[str, Any]]) -> None:
    """Run one driver-level statement (the driver's own parameter marks) once per row, on
    ``conn``'s transaction (see :func:`driver_cursor`)."""
    if not rows:
        return
    with driver_cursor(conn) as cursor:
        if len(rows) == 1:
            cursor.execute(sql, rows[0])
        else:
            cursor.executemany(sql, list(rows))


def driver_row(conn: Connection, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
    """The first row of one driver-level ``SELECT`` inside ``conn``'s transaction, or None
    (see :func:`driver_cursor`)."""
    with driver_cursor(conn) as cursor:
        cursor.execute(sql, tuple(params))
        row = cursor.fetchone()
    return None if row is None else tuple(row)


def open_database(url: str | None = None, **kwargs: Any) -> Database:
    """Open (and migrate) the database at ``url`` or the default."""
    db = Database(resolve_database_url(url), **kwargs)
    db.migrate()
    return db
