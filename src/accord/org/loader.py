"""Loading an org chart from YAML: strict, and every problem points at its key path.

Every problem raises ``accord.errors.ConfigError`` whose context holds ``file``,
``key_path`` (``agents[3].manager``) and ``rule`` (a short sentence), and whose message
reads ``accord.yaml: agents[3].manager: manager 'agent:x' is not defined in agents``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from accord.config_errors import PathPart, YamlReader
from accord.errors import ValidationError
from accord.org._names import NAME_RULE, is_name
from accord.org.agent import Agent
from accord.org.chart import OrgChart
from accord.org.department import Department
from accord.org.seniority import SeniorityScale
from accord.strict_yaml import read_yaml_file

_TOP_KEYS = ("organization", "seniority_levels", "departments", "agents")
_TOP_REQUIRED = ("organization", "departments", "agents")
_DEPARTMENT_KEYS = {"name": "name", "parent": "parent"}
_AGENT_KEYS = {
    "id": "agent_id",
    "kind": "kind",
    "principal": "principal_id",
    "department": "department",
    "seniority": "seniority",
    "manager": "manager",
    "vitality": "vitality",
    "lifecycle": "lifecycle_state",
    "capabilities": "capabilities",
}
_FIELD_TO_KEY = {
    "agents": {field: key for key, field in _AGENT_KEYS.items()},
    "departments": {field: key for key, field in _DEPARTMENT_KEYS.items()},
}

_Model = TypeVar("_Model", bound=BaseModel)


def load_org_chart(path: Path) -> OrgChart:
    """The org chart described by the YAML file at ``path``."""
    return org_chart_from_mapping(read_yaml_file(path), source=str(path))


def org_chart_from_mapping(
    data: Mapping[str, Any], *, source: str, key_prefix: str = ""
) -> OrgChart:
    """The org chart described by an already-parsed mapping.

    ``source`` names the file in errors; ``key_prefix`` (say ``org``) is put before every
    key path when the mapping is a section of a larger config file. A value that is not a
    mapping at all is reported as a ``ConfigError`` too.
    """
    return _Reader(source, key_prefix).chart(data)


class _Reader(YamlReader):
    """Reads one org document, remembering where it came from for error messages."""

    def chart(self, data: Any) -> OrgChart:
        document = self._mapping(data, (), _TOP_KEYS, _TOP_REQUIRED)
        organization = document["organization"]
        if not isinstance(organization, str):
            raise self._wrong_type(("organization",), "a string", organization)
        if not is_name(organization):
            raise self._error(("organization",), NAME_RULE)
        seniority = self._seniority(document.get("seniority_levels"))
        departments = [
            self._validate(Department, entry, ("departments", index), _DEPARTMENT_KEYS)
            for index, entry in enumerate(self._list(document["departments"], ("departments",)))
        ]
        agents = [
            self._validate(
                Agent, entry, ("agents", index), _AGENT_KEYS, organization_id=organization
            )
            for index, entry in enumerate(self._list(document["agents"], ("agents",)))
        ]
        try:
            return OrgChart(organization, seniority, departments, agents)
        except ValidationError as exc:
            raise self._broken_item_rule(exc, _FIELD_TO_KEY) from None

    def _seniority(self, levels: Any) -> SeniorityScale:
        if levels is None:
            return SeniorityScale()
        items = self._list(levels, ("seniority_levels",))
        try:
            return SeniorityScale(levels=tuple(items))
        except PydanticValidationError as exc:
            raise self._from_pydantic(exc, (), {"levels": "seniority_levels"}) from None

    def _validate(
        self,
        model: type[_Model],
        entry: Any,
        where: tuple[PathPart, ...],
        keys: Mapping[str, str],
        **injected: Any,
    ) -> _Model:
        fields = self._mapping(entry, where, tuple(keys), ())
        data = {keys[key]: value for key, value in fields.items()}
        try:
            return model.model_validate({**data, **injected})
        except PydanticValidationError as exc:
            field_to_key = {field: key for key, field in keys.items()}
            raise self._from_pydantic(exc, where, field_to_key) from None
