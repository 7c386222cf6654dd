"""Storage: one SQLAlchemy engine per URL (SQLite or PostgreSQL), tables and migrations."""

from accord.store.database import (
    DEFAULT_DATABASE_URL,
    Database,
    missing_sqlite_file,
    open_database,
    resolve_database_url,
    sqlite_relative_to,
)
from accord.store.schema_check import require_tables

__all__ = [
    "DEFAULT_DATABASE_URL",
    "Database",
    "missing_sqlite_file",
    "open_database",
    "require_tables",
    "resolve_database_url",
    "sqlite_relative_to",
]
