"""Org chart rules broken in YAML, reported at the offending item's key path."""

from __future__ import annotations

from collections.abc import Mapping

from accord.config_errors import config_error, key_path
from accord.errors import ConfigError, ValidationError


def from_chart(
    error: ValidationError,
    *,
    source: str,
    prefix: str,
    keys: Mapping[str, Mapping[str, str]],
) -> ConfigError:
    """An org chart rule broken by item ``index`` of ``collection``, at that item's key path."""
    context = dict(error.context)
    collection = context.pop("collection")
    index = context.pop("index")
    field = context.pop("field")
    rule = context.pop("rule")
    yaml_key = keys.get(collection, {}).get(field, field)
    path = key_path(prefix, [collection, index, yaml_key])
    return config_error(source, path, rule, code=error.code, **context)
