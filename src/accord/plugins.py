"""Loading application code named in accord.yaml (boundary probes) with clear errors."""

from __future__ import annotations

import importlib
from collections.abc import MutableMapping

from pydantic import ValidationError as PydanticValidationError

from accord.boundary import ProbeRegistry, TieBreaker
from accord.config import LoadedConfig
from accord.errors import AccordError, ConfigError


def _error(config: LoadedConfig, key_path: str, rule: str) -> ConfigError:
    return ConfigError(
        f"{config.source}: {key_path}: {rule}",
        code="config.invalid",
        file=config.source,
        key_path=key_path,
        rule=rule,
    )


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
        where = f"boundary.probes.{name}"
        try:
            probe = import_object(spec)
        except (ImportError, AttributeError, ValueError, TypeError) as exc:
            raise _error(config, where, f"cannot load {spec!r}: {exc}") from exc
        if getattr(probe, "name", None) != name:
            raise _error(
                config, where, f"the loaded probe is named {getattr(probe, 'name', None)!r}"
            )
        try:
            probes.register(probe)  # type: ignore[arg-type]
        except AccordError as exc:
            raise _error(config, where, exc.message) from exc
    for key, data in section.tie_breakers.items():
        where = f"boundary.tie_breakers.{key}"
        try:
            hints[key] = TieBreaker.model_validate(data)
        except (PydanticValidationError, AccordError) as exc:
            raise _error(config, where, str(exc).splitlines()[0]) from exc
