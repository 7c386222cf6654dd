"""What runs after tier 1, and which tier-1 rungs run first: ``conflict_resolution`` in YAML.

This section is the one source of the escalation ladder's configuration (the chains were
``classification.chains`` before; that key is still read for one release, with a warning).

```yaml
conflict_resolution:
  strategy: hybrid      # company default: authority | debate | human | hybrid | a plugin
  tier1: [source_verification, confidence, authority, vote]
  chains:               # the strategy chain per conflict kind x severity (company-wide)
    default: [source_verification, confidence, authority, vote, arbitration, human]
    critical: [source_verification, arbitration, human]
    numerical_inconsistency: {high: [source_verification, confidence, vote, arbitration, human]}
  debate: {max_tokens_per_argument: 300, judge: manager, max_rounds: 2}
  hybrid: {review_agent: "agent:reviewer", escalate_on_ambiguity: true}
  departments:
    engineering: {strategy: debate, debate: {judge: "agent:cto"}}
  conflict_types:
    logical_conflict: {strategy: human}
    direct_contradiction: {strategy: authority, critical_without_source: strategy}
```

The chain of a conflict (``chains``, looked up as in :class:`accord.conflicts.DecisionTable`)
orders its tier-1 rungs and names the tier it escalates to; a level's ``tier1`` replaces the
chain's tier-1 rungs. Precedence is **conflict type > department > company**: the most
specific level that names a strategy chooses it, and each strategy's settings are merged key by
key in the same order, so a department can change one debate setting and inherit the rest.

A **critical** conflict that source verification did not settle goes to people whatever
strategy is chosen (playbook §7: "critique sans vérif externe"). Only a conflict type may opt
out, with ``critical_without_source: strategy`` (default ``people``); the choice then names
the key (``critical_opt_in``) and the case records it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic import ValidationError as PydanticValidationError

from accord.config_errors import config_error, from_pydantic, key_path, pydantic_rule
from accord.conflicts import ChainOverrides, ConflictKind
from accord.errors import ConfigError
from accord.ladder.tier_one import TIER_ONE_RUNGS

#: The policy key by which a conflict type lets its strategy settle critical conflicts.
CRITICAL_KEY = "critical_without_source"


class _Level(BaseModel):
    """One level of the policy: a strategy name, tier-1 rungs, and per-strategy settings."""

    model_config = ConfigDict(frozen=True, extra="allow")

    strategy: str | None = Field(default=None, min_length=1)
    tier1: tuple[str, ...] | None = None
    critical_without_source: Literal["people", "strategy"] | None = None

    @field_validator("tier1")
    @classmethod
    def _known_rungs(cls, rungs: tuple[str, ...] | None) -> tuple[str, ...] | None:
        for rung in rungs or ():
            if rung not in TIER_ONE_RUNGS:
                raise ValueError(
                    f"unknown tier-1 rung {rung!r}; valid: {', '.join(TIER_ONE_RUNGS)}"
                )
        return rungs

    @model_validator(mode="after")
    def _check(self) -> _Level:
        for key, value in (self.model_extra or {}).items():
            if not isinstance(value, Mapping):
                raise ValueError(f"settings of strategy {key!r} must be a mapping")
        return self

    def settings_for(self, strategy: str) -> Mapping[str, Any]:
        value = (self.model_extra or {}).get(strategy, {})
        return value if isinstance(value, Mapping) else {}

    def strategy_keys(self) -> list[str]:
        return sorted(self.model_extra or {})


class StrategyChoice(BaseModel):
    """The strategy for one dispute, its merged settings, and the level that chose it."""

    model_config = ConfigDict(frozen=True)

    strategy: str
    settings: dict[str, Any]
    tier1: tuple[str, ...] | None
    chosen_by: str
    critical_opt_in: str | None = None
    """The policy key that lets the strategy settle a critical conflict without source
    verification (``conflict_resolution.conflict_types.<type>.critical_without_source``);
    None: critical conflicts go to people."""
    department: str | None = None
    """The department it was chosen for (None: none, or the parties span no one department)."""


class ResolutionPolicy(BaseModel):
    """The company level plus overrides per department and per conflict type."""

    model_config = ConfigDict(frozen=True)

    company: _Level = _Level(strategy="authority")
    departments: dict[str, _Level] = Field(default_factory=dict)
    conflict_types: dict[ConflictKind, _Level] = Field(default_factory=dict)
    chains: ChainOverrides = ChainOverrides()
    """``conflict_resolution.chains``: the strategy chains the decision table uses."""

    @classmethod
    def from_mapping(
        cls, data: Any, *, source: str, key_prefix: str = "conflict_resolution"
    ) -> ResolutionPolicy:
        """Read the YAML section strictly; errors name the file, key path and rule."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise _error(source, key_prefix, "must be a mapping")
        body = dict(data)
        departments = body.pop("departments", {}) or {}
        types = body.pop("conflict_types", {}) or {}
        chains = ChainOverrides.from_mapping(
            body.pop("chains", None), source=source, key_prefix=key_prefix
        )
        company = _level(body, source, key_prefix, default_strategy="authority")
        _only_per_type(company, source, key_prefix)
        if not isinstance(departments, Mapping):
            raise _error(source, f"{key_prefix}.departments", "must be a mapping")
        if not isinstance(types, Mapping):
            raise _error(source, f"{key_prefix}.conflict_types", "must be a mapping")
        valid_kinds = {k.value for k in ConflictKind}
        by_type: dict[ConflictKind, _Level] = {}
        for name, level in types.items():
            where = key_path(key_prefix, ["conflict_types", str(name)])
            if name not in valid_kinds:
                raise _error(
                    source, where, f"unknown conflict type; valid: {', '.join(sorted(valid_kinds))}"
                )
            by_type[ConflictKind(name)] = _level(level, source, where)
        by_department = {
            str(name): _level(level, source, key_path(key_prefix, ["departments", str(name)]))
            for name, level in departments.items()
        }
        for name, level in by_department.items():
            _only_per_type(level, source, key_path(key_prefix, ["departments", name]))
        return cls(
            company=company, departments=by_department, conflict_types=by_type, chains=chains
        )

    def levels(self, kind: ConflictKind | None, department: str | None) -> list[tuple[str, _Level]]:
        """Company first, most specific last."""
        out: list[tuple[str, _Level]] = [("company", self.company)]
        if department is not None and department in self.departments:
            out.append((f"department:{department}", self.departments[department]))
        if kind is not None and kind in self.conflict_types:
            out.append((f"conflict_type:{kind.value}", self.conflict_types[kind]))
        return out

    def choose(self, kind: ConflictKind | None, department: str | None) -> StrategyChoice:
        """The strategy, settings and tier-1 rungs for a dispute of ``kind`` in ``department``."""
        levels = self.levels(kind, department)
        strategy, chosen_by = "authority", "company"
        tier1: tuple[str, ...] | None = None  # None: the classification chain's own order
        for name, level in levels:
            if level.strategy is not None:
                strategy, chosen_by = level.strategy, name
            if level.tier1 is not None:
                tier1 = level.tier1
        settings: dict[str, Any] = {}
        for _, level in levels:
            settings.update(level.settings_for(strategy))
        by_type = self.conflict_types.get(kind) if kind is not None else None
        opt_in = None
        if by_type is not None and by_type.critical_without_source == "strategy":
            assert kind is not None
            opt_in = key_path("conflict_resolution", ["conflict_types", kind.value, CRITICAL_KEY])
        return StrategyChoice(
            strategy=strategy,
            settings=settings,
            tier1=tier1,
            chosen_by=chosen_by,
            critical_opt_in=opt_in,
            department=department,
        )

    def check_departments(
        self, known: Iterable[str], *, source: str, key_prefix: str = "conflict_resolution"
    ) -> None:
        """Every department the policy names must be one of the org chart's ``known``."""
        names = sorted(set(known))
        for department in self.departments:
            if department not in names:
                raise _error(
                    source,
                    key_path(key_prefix, ["departments", department]),
                    f"no department {department!r} in the org chart; known: {', '.join(names)}",
                )

    def check_strategies(
        self,
        valid: Iterable[str],
        *,
        source: str,
        key_prefix: str = "conflict_resolution",
        settings_models: Mapping[str, type[BaseModel]] | None = None,
    ) -> None:
        """Every named strategy (and settings block) must be a registered strategy, and each
        settings block must be valid for the strategy's ``settings_models`` entry."""
        names = sorted(set(valid))
        levels: list[tuple[str, _Level]] = [(key_prefix, self.company)]
        levels += [
            (key_path(key_prefix, ["departments", d]), lv) for d, lv in self.departments.items()
        ]
        levels += [
            (key_path(key_prefix, ["conflict_types", k.value]), lv)
            for k, lv in self.conflict_types.items()
        ]
        for where, level in levels:
            if level.strategy is not None and level.strategy not in names:
                raise _error(
                    source,
                    key_path(where, ["strategy"]),
                    f"unknown strategy {level.strategy!r}; valid: {', '.join(names)}",
                )
            for key in level.strategy_keys():
                if key not in names:
                    raise _error(
                        source,
                        key_path(where, [key]),
                        f"unknown key (not a strategy); valid strategies: {', '.join(names)}",
                    )
                model = (settings_models or {}).get(key)
                if model is not None:
                    try:
                        model.model_validate(dict(level.settings_for(key)))
                    except PydanticValidationError as exc:
                        first = exc.errors(include_url=False)[0]
                        raise from_pydantic(
                            first, source=source, prefix=key_path(where, [key])
                        ) from exc


def _only_per_type(level: _Level, source: str, where: str) -> None:
    if level.critical_without_source is not None:
        raise _error(
            source,
            key_path(where, [CRITICAL_KEY]),
            "only a conflict type may opt in (conflict_resolution.conflict_types.<type>."
            f"{CRITICAL_KEY}); critical conflicts without source verification go to people",
        )


def _level(data: Any, source: str, where: str, default_strategy: str | None = None) -> _Level:
    if not isinstance(data, Mapping):
        raise _error(source, where, "must be a mapping")
    payload = dict(data)
    if "chains" in payload:  # the company's own chains were taken out before
        raise _error(
            source,
            key_path(where, ["chains"]),
            "chains are set once, for the company: conflict_resolution.chains (a conflict "
            "kind's chains go inside it)",
        )
    if default_strategy is not None:
        payload.setdefault("strategy", default_strategy)
    try:
        return _Level.model_validate(payload)
    except PydanticValidationError as exc:
        first = exc.errors()[0]
        loc = [p for p in first["loc"] if p != "__root__"]
        raise _error(source, key_path(where, loc), pydantic_rule(first)) from exc


def _error(source: str, where: str, rule: str) -> ConfigError:
    return config_error(source, where, rule, code="config.invalid")
