"""Reading the ``classification`` section of a config file into decision-table fields.

Strict: unknown keys, wrong types, unknown names and bad chains raise ``ConfigError``
naming the file, the key path (``classification.chains.logical_conflict.high[2]``) and
the rule.
"""

from __future__ import annotations

from typing import Any

from accord.config_errors import PathPart, YamlReader
from accord.conflicts.dispute_type import DisputeType
from accord.conflicts.kinds import ConflictKind, Severity
from accord.conflicts.strategy_chain import chain_problem

_TOP_KEYS = ("critical_starts_at_human_appeal", "dispute_types", "chains")
_KINDS = tuple(kind.value for kind in ConflictKind)
_SEVERITIES = tuple(severity.value for severity in Severity)
_DISPUTE_TYPES = tuple(dispute_type.value for dispute_type in DisputeType)


def read_decision_table(data: Any, *, source: str, prefix: str) -> dict[str, Any]:
    """Keyword arguments for ``DecisionTable`` from the parsed section ``data``."""
    return _Reader(source, prefix).table(data)


def read_chains(data: Any, *, source: str, prefix: str) -> dict[str, Any]:
    """Decision-table chain fields (``default_chain``, ``critical_chain``, ``chains``) from the
    parsed ``chains`` mapping of the section at ``prefix``."""
    return _Reader(source, prefix)._chains(data)


class _Reader(YamlReader):
    def table(self, data: Any) -> dict[str, Any]:
        section = self._mapping(data, (), _TOP_KEYS)
        fields: dict[str, Any] = {}
        if "critical_starts_at_human_appeal" in section:
            flag = section["critical_starts_at_human_appeal"]
            if not isinstance(flag, bool):
                raise self._wrong_type(("critical_starts_at_human_appeal",), "a boolean", flag)
            fields["critical_starts_at_human_appeal"] = flag
        if "dispute_types" in section:
            fields["dispute_types"] = self._dispute_types(section["dispute_types"])
        if "chains" in section:
            fields.update(self._chains(section["chains"]))
        return fields

    def _dispute_types(self, data: Any) -> dict[str, str]:
        where: tuple[PathPart, ...] = ("dispute_types",)
        mapping = self._mapping(data, where, _KINDS)
        for kind, dispute_type in mapping.items():
            if not isinstance(dispute_type, str):
                raise self._wrong_type((*where, kind), "a string", dispute_type)
            if dispute_type not in _DISPUTE_TYPES:
                rule = f"unknown dispute type; valid types: {', '.join(_DISPUTE_TYPES)}"
                raise self._error((*where, kind), rule)
        return dict(mapping)

    def _chains(self, data: Any) -> dict[str, Any]:
        where: tuple[PathPart, ...] = ("chains",)
        mapping = self._mapping(data, where, ("default", "critical", *_KINDS))
        fields: dict[str, Any] = {}
        per_kind: dict[str, dict[str, tuple[str, ...]]] = {}
        for key, value in mapping.items():
            if key == "default":
                fields["default_chain"] = self._chain(value, (*where, key), critical=False)
            elif key == "critical":
                fields["critical_chain"] = self._chain(value, (*where, key), critical=True)
            else:
                entries = self._mapping(value, (*where, key), ("default", *_SEVERITIES))
                per_kind[key] = {
                    severity: self._chain(
                        steps, (*where, key, severity), critical=severity == "critical"
                    )
                    for severity, steps in entries.items()
                }
        if per_kind:
            fields["chains"] = per_kind
        return fields

    def _chain(self, value: Any, where: tuple[PathPart, ...], *, critical: bool) -> tuple[str, ...]:
        if not isinstance(value, list | tuple):
            raise self._wrong_type(where, "a list of step names", value)
        for index, step in enumerate(value):
            if not isinstance(step, str):
                raise self._wrong_type((*where, index), "a string", step)
        problem = chain_problem(value, critical=critical)
        if problem is not None:
            at_index, rule = problem
            at = where if at_index is None else (*where, at_index)
            raise self._error(at, rule)
        return tuple(value)
