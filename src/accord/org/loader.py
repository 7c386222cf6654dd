"""Loading an org chart from YAML: strict, and every problem points at its key path.

Every problem raises ``accord.errors.ConfigError`` whose context holds ``file``,
``key_path`` (``agents[3].manager``) and ``rule`` (a short sentence), and whose message
reads ``accord.yaml: agents[3].manager: manager 'agent:x' is not defined in agents``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from accord.config_errors import PathPart, config_error, describe, from_pydantic, key_path
from accord.errors import ConfigError, ValidationError
from accord.org._config_errors import from_chart
from accord.org._names import NAME_RULE, is_name
from accord.org.agent import Agent
from accord.org.chart import OrgChart
from accord.org.department import Department
from accord.org.seniority import SeniorityScale
from accord.strict_yaml import parse_yaml

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
    source = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        rule = f"the file is not valid UTF-8 (byte {exc.start})"
        raise config_error(source, "", rule, code="config.unreadable") from None
    except OSError as exc:
        rule = f"cannot read the file: {exc.strerror or exc}"
        raise config_error(source, "", rule, code="config.unreadable") from None
    return org_chart_from_mapping(parse_yaml(text, source=source), source=source)


def org_chart_from_mapping(
    data: Mapping[str, Any], *, source: str, key_prefix: str = ""
) -> OrgChart:
    """The org chart described by an already-parsed mapping.

    ``source`` names the file in errors; ``key_prefix`` (say ``org``) is put before every
    key path when the mapping is a section of a larger config file. A value that is not a
    mapping at all is reported as a ``ConfigError`` too.
    """
    return _Reader(source, key_prefix).chart(data)


class _Reader:
    """Reads one org document, remembering where it came from for error messages."""

    def __init__(self, source: str, prefix: str) -> None:
        self._source = source
        self._prefix = prefix

    def chart(self, data: Any) -> OrgChart:
        document = self._mapping(data, (), _TOP_KEYS, _TOP_REQUIRED)
        organization = document["organization"]
        if not isinstance(organization, str):
            raise self._wrong_type(("organization",), "a string", organization)
        if not is_name(organization):
            raise self._error(("organization",), NAME_RULE, code="config.invalid_value")
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
            raise from_chart(
                exc, source=self._source, prefix=self._prefix, keys=_FIELD_TO_KEY
            ) from None

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

    def _mapping(
        self,
        value: Any,
        where: tuple[PathPart, ...],
        allowed: Sequence[str],
        required: Sequence[str],
    ) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self._wrong_type(where, "a mapping", value)
        for key in value:
            if key not in allowed:
                rule = f"unknown key; allowed keys: {', '.join(sorted(allowed))}"
                raise self._error((*where, str(key)), rule, code="config.unknown_key")
        for key in required:
            if key not in value:
                raise self._error(
                    (*where, key), "required key is missing", code="config.missing_key"
                )
        return value

    def _list(self, value: Any, where: tuple[PathPart, ...]) -> list[Any]:
        if not isinstance(value, list):
            raise self._wrong_type(where, "a list", value)
        return value

    def _wrong_type(self, where: tuple[PathPart, ...], expected: str, value: Any) -> ConfigError:
        rule = f"expected {expected}, got {describe(value)}"
        return self._error(where, rule, code="config.wrong_type")

    def _error(self, where: tuple[PathPart, ...], rule: str, *, code: str) -> ConfigError:
        return config_error(self._source, key_path(self._prefix, where), rule, code=code)

    def _from_pydantic(
        self, exc: PydanticValidationError, where: tuple[PathPart, ...], keys: Mapping[str, str]
    ) -> ConfigError:
        first = exc.errors(include_url=False)[0]
        return from_pydantic(
            first, source=self._source, prefix=self._prefix, base=where, rename=keys
        )
