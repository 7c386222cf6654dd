"""The strategy registry: built-ins plus third-party strategies found through entry points.

Third-party strategies are distributions declaring, in the ``accord.strategies`` group, an
entry point whose object is a resolver class or a factory returning a resolver::

    [project.entry-points."accord.strategies"]
    coin = "accord_coin_plugin:CoinStrategy"

A plugin that raises while loading, returns something without the protocol, or clashes with a
registered name is isolated: skipped, recorded in ``plugin_errors`` and logged — the registry
never crashes because of one. :func:`run_isolated` does the same for ``resolve``: an exception
inside a strategy becomes an escalated outcome with the error as its reason.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable, Iterable

from pydantic import BaseModel, ConfigDict

from accord.errors import ValidationError
from accord.ladder.builtin import builtin_resolvers
from accord.ladder.protocol import ConflictResolver, resolver_problem
from accord.ladder.strategy_context import StrategyContext
from accord.ladder.strategy_types import Conflict, StrategyOutcome
from accord.log import get_logger

log = get_logger("accord.strategies")

ENTRY_POINT_GROUP = "accord.strategies"
"""The entry-point group third-party strategies register in."""

EntryPointSource = Callable[[str], Iterable[importlib.metadata.EntryPoint]]
"""Lists the entry points of a group (``importlib.metadata.entry_points`` by default)."""


def _installed_entry_points(group: str) -> Iterable[importlib.metadata.EntryPoint]:
    return importlib.metadata.entry_points(group=group)


class PluginError(BaseModel):
    """A plugin skipped while loading: its entry point's name and value, and the error."""

    model_config = ConfigDict(frozen=True)

    name: str
    value: str
    error: str


class StrategyRegistry:
    """Strategies by name. An object the composition root owns, never a module global."""

    def __init__(self) -> None:
        self._resolvers: dict[str, ConflictResolver] = {}
        self._plugin_errors: list[PluginError] = []

    @classmethod
    def with_defaults(
        cls,
        *,
        discover: bool = True,
        entry_points: EntryPointSource = _installed_entry_points,
    ) -> StrategyRegistry:
        """The four built-ins, then (with ``discover``) the installed plugins."""
        registry = cls()
        for resolver in builtin_resolvers():
            registry.register(resolver)
        if discover:
            registry.discover(entry_points=entry_points)
        return registry

    def register(self, resolver: ConflictResolver) -> None:
        """Add ``resolver``; ``ValidationError`` when it is not one or its name is taken.

        Codes: ``strategies.invalid_resolver``, ``strategies.duplicate``.
        """
        problem = resolver_problem(resolver)
        if problem is not None:
            raise ValidationError(problem, code="strategies.invalid_resolver")
        if resolver.name in self._resolvers:
            raise ValidationError(
                f"a strategy named {resolver.name!r} is already registered",
                code="strategies.duplicate",
                name=resolver.name,
            )
        self._resolvers[resolver.name] = resolver

    def get(self, name: str) -> ConflictResolver:
        """The strategy called ``name``; ``strategies.unknown`` lists the valid names."""
        try:
            return self._resolvers[name]
        except KeyError:
            valid = ", ".join(self.names())
            raise ValidationError(
                f"unknown strategy {name!r}; valid strategies: {valid}",
                code="strategies.unknown",
                name=name,
                valid=list(self.names()),
            ) from None

    def names(self) -> tuple[str, ...]:
        """Every registered name, sorted."""
        return tuple(sorted(self._resolvers))

    def settings_models(self) -> dict[str, type[BaseModel]]:
        """Each strategy's settings model, for strategies that declare ``settings_model``
        (so YAML settings are checked when the config loads, not when a case escalates)."""
        found: dict[str, type[BaseModel]] = {}
        for name, resolver in self._resolvers.items():
            model = getattr(resolver, "settings_model", None)
            if isinstance(model, type) and issubclass(model, BaseModel):
                found[name] = model
        return found

    def __contains__(self, name: object) -> bool:
        return name in self._resolvers

    @property
    def plugin_errors(self) -> tuple[PluginError, ...]:
        """Plugins skipped while discovering, in the order they were met."""
        return tuple(self._plugin_errors)

    def discover(
        self,
        group: str = ENTRY_POINT_GROUP,
        *,
        entry_points: EntryPointSource = _installed_entry_points,
    ) -> tuple[str, ...]:
        """Load and register every plugin of ``group``; the names registered, in order."""
        added: list[str] = []
        for entry_point in entry_points(group):
            try:
                resolver = _load(entry_point)
                self.register(resolver)
            except Exception as error:  # a plugin may raise anything: isolate it
                self._skip(entry_point, error)
                continue
            log.info("strategy_plugin_loaded", name=resolver.name, value=entry_point.value)
            added.append(resolver.name)
        return tuple(added)

    def _skip(self, entry_point: importlib.metadata.EntryPoint, error: Exception) -> None:
        text = f"{type(error).__name__}: {error}"
        self._plugin_errors.append(
            PluginError(name=entry_point.name, value=entry_point.value, error=text)
        )
        log.warning(
            "strategy_plugin_skipped",
            name=entry_point.name,
            value=entry_point.value,
            error=text,
        )


def _load(entry_point: importlib.metadata.EntryPoint) -> ConflictResolver:
    """The entry point's resolver: a class or factory is called, an instance used as is."""
    target: object = entry_point.load()
    candidate: object = target
    if isinstance(target, type) or (callable(target) and not _is_resolver(target)):
        candidate = target()
    problem = resolver_problem(candidate)
    if problem is not None or not isinstance(candidate, ConflictResolver):
        raise ValidationError(str(problem), code="strategies.invalid_resolver")
    if candidate.name != entry_point.name:
        raise ValidationError(
            f"entry point {entry_point.name!r} loads a strategy named {candidate.name!r}",
            code="strategies.name_mismatch",
        )
    return candidate


def _is_resolver(target: object) -> bool:
    return resolver_problem(target) is None


async def run_isolated(
    resolver: ConflictResolver, dispute: Conflict, ctx: StrategyContext
) -> StrategyOutcome:
    """``resolver.resolve``, with any exception (or a non-outcome) turned into an escalation."""
    name = getattr(resolver, "name", type(resolver).__name__)
    try:
        outcome = await resolver.resolve(dispute, ctx)
    except Exception as error:  # a (plugin) strategy may raise anything: escalate instead
        reason = f"strategy {name!r} failed: {type(error).__name__}: {error}"
        log.warning("strategy_failed", strategy=name, case_id=dispute.case_id, error=reason)
        return StrategyOutcome(strategy=str(name), status="escalated", escalation_reason=reason)
    if not isinstance(outcome, StrategyOutcome):
        reason = f"strategy {name!r} returned {type(outcome).__name__}, not a StrategyOutcome"
        log.warning("strategy_failed", strategy=name, case_id=dispute.case_id, error=reason)
        return StrategyOutcome(strategy=str(name), status="escalated", escalation_reason=reason)
    return outcome
