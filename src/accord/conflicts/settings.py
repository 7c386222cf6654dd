"""What counts as a disagreement: numeric thresholds, incompatible labels, text comparison.

Settings come from code or from a YAML section through :meth:`DetectionSettings.from_mapping`
(strict: unknown keys and wrong types raise ``ConfigError`` naming the file and key path)::

    detection:
      numeric: {conflict_gap: 0.10, major_gap: 0.30, absolute_tolerance: 1.0e-9}
      per_field:
        invoice.total: {conflict_gap: 0.01, major_gap: 0.05}
      incompatible_sets: [[accept, reject], [merge, block]]
      label_values: [needs review]
      text_mode: facts          # facts (default) | normalized | exact
      prose: {locale: en_US, max_chars: 20000}

``text_mode`` says how two strings are compared: ``facts`` reads the facts each states (see
:mod:`accord.conflicts.prose`), ``normalized`` is the comparison before prose detection
(strings up to 64 characters are labels, the rest equal once normalized, or by the semantic
comparator), ``exact`` compares strings as written.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    field_validator,
    model_validator,
)
from pydantic import ValidationError as PydanticValidationError

from accord.config_errors import PathPart, from_pydantic, wrong_type
from accord.conflicts.prose.labels import LabelIndex
from accord.conflicts.prose.settings import ProseSettings
from accord.conflicts.text import normalize_text
from accord.values import nearest_value

DEFAULT_INCOMPATIBLE_SETS: tuple[frozenset[str], ...] = (
    frozenset({"accept", "reject"}),
    frozenset({"approve", "deny"}),
    frozenset({"approve", "reject"}),
    frozenset({"merge", "block"}),
    frozenset({"yes", "no"}),
    frozenset({"ship", "hold"}),
)
"""Label pairs that cannot both be right: disagreeing on them is a ``logical_conflict``."""


def _normalized_set(labels: frozenset[str]) -> frozenset[str]:
    normalized = frozenset(map(normalize_text, labels))
    if len(normalized) < 2:
        raise ValueError("an incompatible set needs at least two different labels")
    return normalized


class NumericThresholds(BaseModel):
    """Relative gaps separating agreement, a minor and a major numerical inconsistency.

    A relative gap ``g`` (see :func:`accord.conflicts.detect`) is no conflict when
    ``g ≤ conflict_gap``, a medium one up to ``major_gap`` (inclusive), a high one above.
    Values closer than ``absolute_tolerance`` always agree (this decides near zero).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    conflict_gap: float = Field(default=0.10, ge=0, strict=True, allow_inf_nan=False)
    major_gap: float = Field(default=0.30, ge=0, strict=True, allow_inf_nan=False)
    absolute_tolerance: float = Field(default=1e-9, ge=0, strict=True, allow_inf_nan=False)

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.conflict_gap > self.major_gap:
            raise ValueError("conflict_gap must not exceed major_gap")
        return self


class DetectionSettings(BaseModel):
    """Every knob of :func:`accord.conflicts.detect`.

    ``incompatible_sets`` and ``label_values`` are stored normalized (see
    :func:`accord.conflicts.normalize_text`), since labels are compared normalized.
    ``per_field`` thresholds apply to a dotted field path and everything beneath it; the
    nearest configured path wins, ``numeric`` applies elsewhere.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    numeric: NumericThresholds = NumericThresholds()
    per_field: dict[str, NumericThresholds] = Field(default_factory=dict)
    incompatible_sets: tuple[Annotated[frozenset[str], AfterValidator(_normalized_set)], ...] = (
        DEFAULT_INCOMPATIBLE_SETS
    )
    label_values: frozenset[str] = frozenset()
    text_mode: Literal["facts", "normalized", "exact"] = "facts"
    prose: ProseSettings = ProseSettings()

    _incompatible_index: dict[str, frozenset[int]] = PrivateAttr(default_factory=dict)
    _labels: LabelIndex | None = PrivateAttr(default=None)

    @field_validator("per_field")
    @classmethod
    def _dotted_paths(cls, per_field: dict[str, NumericThresholds]) -> dict[str, NumericThresholds]:
        for path in per_field:
            if not all(path.split(".")):
                raise ValueError(f"{path!r} is not a dotted field path like 'invoice.total'")
        return per_field

    @field_validator("label_values")
    @classmethod
    def _normalized_labels(cls, labels: frozenset[str]) -> frozenset[str]:
        return frozenset(map(normalize_text, labels))

    def model_post_init(self, context: Any, /) -> None:
        """Index the incompatible sets by label for quick lookups."""
        index: dict[str, set[int]] = {}
        for number, labels in enumerate(self.incompatible_sets):
            for label in labels:
                index.setdefault(label, set()).add(number)
        self._incompatible_index = {label: frozenset(sets) for label, sets in index.items()}

    @property
    def labels(self) -> LabelIndex:
        """The label vocabularies prose is read with: the built-in ones (unless
        ``prose.builtin_vocabularies`` is false), ``prose.vocabularies``, ``label_values``
        and the members of ``incompatible_sets``."""
        if self._labels is None:
            self._labels = LabelIndex(
                label_values=self.label_values,
                incompatible_sets=self.incompatible_sets,
                vocabularies=self.prose.vocabularies,
                builtin=self.prose.builtin_vocabularies,
            )
        return self._labels

    def thresholds_for(self, path: str) -> NumericThresholds:
        """Thresholds for dotted ``path``: its own, its nearest ancestor's, else ``numeric``."""
        found = nearest_value(self.per_field, path) if self.per_field else None
        return self.numeric if found is None else found

    def incompatible(self, labels: Iterable[str]) -> bool:
        """True when two different normalized ``labels`` sit in one incompatible set."""
        seen: dict[int, str] = {}
        for label in labels:
            for number in self._incompatible_index.get(label, ()):
                other = seen.setdefault(number, label)
                if other != label:
                    return True
        return False

    @classmethod
    def from_mapping(cls, data: Any, *, source: str, key_prefix: str = "") -> DetectionSettings:
        """Settings from a parsed YAML section; problems raise ``ConfigError`` at their key path."""
        if not isinstance(data, Mapping):
            raise wrong_type(source, key_prefix, "a mapping", data)
        try:
            return cls.model_validate(data)
        except PydanticValidationError as exc:
            first = exc.errors(include_url=False)[0]
            raise from_pydantic(
                first, source=source, prefix=key_prefix, allowed_keys=_allowed_keys
            ) from None


def _allowed_keys(parent: tuple[PathPart, ...]) -> tuple[str, ...]:
    if parent == ("numeric",) or (len(parent) == 2 and parent[0] == "per_field"):
        return tuple(NumericThresholds.model_fields)
    if parent == ("prose",):
        return tuple(ProseSettings.model_fields)
    return tuple(DetectionSettings.model_fields)
