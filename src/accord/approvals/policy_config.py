"""Reading a timeout policy from YAML, with errors that name the file, key path and rule."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import TypeAdapter
from pydantic import ValidationError as PydanticValidationError

from accord.approvals.policies import TimeoutPolicy
from accord.config_errors import config_error, key_path, pydantic_rule
from accord.errors import ConfigError

_POLICY_ADAPTER: TypeAdapter[TimeoutPolicy] = TypeAdapter(TimeoutPolicy)
_KINDS = ("wait", "deny", "tiered", "escalation_chain")


def policy_from_mapping(data: Any, *, source: str, key_prefix: str = "") -> TimeoutPolicy:
    """Validate ``{kind: ..., ...}`` into a :data:`TimeoutPolicy` or raise ``ConfigError``."""
    if not isinstance(data, Mapping):
        raise _config_error(source, key_prefix or "(top level)", "must be a mapping with 'kind'")
    try:
        return _POLICY_ADAPTER.validate_python(data)
    except PydanticValidationError as exc:
        first = exc.errors()[0]
        loc = tuple(first["loc"])
        if loc and loc[0] == data.get("kind"):
            loc = loc[1:]  # pydantic prefixes the discriminator's value
        rule = pydantic_rule(first)
        if first["type"] in ("union_tag_not_found", "union_tag_invalid"):
            loc, rule = ("kind",), f"must be one of {', '.join(_KINDS)}"
        raise _config_error(source, key_path(key_prefix, loc) or "(top level)", rule) from exc


def _config_error(source: str, where: str, rule: str) -> ConfigError:
    return config_error(source, where, rule, code="config.invalid")
