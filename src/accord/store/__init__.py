"""Storage: one SQLAlchemy engine per URL (SQLite or PostgreSQL), tables and migrations."""

from accord.store.database import (
    DEFAULT_DATABASE_URL,
    Database,
    missing_sqlite_file,
    open_database,
    resolve_database_url,
    sqlite_relative_to,
)
from accord.store.idempotency import (
    IdempotencyConflict,
    IdempotentRequest,
    KeyTaken,
    check_key,
    request_digest,
)
from accord.store.migrate import HEAD_REVISION, current_revisions
from accord.store.schema_check import require_tables
from accord.store.short_work import on_loop_if_sqlite, short_read
from accord.store.writer_file_lock import SUFFIX

__all__ = [
    "DEFAULT_DATABASE_URL",
    "HEAD_REVISION",
    "SUFFIX",
    "Database",
    "IdempotencyConflict",
    "IdempotentRequest",
    "KeyTaken",
    "check_key",
    "current_revisions",
    "missing_sqlite_file",
    "on_loop_if_sqlite",
    "open_database",
    "request_digest",
    "require_tables",
    "resolve_database_url",
    "short_read",
    "sqlite_relative_to",
]
