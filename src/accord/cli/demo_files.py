"""What `accord demo` created, so `demo --fresh` removes only that.

When the demo creates its SQLite database or its key folder, it leaves a marker beside
(``<database>.accord-demo``) or inside (``<keys>/.accord-demo``) it listing the files it made.
``--fresh`` removes a database or folder only when its marker is there, and only the files
the marker lists; anything else is refused (``demo.not_created_by_demo``, exit 2).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from accord.errors import AccordError, ValidationError
from accord.store import SUFFIX as WRITER_LOCK_SUFFIX

MARKER = ".accord-demo"
_SQLITE_SUFFIXES = ("", "-wal", "-shm", WRITER_LOCK_SUFFIX)


def database_marker(database: Path) -> Path:
    return database.with_name(database.name + MARKER)


def folder_marker(folder: Path) -> Path:
    return folder / MARKER


@dataclass(frozen=True, slots=True)
class DemoPaths:
    """The SQLite file and key folder a demo run uses, and which of them it is creating."""

    database: Path
    keys: Path | None
    new_database: bool
    new_keys: bool

    @classmethod
    def before_run(cls, database: Path, keys: Path | None) -> DemoPaths:
        return cls(
            database=database,
            keys=keys,
            new_database=not database.exists(),
            new_keys=keys is not None and not keys.exists(),
        )

    def mark_created(self) -> None:
        """Leave markers on what this run created (call once both exist)."""
        if self.new_database and self.database.exists():
            _write_marker(database_marker(self.database), [self.database.name])
        if self.new_keys and self.keys is not None and self.keys.is_dir():
            names = sorted(p.name for p in self.keys.iterdir() if p.name != MARKER)
            _write_marker(folder_marker(self.keys), names)


def remove_demo_files(database: Path, keys: Path | None) -> None:
    """Remove the demo's own database and key files; refuse anything it did not create."""
    checks: list[tuple[Path, Path]] = []
    if database.exists():
        checks.append((database, database_marker(database)))
    if keys is not None and keys.exists():
        checks.append((keys, folder_marker(keys)))
    for path, marker in checks:  # refuse before removing anything
        _listed_files(path, marker)
    if database.exists():
        for suffix in _SQLITE_SUFFIXES:
            Path(f"{database}{suffix}").unlink(missing_ok=True)
        database_marker(database).unlink()
    if keys is not None and keys.exists():
        for name in _listed_files(keys, folder_marker(keys)):
            (keys / name).unlink(missing_ok=True)
        folder_marker(keys).unlink()
        if not any(keys.iterdir()):
            keys.rmdir()  # anything added since stays, with its folder


def _refused(path: Path, why: str) -> AccordError:
    return ValidationError(
        f"--fresh will not remove {path}: {why}; remove it yourself or choose another path",
        code="demo.not_created_by_demo",
        path=str(path),
        rule="--fresh removes only what an earlier `accord demo` created",
    )


def _listed_files(path: Path, marker: Path) -> list[str]:
    if not marker.is_file():
        raise _refused(path, "accord demo did not create it (no marker)")
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
        names = data["files"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise _refused(path, f"its marker {marker} is unreadable") from exc
    if not isinstance(names, list) or not all(
        isinstance(n, str) and n and Path(n).name == n and n != MARKER for n in names
    ):
        raise _refused(path, f"its marker {marker} lists something that is not a file name")
    return names


def _write_marker(marker: Path, names: list[str]) -> None:
    marker.write_text(
        json.dumps({"created_by": "accord demo", "files": names}, indent=2) + "\n",
        encoding="utf-8",
    )
