"""Classifying a detected conflict: its DCP-07 dispute type, starting tier and strategy chain.

The playbook's decision matrix (nature × criticality → strategy) is a :class:`DecisionTable`:
sensible defaults, overridable per company from YAML. The ``classification`` section sets the
dispute types and starting tiers; the chains are part of the resolution policy
(``conflict_resolution.chains``, read into :class:`ChainOverrides`)::

    classification:
      critical_starts_at_human_appeal: false
      dispute_types: {logical_conflict: directive_conflict}
    conflict_resolution:
      chains:
        numerical_inconsistency:
          high: [source_verification, confidence, vote, arbitration, human]
        default: [source_verification, confidence, authority, vote, arbitration, human]
        critical: [source_verification, arbitration, human]

(``classification.chains``, the same mapping, is still read for one release: deprecated.)

Defaults: direct contradictions and numerical inconsistencies are ``capability_conflict``,
logical conflicts ``policy_conflict``, priority conflicts ``resource_conflict``. The starting
tier follows R2 (``directive_conflict`` at contextual arbitration, the rest at direct
negotiation); with ``critical_starts_at_human_appeal`` critical conflicts start at human
appeal (R18). The chain for (kind, severity) is the first of: ``chains[kind][severity]``;
the critical chain when the severity is critical; ``chains[kind].default``; the default chain.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from accord.conflicts._table_config import read_chains, read_decision_table
from accord.conflicts.detection import Detection
from accord.conflicts.dispute_type import STARTING_TIERS, DisputeType, Tier
from accord.conflicts.kinds import ConflictKind, Severity
from accord.conflicts.strategy_chain import CRITICAL_CHAIN, DEFAULT_CHAIN, chain_problem
from accord.errors import ValidationError

DEFAULT_DISPUTE_TYPES: Mapping[ConflictKind, DisputeType] = MappingProxyType(
    {
        ConflictKind.DIRECT_CONTRADICTION: DisputeType.CAPABILITY_CONFLICT,
        ConflictKind.NUMERICAL_INCONSISTENCY: DisputeType.CAPABILITY_CONFLICT,
        ConflictKind.LOGICAL_CONFLICT: DisputeType.POLICY_CONFLICT,
        ConflictKind.PRIORITY_CONFLICT: DisputeType.RESOURCE_CONFLICT,
    }
)
"""The dispute type each conflict kind becomes unless configured otherwise."""

_CHAIN_KEYS = frozenset({"default", *Severity})


class Classification(BaseModel):
    """How a conflict will be handled: its dispute type, first tier and strategies in order."""

    model_config = ConfigDict(frozen=True)

    kind: ConflictKind
    severity: Severity
    dispute_type: DisputeType
    starting_tier: Tier
    strategy_chain: tuple[str, ...]


class DecisionTable(BaseModel):
    """The decision matrix: conflict kind × severity → dispute type, tier and chain.

    Built directly, invalid values raise ``pydantic.ValidationError``; built with
    :meth:`from_mapping`, ``ConfigError`` at the offending key path.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    critical_starts_at_human_appeal: bool = False
    dispute_types: dict[ConflictKind, DisputeType] = Field(
        default_factory=lambda: dict(DEFAULT_DISPUTE_TYPES)
    )
    default_chain: tuple[str, ...] = DEFAULT_CHAIN
    critical_chain: tuple[str, ...] = CRITICAL_CHAIN
    chains: dict[ConflictKind, dict[str, tuple[str, ...]]] = Field(default_factory=dict)

    @field_validator("dispute_types")
    @classmethod
    def _every_kind(cls, types: dict[ConflictKind, DisputeType]) -> dict[ConflictKind, DisputeType]:
        return {**DEFAULT_DISPUTE_TYPES, **types}

    @model_validator(mode="after")
    def _valid_chains(self) -> Self:
        _check_chains(self.default_chain, self.critical_chain, self.chains)
        return self

    @classmethod
    def from_mapping(cls, data: Any, *, source: str, key_prefix: str = "") -> DecisionTable:
        """The defaults overridden by a parsed ``classification`` section (strict; its
        ``chains`` key is deprecated, see :class:`ChainOverrides`)."""
        return cls(**read_decision_table(data, source=source, prefix=key_prefix))

    def with_chains(self, overrides: ChainOverrides) -> DecisionTable:
        """This table with the chains ``overrides`` sets (the others kept)."""
        return DecisionTable.model_validate(
            {**self.model_dump(), **overrides.model_dump(exclude_defaults=True)}
        )

    def dispute_type_for(self, kind: ConflictKind) -> DisputeType:
        """The dispute type a conflict of ``kind`` becomes."""
        return self.dispute_types[kind]

    def starting_tier_for(self, dispute_type: DisputeType, severity: Severity) -> Tier:
        """R2's first tier for ``dispute_type``, or human appeal for critical ones if set (R18)."""
        if self.critical_starts_at_human_appeal and severity is Severity.CRITICAL:
            return Tier.HUMAN_APPEAL
        return STARTING_TIERS[dispute_type]

    def chain_for(self, kind: ConflictKind, severity: Severity) -> tuple[str, ...]:
        """The strategies to try, in order, for a conflict of ``kind`` and ``severity``."""
        by_severity = self.chains.get(kind)
        if by_severity is not None:
            chain = by_severity.get(severity)
            if chain is not None:
                return chain
        if severity is Severity.CRITICAL:
            return self.critical_chain
        if by_severity is not None and "default" in by_severity:
            return by_severity["default"]
        return self.default_chain


class ChainOverrides(BaseModel):
    """The chains a configuration sets (``conflict_resolution.chains``): the default chain,
    the critical chain and chains per conflict kind (by severity or ``default``); None or
    empty keeps the table's own."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    default_chain: tuple[str, ...] | None = None
    critical_chain: tuple[str, ...] | None = None
    chains: dict[ConflictKind, dict[str, tuple[str, ...]]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _valid_chains(self) -> Self:
        _check_chains(self.default_chain, self.critical_chain, self.chains)
        return self

    @classmethod
    def from_mapping(cls, data: Any, *, source: str, key_prefix: str) -> ChainOverrides:
        """Read a parsed ``chains`` mapping (strict); errors name ``<key_prefix>.chains…``."""
        if data is None:
            return cls()
        return cls(**read_chains(data, source=source, prefix=key_prefix))


def _check_chains(
    default_chain: tuple[str, ...] | None,
    critical_chain: tuple[str, ...] | None,
    chains: dict[ConflictKind, dict[str, tuple[str, ...]]],
) -> None:
    if default_chain is not None:
        _check_chain(default_chain, "default_chain", critical=False)
    if critical_chain is not None:
        _check_chain(critical_chain, "critical_chain", critical=True)
    for kind, by_severity in chains.items():
        for key, steps in by_severity.items():
            if key not in _CHAIN_KEYS:
                raise ValueError(f"chains.{kind}: {key!r} is neither a severity nor 'default'")
            _check_chain(steps, f"chains.{kind}.{key}", critical=key == Severity.CRITICAL)


def _check_chain(steps: tuple[str, ...], where: str, *, critical: bool) -> None:
    problem = chain_problem(steps, critical=critical)
    if problem is not None:
        index, rule = problem
        raise ValueError(f"{where}{'' if index is None else f'[{index}]'}: {rule}")


_DEFAULT_TABLE = DecisionTable()


def classify(detection: Detection, table: DecisionTable = _DEFAULT_TABLE) -> Classification:
    """The dispute type, starting tier and strategy chain for a detected conflict.

    A detection without a conflict raises ``ValidationError`` (``conflicts.nothing_to_classify``).
    """
    kind, severity = detection.kind, detection.severity
    if not detection.has_conflict or kind is None or severity is None:
        raise ValidationError(
            "there is no conflict to classify",
            code="conflicts.nothing_to_classify",
            field="detection",
            position=None,
            rule="classify only detections with has_conflict=True",
        )
    dispute_type = table.dispute_type_for(kind)
    return Classification(
        kind=kind,
        severity=severity,
        dispute_type=dispute_type,
        starting_tier=table.starting_tier_for(dispute_type, severity),
        strategy_chain=table.chain_for(kind, severity),
    )
