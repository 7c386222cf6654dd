"""Reading an ``accord settle`` file within the limits: one case, a JSON array of cases (read
a chunk at a time), or JSON Lines (read line by line): any number of cases in bounded memory.

Sizes are checked before reading (the file's size, each line's length as it is read), JSON
depth and integer length before parsing (``accord.strict_json``), and every case against
:class:`accord.cases.settle_format.SettleCase`. Errors name the line (JSON Lines) or the
case's index (an array) and the field.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from enum import StrEnum
from pathlib import Path
from typing import IO

from accord.cases import SettleCase, settle_case
from accord.cli.json_array_stream import array_elements
from accord.errors import ValidationError
from accord.limits import Limits, exceeded
from accord.strict_json import parse_json

_BLANK = b" \t\r\n"


class FileKind(StrEnum):
    """How the cases are laid out (and how ``accord settle`` prints the decisions)."""

    OBJECT = "object"
    ARRAY = "array"
    LINES = "lines"


class SettleFile:
    """A settle file opened for reading; :meth:`cases` may be iterated more than once."""

    def __init__(self, path: Path, limits: Limits) -> None:
        self._limits = limits
        self._stack = ExitStack()
        self.name = str(path)
        if self.name == "-":  # stdin cannot be read twice: spool it, counting its size
            self._path = Path(self._stack.enter_context(tempfile.TemporaryDirectory())) / "in"
            with self._path.open("wb") as out:
                self._spool(sys.stdin.buffer, out)
        else:
            self._path = path
            try:
                size = path.stat().st_size
            except OSError as exc:
                raise _unreadable(self.name, exc) from exc
            self._check_size(size)
        self.kind = self._kind()

    def close(self) -> None:
        self._stack.close()

    def _check_size(self, size: int) -> None:
        limit = self._limits.settle_file_bytes
        if size > limit:
            raise exceeded(
                "settle_file_bytes", limit, size, field=self.name, unit="bytes in the file"
            )

    def _spool(self, source: IO[bytes], out: IO[bytes]) -> None:
        size = 0
        while chunk := source.read(1 << 20):
            size += len(chunk)
            self._check_size(size)
            out.write(chunk)

    def _open(self) -> IO[bytes]:
        try:
            return self._path.open("rb")
        except OSError as exc:
            raise _unreadable(self.name, exc) from exc

    def _kind(self) -> FileKind:
        with self._open() as fh:
            first = fh.readline(self._limits.case_bytes + 1)
            stripped = first.lstrip(_BLANK)
            while not stripped and first:
                first = fh.readline(self._limits.case_bytes + 1)
                stripped = first.lstrip(_BLANK)
            if stripped.startswith(b"["):
                return FileKind.ARRAY
            if not _complete_json(stripped):  # a case written over several lines
                return FileKind.OBJECT
            rest = fh.read(1 << 16)
            while rest and not rest.strip(_BLANK):
                rest = fh.read(1 << 16)
            return FileKind.LINES if rest else FileKind.OBJECT

    def cases(self) -> Iterator[tuple[str, SettleCase]]:
        """Each case with where it is (``line 3``, ``case [2]``); raises on the first bad one."""
        if self.kind is FileKind.LINES:
            yield from self._lines()
            return
        if self.kind is FileKind.ARRAY:
            yield from self._array()
            return
        with self._open() as fh:
            raw = fh.read(self._limits.case_bytes + 1)
        if len(raw) > self._limits.case_bytes:
            limit = self._limits.case_bytes
            raise exceeded("case_bytes", limit, len(raw), field=self.name, unit="bytes in a case")
        data = parse_json(_decoded(raw, self.name, 1), self._limits, where=self.name)
        yield self.name, settle_case(data, self.name)

    def _array(self) -> Iterator[tuple[str, SettleCase]]:
        """A JSON array read a chunk at a time: one case in memory at once, whatever the
        number of cases."""
        with self._open() as fh:
            elements = array_elements(
                fh, name=self.name, element_limit=self._limits.case_bytes
            )
            for index, raw in enumerate(elements):
                where = f"{self.name}: case [{index}]"
                data = parse_json(_decoded(raw, where, 1), self._limits, where=where)
                yield where, settle_case(data, where)

    def _lines(self) -> Iterator[tuple[str, SettleCase]]:
        limit = self._limits.case_bytes
        with self._open() as fh:
            for number, raw in enumerate(iter(lambda: fh.readline(limit + 1), b""), start=1):
                where = f"{self.name}: line {number}"
                if len(raw) > limit and not (len(raw) == limit + 1 and raw.endswith(b"\n")):
                    raise exceeded(
                        "case_bytes", limit, len(raw), field=where, unit="or more bytes in a line"
                    )
                if not raw.strip(_BLANK):
                    continue
                data = parse_json(
                    _decoded(raw, self.name, number), self._limits, where=where,
                    first_line=number,
                )
                yield where, settle_case(data, where)


def _complete_json(line: bytes) -> bool:
    """Whether ``line`` alone holds a whole JSON object (the first line of JSON Lines)."""
    try:
        json.loads(line)
    except (ValueError, RecursionError):
        return False
    return True


def _decoded(raw: bytes, name: str, line: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = f"{name}: line {line}" if line > 1 else name
        raise _bad(where, f"not UTF-8 text (byte {exc.start})") from None


def _bad(where: str, rule: str) -> ValidationError:
    return ValidationError(f"{where}: {rule}", code="settle.bad_file", field=where, rule=rule)


def _unreadable(name: str, exc: OSError) -> ValidationError:
    rule = f"cannot read: {exc.strerror}"
    return ValidationError(f"{name}: {rule}", code="settle.unreadable", field=name, rule=rule)

