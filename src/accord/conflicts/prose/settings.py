"""How prose is read: its locale, its limits, the vocabularies, the number tolerances.

A ``prose`` section under the detection settings (strict, like the rest)::

    detection:
      prose:
        locale: de_DE            # decimal comma, day-first dates
        max_chars: 20000         # longer answers are not read for facts (not comparable)
        vocabularies:
          route: {expedite: [rush, fast track], standard: [normal]}
"""

from __future__ import annotations

from typing import Self

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

MAX_CHARS = 20_000
"""Default: answers longer than this (after cleaning) are not read for facts."""
MAX_FACTS = 200
"""Default: an answer stating more facts than this is not read for facts."""
MAX_DATE_LOOKUPS = 16
"""Default: at most this many relative date expressions are resolved per answer."""


class ProseSettings(BaseModel):
    """Every knob of the prose reader (see ``docs/prose-detection.md``).

    ``locale`` decides ambiguous number and date formats (``1.200`` and ``1,5``; ``03/05``);
    ``vocabularies`` adds labels (name → canonical label → synonyms, stored lower-case);
    ``number_tolerance`` widens every stated number by that relative gap, and
    ``approximate_gap`` is the room an approximation (``about 1,200``) leaves.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    locale: str = Field(default="en_US", min_length=2, max_length=35)
    max_chars: int = Field(default=MAX_CHARS, ge=1, le=1_000_000, strict=True)
    max_facts: int = Field(default=MAX_FACTS, ge=1, le=100_000, strict=True)
    max_date_lookups: int = Field(default=MAX_DATE_LOOKUPS, ge=0, le=1000, strict=True)
    builtin_vocabularies: bool = True
    vocabularies: dict[str, dict[str, tuple[str, ...]]] = Field(default_factory=dict)
    number_tolerance: float = Field(default=0.0, ge=0, le=1, strict=True, allow_inf_nan=False)
    approximate_gap: float = Field(default=0.10, ge=0, le=1, strict=True, allow_inf_nan=False)
    short_answer_words: int = Field(default=6, ge=0, le=64, strict=True)
    """An answer of at most this many words with no other fact is compared as a whole."""

    @field_validator("locale")
    @classmethod
    def _known_locale(cls, locale: str) -> str:
        from babel import Locale, UnknownLocaleError

        try:
            Locale.parse(locale.replace("-", "_"))
        except (UnknownLocaleError, ValueError) as exc:
            raise ValueError(f"{locale!r} is not a locale babel knows (say en_US, de_DE)") from exc
        return locale.replace("-", "_")

    @field_validator("vocabularies")
    @classmethod
    def _lower_case(
        cls, vocabularies: dict[str, dict[str, tuple[str, ...]]]
    ) -> dict[str, dict[str, tuple[str, ...]]]:
        result: dict[str, dict[str, tuple[str, ...]]] = {}
        for name, labels in vocabularies.items():
            if not name.strip():
                raise ValueError("a vocabulary needs a name")
            result[name] = {
                " ".join(label.lower().split()): tuple(
                    " ".join(s.lower().split()) for s in synonyms if s.strip()
                )
                for label, synonyms in labels.items()
                if label.strip()
            }
            if not result[name]:
                raise ValueError(f"vocabulary {name!r} has no labels")
        return result

    @model_validator(mode="after")
    def _synonyms_are_unique(self) -> Self:
        for name, labels in self.vocabularies.items():
            seen: dict[str, str] = {}
            for label, synonyms in labels.items():
                for word in (label, *synonyms):
                    other = seen.setdefault(word, label)
                    if other != label:
                        raise ValueError(
                            f"vocabulary {name!r}: {word!r} stands for both {other!r} and {label!r}"
                        )
        return self
