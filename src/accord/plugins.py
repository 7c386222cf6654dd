"""Loading application code named in accord.yaml (boundary probes) with clear errors."""

from __future__ import annotations

import importlib
from collections.abc import MutableMapping

from pydantic import ValidationError as PydanticValidationError

from accord.boundary import ProbeRegistry, TieBreaker
from accord.config import LoadedConfig
from accord.config_errors import config_error, from_pydantic, key_path
from accord.errors import AccordError, ConfigError


def _error(config: LoadedConfig, where: str, rule: str) -> ConfigError:
    return config_error(config.source, where, rule, code="config.invalid")


def import_object(spec: str) -> object:
    """``package.module:attribute`` → the object (a class is instantiated without arguments)."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ValueError("must look like package.module:attribute")
    target = getattr(importlib.import_module(module_name), attribute)
    return target() if isinstance(target, type) else target


def load_boundary_settings(
    config: LoadedConfig, probes: ProbeRegistry, hints: MutableMapping[str, TieBreaker]
) -> None:
    """Register the configured probes and tie-breaker hints (errors name the key path)."""
    section = config.settings.boundary
    for name, spec in section.probes.items():
        where = key_path("boundary", ["probes", name])
        try:
            probe = import_object(spec)
        except Exception as exc:  # the user's module may raise anything while loading
            raise _error(config, where, f"cannot load {spec!r}: {exc!r}") from exc
        if getattr(probe, "name", None) != name:
            raise _error(
                config, where, f"the loaded probe is named {getattr(probe, 'name', None)!r}"
            )
        try:
            probes.register(probe)  # type: ignore[arg-type]
        except AccordError as exc:
            raise _error(config, where, exc.message) from exc
    for key, data in section.tie_breakers.items():
        where = key_path("boundary", ["tie_breakers", key])
        try:
            hint = TieBreaker.model_validate(data)
        except PydanticValidationError as exc:
            first = exc.errors(include_url=False)[0]
            raise from_pydantic(first, source=config.source, prefix=where) from exc
        except AccordError as exc:
            field = exc.context.get("field")
            raise _error(
                config, key_path(where, [str(field)]) if field else where, exc.message
            ) from exc
        hints[key] = hint  # its probe may be registered in code after open
