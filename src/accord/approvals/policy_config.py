"""Reading a timeout policy from YAML, with errors that name the file, key path and rule."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import TypeAdapter
from pydantic import ValidationError as PydanticValidationError

from accord.approvals.policies import TimeoutPolicy
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
        rule = _rule(first)
        if first["type"] in ("union_tag_not_found", "union_tag_invalid"):
            loc, rule = ("kind",), f"must be one of {', '.join(_KINDS)}"
        raise _config_error(source, _key_path(loc, key_prefix), rule) from exc


def _config_error(source: str, where: str, rule: str) -> ConfigError:
    return ConfigError(
        f"{source}: {where}: {rule}", code="config.invalid", file=source, key_path=where, rule=rule
    )


def _key_path(loc: tuple[int | str, ...], prefix: str) -> str:
    out = prefix
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "(top level)"


def _rule(error: Mapping[str, Any]) -> str:
    kind = error.get("type", "")
    if kind == "extra_forbidden":
        return "unknown key"
    if kind == "missing":
        return "required key is missing"
    message = str(error.get("msg", "invalid value"))
    return message.removeprefix("Value error, ")
