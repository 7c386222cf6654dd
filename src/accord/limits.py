"""How much input Accord accepts: the ``limits:`` section of ``accord.yaml``.

Every limit is checked at the boundary, before the work it protects (a file's size before it is
read, a line's length before it is parsed), and a breach raises
:class:`LimitExceeded` (``limits.exceeded``) naming the limit, its value and what was found.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from accord.errors import ValidationError

MIB = 1024 * 1024


class LimitExceeded(ValidationError):
    """Input is larger than a configured limit; ``context`` names ``limit``, ``value`` and
    ``found``."""

    code = "limits.exceeded"


class Limits(BaseModel):
    """The documented defaults; raise them in ``accord.yaml`` under ``limits:``."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    settle_file_bytes: int = Field(default=512 * MIB, ge=1)
    """Largest file ``accord settle`` reads (checked before reading)."""
    case_bytes: int = Field(default=64 * MIB, ge=1)
    """Largest JSON text of one case in a settle file (one line, or one array element)."""
    output_bytes: int = Field(default=16 * MIB, ge=1)
    """Largest output of one position, as canonical JSON bytes."""
    positions_per_case: int = Field(default=100, ge=2)
    """Most positions one case may compare."""
    cases_per_batch: int = Field(default=1000, ge=1)
    """Most cases one ``settle_many`` call takes; ``accord settle`` streams its file in
    batches of this size."""
    json_depth: int = Field(default=80, ge=1, le=500)
    """How deeply arrays and objects may nest in JSON input (outputs nest at most 64 levels
    below a position)."""
    json_integer_digits: int = Field(default=64, ge=1, le=4000)
    """Longest integer literal in JSON input (signed records carry integers within
    ±(2**53 − 1) only; longer literals are refused before they are converted)."""


def exceeded(
    limit: str, value: int, found: int, *, field: str, unit: str, **context: Any
) -> LimitExceeded:
    """The error for ``field`` (say ``positions[1].output``) breaking ``limits.<limit>``."""
    return LimitExceeded(
        f"{field}: {found:,} {unit}, above the limit limits.{limit} = {value:,}",
        limit=f"limits.{limit}",
        value=value,
        found=found,
        field=field,
        rule=f"at most {value:,} {unit} (limits.{limit})",
        **context,
    )
