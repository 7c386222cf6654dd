"""Bounded JSON parsing: nesting depth checked before parsing, long integer literals refused
while parsing — no ``RecursionError`` or int-conversion ``ValueError`` reaches a caller."""

from __future__ import annotations

import json
import re
from typing import Any

from accord.errors import ValidationError
from accord.limits import Limits, exceeded

#: A JSON string (escapes included) or one bracket; strings are matched whole so brackets
#: inside them do not count.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')
_OPENING = frozenset("[{")


def nesting_depth(text: str, stop_above: int) -> int:
    """How deeply arrays and objects nest in ``text`` (stops counting above ``stop_above``)."""
    depth = deepest = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in _OPENING:
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > stop_above:
                    break
        elif token[0] != '"':
            depth -= 1
    return deepest


def parse_json(text: str, limits: Limits, *, where: str, first_line: int = 1) -> Any:
    """The value of the JSON ``text``; ``ValidationError`` naming ``where`` and the line.

    ``json.syntax`` for malformed text; ``limits.exceeded`` for nesting deeper than
    ``limits.json_depth`` or an integer literal longer than ``limits.json_integer_digits``.
    ``first_line`` is the line of ``text``'s first character in its file.
    """
    depth = nesting_depth(text, limits.json_depth)
    if depth > limits.json_depth:
        raise exceeded(
            "json_depth", limits.json_depth, depth, field=where, unit="levels of nesting"
        )
    digits = limits.json_integer_digits

    def parse_int(literal: str) -> int:
        length = len(literal.lstrip("-"))
        if length > digits:
            raise exceeded(
                "json_integer_digits", digits, length, field=where, unit="digits in an integer"
            )
        return int(literal)

    def refuse_constant(name: str) -> Any:
        raise ValidationError(
            f"{where}: {name} is not a JSON number",
            code="json.syntax",
            field=where,
            rule="well-formed JSON (RFC 8259): no NaN or Infinity",
        )

    try:
        return json.loads(text, parse_int=parse_int, parse_constant=refuse_constant)
    except json.JSONDecodeError as exc:
        line = first_line + exc.lineno - 1
        raise ValidationError(
            f"{where}: line {line}, column {exc.colno}: not valid JSON: {exc.msg}",
            code="json.syntax",
            field=where,
            line=line,
            column=exc.colno,
            rule="well-formed JSON (RFC 8259)",
        ) from None

