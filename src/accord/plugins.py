"""Loading application code named in accord.yaml (boundary probes) with clear errors.

Probes are imported lazily, the first time a command looks one up (``session close``,
``boundaries resolve``): commands that only read never import them, and a bad probe path
fails only the commands that run probes.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping

from pydantic import ValidationError as PydanticValidationError

from accord.boundary import Probe, ProbeRegistry, TieBreaker
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


class ConfiguredProbes(ProbeRegistry):
    """A probe registry that imports the probes ``boundary.probes`` names on first lookup."""

    def __init__(self, config: LoadedConfig, *, read_only: bool = False) -> None:
        super().__init__()
        self._config = config
        self._loaded = False
        self._failure: AccordError | None = None
        if read_only and config.settings.boundary.probes:
            self._failure = AccordError(
                "this Accord was opened read-only: it imports no probes (open it without "
                "read_only to run one)",
                code="accord.read_only",
                field="boundary.probes",
            )

    def load(self) -> None:
        """Import the configured probes now (once); a bad entry raises ``config.invalid``
        naming its key, then and on every later lookup."""
        if self._failure is not None:
            raise self._failure
        if self._loaded:
            return
        self._loaded = True
        try:
            load_probes(self._config, self)
        except AccordError as exc:
            self._failure = exc
            raise

    def get(self, name: str) -> Probe:
        self.load()
        return super().get(name)

    def names(self) -> tuple[str, ...]:
        self.load()
        return super().names()

    def __contains__(self, name: object) -> bool:
        self.load()
        return super().__contains__(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        self.load()
        return super().__len__()


def load_probes(config: LoadedConfig, probes: ProbeRegistry) -> None:
    """Import and register the configured probes (errors name the key path)."""
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
            ProbeRegistry.register(probes, probe)  # type: ignore[arg-type]
        except AccordError as exc:
            raise _error(config, where, exc.message) from exc


def load_tie_breakers(config: LoadedConfig, hints: MutableMapping[str, TieBreaker]) -> None:
    """Validate the configured tie-breaker hints (data only: nothing is imported)."""
    section = config.settings.boundary
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
