"""Wiring: builds the parts of an :class:`~accord.app.facade.Accord` from its configuration.

:func:`wire` is the library's one composition root, and the only place in it that reads environment
variables (``ACCORD_DB``, ``ACCORD_KEYS``, ``ACCORD_KEY_PASSPHRASE`` and the model providers'
API keys), from ``environ`` when one is given. Whatever differs between deployments or tests
(the model, the strategies, the decision port, the clock, the source verifiers) is injected
here, never patched in afterwards.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import TypedDict

from accord.approvals import ApprovalQueue, Parking
from accord.boundary import BoundaryService, BoundaryStore, ModelTextCrux
from accord.cases import CaseStore, Settler
from accord.cases.approval_bridge import ApprovalBridge
from accord.cases.collecting import Collecting
from accord.cases.deadlines import CaseDeadlines
from accord.cases.dissent_store import DissentStore
from accord.cases.refit_process import ProcessRefits
from accord.cases.reliability_cache import ReliabilityCache
from accord.cases.session_close import settle_from_receipt
from accord.cases.tier_two import TierTwo
from accord.clock import Clock, SystemClock
from accord.config import LoadedConfig, SettleConfig
from accord.config_errors import config_error
from accord.conflicts import EmbeddingComparator, SemanticComparator, SemanticLayers
from accord.crypto import Keyring
from accord.disputes import Disputes
from accord.errors import StoreError
from accord.ladder import (
    AgentDecisionPort,
    StrategyRegistry,
    VerifierRegistry,
    run_isolated,
)
from accord.ladder.model_comparator import ModelSemanticComparator
from accord.ledger import Ledger
from accord.ledger.witness import Witnesses, witnesses_from_settings
from accord.llm import LanguageModel, build_model
from accord.log import get_logger
from accord.plugins import ConfiguredProbes, load_tie_breakers
from accord.precedents import Precedents, PrecedentSearch, PrecedentStore
from accord.store import (
    DEFAULT_DATABASE_URL,
    Database,
    missing_sqlite_file,
    open_database,
    sqlite_relative_to,
)
from accord.webhooks import Outbox, WebhookTarget

PASSPHRASE_ENV = "ACCORD_KEY_PASSPHRASE"
DB_ENV = "ACCORD_DB"
KEYS_ENV = "ACCORD_KEYS"
log = get_logger("accord")


class WiringOptions(TypedDict, total=False):
    """What :func:`wire` (and so ``Accord.open`` and ``Accord.from_config``) accept besides
    the configuration."""

    db_url: str | None
    keys_dir: str | Path | None
    clock: Clock | None
    create_service_key: bool
    must_exist: bool
    read_only: bool
    model: LanguageModel | None
    strategies: StrategyRegistry | None
    decision_port: AgentDecisionPort | None
    verifiers: VerifierRegistry | None
    environ: Mapping[str, str] | None
    max_commit_batch: int | None
    background_refits: bool


@dataclass(frozen=True, slots=True)
class AccordParts:
    """Everything an ``Accord`` delegates to, built once by :func:`wire`."""

    db: Database
    keyring: Keyring
    ledger: Ledger
    config: LoadedConfig
    clock: Clock
    read_only: bool
    cases: CaseStore
    dissent: DissentStore
    verifiers: VerifierRegistry
    reliability: ReliabilityCache
    witnesses: Witnesses | None
    model: LanguageModel | None
    approvals: ApprovalQueue
    parking: Parking
    probes: ConfiguredProbes
    boundaries: BoundaryService
    precedents: Precedents
    disputes: Disputes
    settler: Settler
    case_deadlines: CaseDeadlines
    collecting: Collecting
    passphrase: str | None
    webhooks: Outbox


def wire(
    config: LoadedConfig,
    *,
    db_url: str | None = None,
    keys_dir: str | Path | None = None,
    clock: Clock | None = None,
    create_service_key: bool = True,
    must_exist: bool = False,
    read_only: bool = False,
    model: LanguageModel | None = None,
    strategies: StrategyRegistry | None = None,
    decision_port: AgentDecisionPort | None = None,
    verifiers: VerifierRegistry | None = None,
    environ: Mapping[str, str] | None = None,
    max_commit_batch: int | None = None,
    background_refits: bool = False,
) -> AccordParts:
    """Open (and migrate) the database, load keys and the ledger, and build every part.

    Precedence for the database URL: ``db_url`` > ``ACCORD_DB`` > the config file >
    ``sqlite:///accord.db``; for the key directory: ``keys_dir`` > ``ACCORD_KEYS`` > the
    config file. ``must_exist``: a SQLite file that is not there is ``store.no_database``
    (commands that only read). ``read_only``: no strategy plugin, probe or model is loaded,
    and settling, deciding, sweeping and closing sessions raise ``accord.read_only``.

    Injected: ``clock`` (default the system clock); ``model`` instead of the config's
    ``model:`` section; ``strategies`` instead of the built-ins and installed plugins;
    ``decision_port`` through which strategies ask an agent (e.g. the lowest common
    manager) to decide; ``verifiers`` (source verifiers by task type); ``environ`` instead
    of ``os.environ``; ``max_commit_batch`` caps how many concurrent ``settle`` calls share
    one transaction (1: each commits alone); ``background_refits`` runs the reliability
    refits of ``settle_async`` in a worker process (for a server: a refit then never holds
    its event loop; ignored for an in-memory database, which no other process can open).
    """
    env: Mapping[str, str] = os.environ if environ is None else environ
    clock = clock or SystemClock()
    db = _database(config, db_url or env.get(DB_ENV), must_exist=must_exist)
    settings = config.settings
    keyring = Keyring(
        Path(keys_dir or env.get(KEYS_ENV) or config.keys_directory()),
        clock,
        allow_unsafe_permissions=settings.keys.allow_unsafe_permissions,
    )
    passphrase = env.get(PASSPHRASE_ENV)
    name = settings.keys.service_key
    if create_service_key:
        keyring.get_or_create(name, passphrase=passphrase)
    signer = keyring.signer(name, passphrase=passphrase)
    witnesses = witnesses_from_settings(
        settings.ledger.witnesses,
        base_dir=config.base_dir,
        source=config.source,
        trust_root=settings.keys.trust_root or signer.kid,
    )
    ledger = Ledger(
        db,
        signer,
        clock,
        checkpoint_every=settings.ledger.checkpoint_every,
        on_checkpoint=witnesses,
    )
    webhooks = Outbox(db, clock)
    if not read_only:
        ledger.on_sealed = webhooks.on_sealed
        _sync_configured_webhooks(webhooks, config, env)
    semantic = None if read_only else _semantic_layers(settings.settle, env)
    strategies = _strategies(config, strategies, read_only=read_only)
    if config.org is not None:
        config.policy.check_departments(
            [d.name for d in config.org.departments()], source=config.source
        )
    if model is None and settings.model is not None and not read_only:
        model = build_model(settings.model, environ=env)
    cases = CaseStore(db)
    learning = settings.learning
    refits = None
    if background_refits and learning.reliability and db.shareable:
        refits = ProcessRefits(db.url_string(), min_answers=learning.min_answers)
        refits.start()
    reliability = ReliabilityCache(
        cases,
        refit_every=learning.refit_every,
        min_answers=learning.min_answers,
        refit_growth=learning.refit_growth,
        refits=refits,
    )
    verifiers = verifiers if verifiers is not None else VerifierRegistry()
    tier_two = TierTwo(
        policy=config.policy,
        resolver_for=strategies.get,
        run=run_isolated,
        org=config.org,
        model=model,
        decision_port=decision_port,
        approvals=None,
    )
    approvals = ApprovalQueue(
        db,
        clock,
        on_event=ApprovalBridge(ledger, cases, clock.now),
        party_owners={}
        if config.org is None
        else {a.agent_id: a.principal_id for a in config.org.agents()},
    )
    probes = ConfiguredProbes(config, read_only=read_only)
    boundaries = BoundaryService(
        BoundaryStore(db, ledger.append_within),
        probes,
        clock,
        text_crux=ModelTextCrux(model) if model is not None else None,
        on_resolved=settle_from_receipt(cases, ledger, approvals),
    )
    load_tie_breakers(config, boundaries.hints)
    settler = Settler(
        ledger=ledger,
        store=cases,
        clock=clock,
        settings=config.decide,
        org=config.org,
        verifiers=verifiers,
        weights=reliability if learning.reliability else None,
        semantic=semantic,
        tier_two=tier_two,
        approvals=approvals,
        approval_policy=config.approval_policy,
        limits=settings.limits,
    )
    if max_commit_batch is not None:
        settler.commits.max_batch = max_commit_batch
    precedents = Precedents(
        PrecedentStore(db, clock),
        PrecedentSearch(db),
        None if read_only else ledger.signer,
    )
    return AccordParts(
        db=db,
        keyring=keyring,
        ledger=ledger,
        config=config,
        clock=clock,
        read_only=read_only,
        cases=cases,
        dissent=DissentStore(db),
        verifiers=verifiers,
        reliability=reliability,
        witnesses=witnesses,
        model=model,
        approvals=approvals,
        parking=Parking(db, approvals, clock),
        probes=probes,
        boundaries=boundaries,
        precedents=precedents,
        disputes=Disputes(
            ledger,
            clock,
            precedents=precedents,
            org=config.org,
            limits=settings.limits,
            read_only=read_only,
            arbitrators=settings.arbitrators,
            policy=settings.disputes.filing.policy(),
            flag_after=settings.disputes.flag_after,
            prepared_ttl=timedelta(seconds=settings.disputes.prepared_step_seconds),
            approvals=approvals,
        ),
        settler=settler,
        case_deadlines=CaseDeadlines(cases, ledger, approvals),
        collecting=Collecting(
            db,
            clock,
            settler,
            limits=settings.limits,
            read_only=read_only,
            on_opened=webhooks.collecting_opened,
        ),
        passphrase=passphrase,
        webhooks=webhooks,
    )


def _sync_configured_webhooks(outbox: Outbox, config: LoadedConfig, env: Mapping[str, str]) -> None:
    """The ``webhooks.subscriptions`` of ``accord.yaml`` as rows (secrets read here, never
    logged); configured rows no longer in the file are removed."""
    targets = config.settings.webhooks.subscriptions
    for index, target in enumerate(targets):
        outbox.subscribe(
            target.url,
            target.events,
            agent=target.agent,
            secret=_webhook_secret(target, index, config, env),
            subscription_id=f"config:{target.name}",
            source="config",
        )
    outbox.remove_configured_except({f"config:{t.name}" for t in targets})


def _webhook_secret(
    target: WebhookTarget, index: int, config: LoadedConfig, env: Mapping[str, str]
) -> str:
    where = f"webhooks.subscriptions[{index}]"
    if target.secret_env is not None:
        secret = env.get(target.secret_env, "")
        if not secret:
            raise config_error(
                config.source,
                f"{where}.secret_env",
                f"the environment variable {target.secret_env} is not set",
                code="config.webhook_secret",
            )
        return secret
    assert target.secret_file is not None  # the settings require one of the two
    path = config.base_dir / target.secret_file
    try:
        secret = path.read_text(encoding="utf-8")[:1024].strip()
    except OSError as exc:
        raise config_error(
            config.source,
            f"{where}.secret_file",
            f"cannot read {path}: {exc.strerror}",
            code="config.webhook_secret",
        ) from None
    return secret


def _database(config: LoadedConfig, override: str | None, *, must_exist: bool) -> Database:
    """The database: ``override`` (``--db`` or ``ACCORD_DB``, read from the working
    directory), else the config file's URL (read from the config file's folder, like its key
    directory and org chart), else the default."""
    configured = config.settings.database.url
    if override is None and configured is not None:
        configured = sqlite_relative_to(configured, config.base_dir)
    url = override or configured or DEFAULT_DATABASE_URL
    missing = missing_sqlite_file(url) if must_exist else None
    if missing is not None:
        raise StoreError(
            f"no database at {missing} (settle something first, or check --db / ACCORD_DB)",
            code="store.no_database",
            path=str(missing),
        )
    return open_database(url, sqlite_synchronous=config.settings.database.sqlite_synchronous)


def _strategies(
    config: LoadedConfig, injected: StrategyRegistry | None, *, read_only: bool
) -> StrategyRegistry:
    """The injected registry, else the built-ins and (unless ``read_only``: plugins are other
    people's code) the installed plugins; the policy's strategy names are checked against it."""
    strategies = (
        injected if injected is not None else StrategyRegistry.with_defaults(discover=not read_only)
    )
    for problem in strategies.plugin_errors:
        log.warning("strategy_plugin.failed", plugin=problem.name, error=problem.error)
    if not read_only:
        config.policy.check_strategies(
            strategies.names(),
            source=config.source,
            settings_models=strategies.settings_models(),
        )
    return strategies


def _semantic_layers(settle: SettleConfig, env: Mapping[str, str]) -> SemanticComparator | None:
    """The layers asked about free-text answers no fact tells apart, cheapest first: the local
    embedding model (``settle.embedding``), then the language model (``settle.semantic``)."""
    layers: list[SemanticComparator] = []
    if settle.embedding is not None:
        layers.append(
            EmbeddingComparator.bundled(
                agree_above=settle.embedding.agree_above,
                differ_below=settle.embedding.differ_below,
            )
        )
    if settle.semantic is not None:
        layers.append(ModelSemanticComparator(build_model(settle.semantic, environ=env)))
    if not layers:
        return None
    return layers[0] if len(layers) == 1 else SemanticLayers(layers)
