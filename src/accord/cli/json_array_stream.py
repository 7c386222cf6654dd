"""The elements of a top-level JSON array, read a chunk at a time (bounded memory).

Only the array's own structure is scanned here — strings (with their escapes), brackets and the
commas between elements — so each element's bytes can be handed whole to the strict parser
(``accord.strict_json``) with its limits. UTF-8 never encodes a multi-byte character with ASCII
bytes, so scanning bytes is exact.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import IO

from accord.errors import ValidationError
from accord.limits import exceeded

_STRUCTURE = re.compile(rb'[\[\]{},"\\]')
_BLANK = b" \t\r\n"
_QUOTE, _BACKSLASH, _COMMA = ord('"'), ord("\\"), ord(",")
_OPEN, _CLOSE = frozenset(b"[{"), frozenset(b"]}")


def array_elements(
    fh: IO[bytes], *, name: str, element_limit: int, chunk_bytes: int = 1 << 20
) -> Iterator[bytes]:
    """Each element's bytes, in order; ``ValidationError`` if the file is not one JSON array
    or an element is longer than ``element_limit`` bytes (``limits.exceeded``)."""
    started = ended = in_string = escaped = False
    depth = 0
    current = bytearray()
    while chunk := fh.read(chunk_bytes):
        pos, size = 0, len(chunk)
        if ended:
            _only_blank(chunk, name)
            continue
        while pos < size:
            if escaped:  # the byte after a backslash inside a string
                current.append(chunk[pos])
                pos, escaped = pos + 1, False
                continue
            found = _STRUCTURE.search(chunk, pos)
            end = found.start() if found is not None else size
            if started:
                current += chunk[pos:end]
            else:
                _only_blank(chunk[pos:end], name)
            _check_size(current, element_limit, name)
            if found is None:
                break
            byte, pos = chunk[end], end + 1
            if not started:
                if byte != ord("["):
                    raise _bad(name, "not a JSON array")
                started, depth = True, 1
            elif in_string:
                current.append(byte)
                escaped = byte == _BACKSLASH
                in_string = byte != _QUOTE
            elif byte == _QUOTE:
                current.append(byte)
                in_string = True
            elif byte in _OPEN:
                current.append(byte)
                depth += 1
            elif byte in _CLOSE and depth == 1:  # the array's own ']' (a '}' here is bad JSON)
                if current.strip(_BLANK):
                    yield bytes(current)
                current.clear()
                ended = True
                _only_blank(chunk[pos:], name)
                break
            elif byte in _CLOSE:
                current.append(byte)
                depth -= 1
            elif depth == 1:  # a comma between elements
                if not current.strip(_BLANK):
                    raise _bad(name, "an empty element in the array")
                yield bytes(current)
                current.clear()
            else:
                current.append(byte)
    if not started:
        raise _bad(name, "not a JSON array")
    if not ended:
        raise _bad(name, "the JSON array is not closed with ]")


def _check_size(current: bytearray, limit: int, name: str) -> None:
    if len(current) > limit:
        unit = "or more bytes in a case"
        raise exceeded("case_bytes", limit, len(current), field=name, unit=unit)


def _only_blank(data: bytes, name: str) -> None:
    if data.strip(_BLANK):
        raise _bad(name, "text after the JSON array")


def _bad(name: str, rule: str) -> ValidationError:
    return ValidationError(f"{name}: {rule}", code="settle.bad_file", field=name, rule=rule)
