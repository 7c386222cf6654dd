"""Seniority: an ordered scale of level names, lowest first."""

from __future__ import annotations

import re
from typing import Final

from pydantic import BaseModel, ConfigDict, field_validator

from accord.errors import ValidationError

DEFAULT_SENIORITY_LEVELS: Final[tuple[str, ...]] = (
    "junior",
    "mid",
    "senior",
    "lead",
    "principal",
    "director",
    "vp",
    "c_suite",
)

_LEVEL_NAME = re.compile(r"[a-z][a-z0-9_]*")


class SeniorityScale(BaseModel):
    """Seniority levels from lowest to highest; a level's rank is its position."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    levels: tuple[str, ...] = DEFAULT_SENIORITY_LEVELS

    @field_validator("levels")
    @classmethod
    def _levels_are_distinct_identifiers(cls, levels: tuple[str, ...]) -> tuple[str, ...]:
        if len(levels) < 2:
            raise ValueError("needs at least 2 levels")
        for level in levels:
            if not _LEVEL_NAME.fullmatch(level):
                raise ValueError(
                    f"level {level!r} must be a lowercase identifier (a-z, 0-9, _; a letter first)"
                )
        seen: set[str] = set()
        for level in levels:
            if level in seen:
                raise ValueError(f"level {level!r} appears more than once")
            seen.add(level)
        return levels

    def __contains__(self, level: object) -> bool:
        return level in self.levels

    def rank(self, level: str) -> int:
        """The level's rank, 0 for the lowest; ``org.unknown_seniority`` if not on the scale."""
        try:
            return self.levels.index(level)
        except ValueError:
            raise ValidationError(
                f"unknown seniority {level!r}; valid levels: {', '.join(self.levels)}",
                code="org.unknown_seniority",
                level=level,
                valid_levels=self.levels,
            ) from None

    def compare(self, a: str, b: str) -> int:
        """-1, 0 or 1 as level ``a`` ranks below, level with, or above level ``b``."""
        difference = self.rank(a) - self.rank(b)
        return (difference > 0) - (difference < 0)
