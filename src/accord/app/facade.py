"""``Accord``: the composition root that wires configuration, storage, keys and the ledger."""

from __future__ import annotations

import asyncio
import dataclasses
import os
from collections.abc import Awaitable, Mapping, Sequence
from pathlib import Path
from typing import Any

from accord.approvals import (
    ApprovalItem,
    ApprovalQueue,
    Parking,
    Principal,
    Reviewer,
    TaskHandle,
    UnconfiguredReviewer,
)
from accord.auditor import verify_database
from accord.boundary import (
    Boundary,
    BoundaryService,
    BoundaryStore,
    CloseReport,
    ModelTextCrux,
)
from accord.clock import Clock, SystemClock
from accord.config import LoadedConfig, load_config
from accord.conflicts import Position
from accord.crypto import Ed25519Signer, Keyring
from accord.disputes import Case, CaseStore, Justifier, Settler, SettleRequest
from accord.disputes.approval_bridge import ApprovalBridge
from accord.disputes.dissent_store import DissentStore
from accord.disputes.outcome_view import case_outcome
from accord.disputes.reliability_cache import ReliabilityCache
from accord.disputes.reviewers import reviewer_for
from accord.disputes.session_close import (
    close_session_report,
    settle_from_receipt,
)
from accord.disputes.settle import MIN_POSITIONS
from accord.disputes.tier_two import TierTwo
from accord.errors import AccordError, StoreError, ValidationError
from accord.learning import CaseOutcome
from accord.ledger import Checkpoint, Ledger, TrustRoot, VerificationReport
from accord.ledger.witness import witnesses_from_settings
from accord.llm import LanguageModel, build_model
from accord.log import get_logger
from accord.org import OrgChart
from accord.plugins import ConfiguredProbes, load_tie_breakers
from accord.resolution import (
    AgentDecisionPort,
    StrategyRegistry,
    VerifierRegistry,
    run_isolated,
)
from accord.resolution.model_comparator import ModelSemanticComparator
from accord.store import (
    Database,
    missing_sqlite_file,
    open_database,
    resolve_database_url,
    sqlite_relative_to,
)

PASSPHRASE_ENV = "ACCORD_KEY_PASSPHRASE"
log = get_logger("accord")


class Accord:
    """One configured Accord instance: database, keys, ledger, cases and the settle service."""

    def __init__(
        self,
        *,
        db: Database,
        keyring: Keyring,
        ledger: Ledger,
        config: LoadedConfig,
        clock: Clock,
        read_only: bool = False,
    ) -> None:
        self.db = db
        self.keyring = keyring
        self.ledger = ledger
        self.config = config
        self.clock = clock
        self.read_only = read_only
        """Opened to read: no strategy plugins, probes or models are loaded, and settling,
        deciding, sweeping and closing sessions raise ``accord.read_only``."""
        self.cases = CaseStore(db)
        self.dissent = DissentStore(db)
        self.verifiers = VerifierRegistry()
        learning = config.settings.learning
        semantic_model = config.settings.settle.semantic
        semantic = (
            None
            if semantic_model is None or read_only
            else ModelSemanticComparator(build_model(semantic_model, environ=os.environ))
        )
        self.reliability = ReliabilityCache(
            self.cases, refit_every=learning.refit_every, min_answers=learning.min_answers
        )
        # plugins are other people's code: a read-only Accord imports none (nor checks the
        # policy's strategy names against them)
        self.strategies = StrategyRegistry.with_defaults(discover=not read_only)
        for problem in self.strategies.plugin_errors:
            log.warning("strategy_plugin.failed", plugin=problem.name, error=problem.error)
        if not read_only:
            config.policy.check_strategies(
                self.strategies.names(),
                source=config.source,
                settings_models=self.strategies.settings_models(),
            )
        if config.org is not None:
            config.policy.check_departments(
                [d.name for d in config.org.departments()], source=config.source
            )
        model_settings = config.settings.model
        self.model: LanguageModel | None = (
            None
            if model_settings is None or read_only
            else build_model(model_settings, environ=os.environ)
        )
        self.tier_two = TierTwo(
            policy=config.policy,
            resolver_for=self.strategies.get,
            run=run_isolated,
            org=config.org,
            model=self.model,
            decision_port=None,
            approvals=None,
        )
        self.approvals = ApprovalQueue(
            db,
            clock,
            on_event=ApprovalBridge(ledger, self.cases, clock.now),
            party_owners={}
            if config.org is None
            else {a.agent_id: a.principal_id for a in config.org.agents()},
        )
        self.parking = Parking(db, self.approvals, clock)
        self.probes = ConfiguredProbes(config, read_only=read_only)
        self.boundaries = BoundaryService(
            BoundaryStore(db, ledger.append_within),
            self.probes,
            clock,
            text_crux=ModelTextCrux(self.model) if self.model is not None else None,
            on_resolved=settle_from_receipt(self.cases, ledger, self.approvals),
        )
        load_tie_breakers(config, self.boundaries.hints)
        self.settler = Settler(
            ledger=ledger,
            store=self.cases,
            clock=clock,
            settings=config.decide,
            org=config.org,
            verifiers=self.verifiers,
            weights=self.reliability.weights if learning.reliability else None,
            semantic=semantic,
            tier_two=self.tier_two,
            approvals=self.approvals,
            approval_policy=config.approval_policy,
            limits=config.settings.limits,
        )

    def _refuse_if_read_only(self, action: str) -> None:
        if self.read_only:
            raise AccordError(
                f"cannot {action}: this Accord was opened read-only (Accord.open(read_only=True))",
                code="accord.read_only",
                action=action,
            )

    @property
    def decision_port(self) -> AgentDecisionPort | None:
        """How strategies ask an agent (e.g. the lowest common manager) to decide."""
        return self.tier_two.decision_port

    @decision_port.setter
    def decision_port(self, port: AgentDecisionPort | None) -> None:
        self.tier_two = dataclasses.replace(self.tier_two, decision_port=port)
        self.settler.tier_two = self.tier_two

    # --- settle -------------------------------------------------------------------------

    def settle(
        self,
        subject: str,
        positions: Sequence[Position | Mapping[str, Any]],
        *,
        task_type: str = "default",
        session_id: str | None = None,
    ) -> Case:
        """Turn N agents' positions into a decided (or escalated) case, persisted and signed."""
        self._refuse_if_read_only("settle")
        return self.settler.settle(SettleRequest(subject, positions, task_type, session_id))

    def settle_many(self, requests: Sequence[SettleRequest]) -> list[Case]:
        """Settle many cases in one transaction (all recorded, or none)."""
        self._refuse_if_read_only("settle")
        return self.settler.settle_many(requests)

    async def settle_async(
        self,
        subject: str,
        positions: Sequence[Position | Mapping[str, Any]],
        *,
        task_type: str = "default",
        session_id: str | None = None,
        justifier: Justifier | None = None,
        justify_timeout: float = 10.0,
    ) -> Case:
        """As :meth:`settle`; with a ``justifier`` each agent is first asked to justify itself."""
        self._refuse_if_read_only("settle")
        return await self.settler.settle_async(
            SettleRequest(subject, positions, task_type, session_id),
            justifier=justifier,
            justify_timeout=justify_timeout,
        )

    async def settle_gather(
        self,
        subject: str,
        fan_out: Mapping[str, Awaitable[Any]] | Sequence[Awaitable[Any]],
        *,
        task_type: str = "default",
        session_id: str | None = None,
        justifier: Justifier | None = None,
        justify_timeout: float = 10.0,
        timeout: float | None = None,
    ) -> Case:
        """Await a parallel fan-out and settle what came back.

        ``fan_out`` maps agent → awaitable (each may return a :class:`Position`, a position
        mapping, or a bare output, named by its key), or is the list of awaitables you would
        give ``asyncio.gather`` (each must then return a Position or a mapping with
        ``agent``). Agents that raise, or are still running after ``timeout`` seconds
        (cancelled), are left out and logged.
        """
        if isinstance(fan_out, Mapping):
            named: list[tuple[str | None, Awaitable[Any]]] = list(fan_out.items())
        elif isinstance(fan_out, Sequence) and not isinstance(fan_out, str | bytes):
            named = [(None, awaitable) for awaitable in fan_out]
        else:
            raise ValidationError(
                "fan_out must map agents to awaitables, or be a list of awaitables",
                code="settle.bad_fan_out",
                field="fan_out",
                rule="a mapping agent -> awaitable, or a list of awaitables",
            )
        results = await _gather_within(
            [awaitable for _, awaitable in named], timeout, [a for a, _ in named]
        )
        positions: list[Position | Mapping[str, Any]] = []
        for index, ((agent, _), result) in enumerate(zip(named, results, strict=True)):
            if isinstance(result, BaseException):
                where = agent if agent is not None else f"fan_out[{index}]"
                log.warning("settle_gather.agent_failed", agent=where, error=repr(result))
                continue
            positions.append(_gathered_position(agent, index, result))
        if len(positions) < MIN_POSITIONS:
            raise ValidationError(
                f"too few answers: {len(positions)} of {len(named)} agents of the fan-out "
                f"answered; settling needs at least {MIN_POSITIONS} (nothing was signed)",
                code="settle.too_few_answers",
                field="fan_out",
                rule=f"at least {MIN_POSITIONS} agents must answer",
                answered=len(positions),
                asked=len(named),
            )
        return await self.settle_async(
            subject,
            positions,
            task_type=task_type,
            session_id=session_id,
            justifier=justifier,
            justify_timeout=justify_timeout,
        )

    # --- people ---------------------------------------------------------------------------

    def park(self, case: Case | str, agent_id: str, context: Mapping[str, Any]) -> TaskHandle:
        """Park an agent's task on a case that waits for people; resume with the handle."""
        self._refuse_if_read_only("park a task")
        found = self.cases.get(case) if isinstance(case, str) else case
        if found.approval_item_id is None:
            raise ValidationError(
                f"case {found.case_id} is not waiting for a human decision",
                code="approvals.not_queued",
                field="case",
                case_id=found.case_id,
            )
        return self.parking.park(agent_id, found.approval_item_id, dict(context))

    def principal(self, principal_id: str) -> Principal:
        """A person as configured: roles come from ``approvals.principals``."""
        roles = self.config.settings.approvals.principals.get(principal_id, [])
        return Principal(principal_id=principal_id, roles=frozenset(roles))

    def register_reviewer_key(self, public_key: bytes, principal_id: str) -> str:
        """Register a reviewer key for ``principal_id`` in the ledger (a signed
        ``key_registered`` entry); returns its kid. The principal must be configured."""
        self._configured(principal_id)
        return str(self.ledger.register_key(public_key, "reviewer", principal_id).record["kid"])

    def reviewer(self, signer: Ed25519Signer) -> Reviewer:
        """The configured reviewer whose registered, unrevoked reviewer key ``signer`` is."""
        return reviewer_for(self.ledger.key_registry(), signer, self._configured)

    def os_login_reviewer(self, login: str) -> Reviewer:
        """``human:<login>`` as a reviewer without a key — only where ``accord.yaml`` opts in
        with ``approvals.allow_os_login: true``, and only for a configured reviewer."""
        if not self.config.settings.approvals.allow_os_login:
            raise UnconfiguredReviewer(
                "deciding as the OS login is off: use a reviewer key (--key), or opt in with "
                "approvals.allow_os_login: true",
                field="approvals.allow_os_login",
                rule="decisions come from a reviewer key unless the deployment opts in",
            )
        return Reviewer(self._configured(f"human:{login}"), None)

    def _configured(self, principal_id: str) -> Principal:
        if principal_id not in self.config.settings.approvals.principals:
            raise UnconfiguredReviewer(
                f"{principal_id} is not a configured reviewer (approvals.principals in "
                f"{self.config.source})",
                principal_id=principal_id,
                field="approvals.principals",
                rule="only principals configured as reviewers may decide",
            )
        return self.principal(principal_id)

    def decide(
        self,
        item_id: str,
        reviewer: Reviewer | Ed25519Signer,
        *,
        choice: str | None = None,
        deny: bool = False,
        reason: str = "",
    ) -> ApprovalItem:
        """A reviewer's signed decision on an approval item; the case settles in the same
        transaction. ``reviewer`` is a :class:`Reviewer` or a reviewer key's signer."""
        self._refuse_if_read_only("decide")
        if isinstance(reviewer, Ed25519Signer):
            reviewer = self.reviewer(reviewer)
        return self.approvals.decide(
            item_id,
            reviewer,
            outcome="denied" if deny else "approved",
            choice=None if deny else choice,
            reason=reason,
        )

    def sweep(self) -> list[ApprovalItem]:
        """Apply every due approval deadline exactly once (run it periodically)."""
        self._refuse_if_read_only("sweep")
        return self.approvals.sweep_due()

    # --- session hand-off ---------------------------------------------------------------

    def close_session(self, session_id: str) -> list[Boundary]:
        """Record a disagreement boundary for every unresolved case of the session.

        Register probes (``accord.probes.register``) and tie-breaker hints
        (``accord.boundaries.hints["task_type:field"] = TieBreaker(...)``) first; a boundary
        whose tie-breaker no single successor can run stays with people (``status == "human"``).
        """
        return list(self.close_session_report(session_id).boundaries)

    def close_session_report(self, session_id: str) -> CloseReport:
        """:meth:`close_session`, also naming the cases it skipped (``stylistic``: the agents
        differ only in wording; ``already_recorded``: an earlier close recorded them)."""
        self._refuse_if_read_only("close a session")
        self.probes.load()  # the configured probes decide which boundaries a successor runs
        return close_session_report(self.boundaries, self.cases, session_id)

    def outcomes(self) -> list[CaseOutcome]:
        """Every case as the learning loop sees it (oldest first)."""
        return [case_outcome(c) for c in self.cases.iter_documents()]

    @property
    def org(self) -> OrgChart | None:
        return self.config.org

    @classmethod
    def open(
        cls,
        config_path: str | Path | None = None,
        *,
        db_url: str | None = None,
        keys_dir: str | Path | None = None,
        clock: Clock | None = None,
        create_service_key: bool = True,
        must_exist: bool = False,
        read_only: bool = False,
    ) -> Accord:
        """Open (and migrate) the database, load keys and the ledger.

        Precedence for the database URL: ``db_url`` > ``ACCORD_DB`` > the config file >
        ``sqlite:///accord.db``; for the key directory: ``keys_dir`` > ``ACCORD_KEYS`` >
        the config file. With ``must_exist`` a SQLite file that is not there is an error
        (``store.no_database``) instead of a new, empty database — for commands that only read.
        With ``read_only`` no application code is imported (strategy plugins, probes) and no
        model is built; settling, deciding, sweeping and closing sessions are refused.
        """
        config = load_config(Path(config_path) if config_path is not None else None)
        clock = clock or SystemClock()
        settings = config.settings
        # --db and ACCORD_DB are read from the working directory; the config file's own URL
        # from the config file's folder, like its key directory and org chart
        override = db_url or os.environ.get("ACCORD_DB")
        configured = settings.database.url
        if override is None and configured is not None:
            configured = sqlite_relative_to(configured, config.base_dir)
        url = resolve_database_url(override or configured)
        missing = missing_sqlite_file(url) if must_exist else None
        if missing is not None:
            raise StoreError(
                f"no database at {missing} (settle something first, or check --db / ACCORD_DB)",
                code="store.no_database",
                path=str(missing),
            )
        db = open_database(
            url,
            sqlite_synchronous=settings.database.sqlite_synchronous,
        )
        directory = Path(keys_dir or os.environ.get("ACCORD_KEYS") or config.keys_directory())
        keyring = Keyring(
            directory, clock, allow_unsafe_permissions=settings.keys.allow_unsafe_permissions
        )
        passphrase = os.environ.get(PASSPHRASE_ENV)
        name = settings.keys.service_key
        if create_service_key:
            keyring.get_or_create(name, passphrase=passphrase)
        signer = keyring.signer(name, passphrase=passphrase)
        witnesses = witnesses_from_settings(
            settings.ledger.witnesses, base_dir=config.base_dir, source=config.source
        )
        ledger = Ledger(
            db,
            signer,
            clock,
            checkpoint_every=settings.ledger.checkpoint_every,
            on_checkpoint=witnesses,
        )
        return cls(
            db=db, keyring=keyring, ledger=ledger, config=config, clock=clock, read_only=read_only
        )

    def trust_root(self) -> TrustRoot:
        """The service key verification pins: ``keys.trust_root`` (a kid, needed once the
        service key was rotated) or else this instance's own service key."""
        kid = self.config.settings.keys.trust_root
        signer = self.ledger.signer
        if kid is None or kid == signer.kid:
            return TrustRoot(signer.kid, signer.public_key)
        return TrustRoot.from_public_keys(self.keyring.trusted_public_keys(), kid)

    def verify(
        self,
        *,
        workers: int | None = None,
        cases: bool = True,
        trusted_checkpoint: Checkpoint | None = None,
    ) -> VerificationReport:
        """Verify the whole ledger against the pinned service key and the keys it registered,
        then every stored case against what was signed about it (``VerificationFailed`` names
        the first bad entry, or ``cases.mismatch`` the first case whose rows were altered).

        ``trusted_checkpoint`` (one kept outside the database: ``accord.ledger.anchor``) also
        proves that no entry at or below its size was removed or altered. A table the check
        needs that is missing is ``store.missing_table``."""
        return verify_database(
            self.db,
            self.trust_root(),
            workers=workers,
            cases=cases,
            trusted_checkpoint=trusted_checkpoint,
        )

    def close(self) -> None:
        self.db.dispose()


async def _gather_within(
    awaitables: list[Awaitable[Any]], timeout: float | None, agents: list[str | None]
) -> list[Any]:
    """Each awaitable's result or exception; those unfinished after ``timeout`` are cancelled
    and reported as ``TimeoutError``."""
    tasks = [asyncio.ensure_future(a) for a in awaitables]
    if not tasks:
        return []
    try:
        done, pending = await asyncio.wait(tasks, timeout=timeout)
    except asyncio.CancelledError:  # the caller gave up: so do the agents, as with gather
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.gather(*pending, return_exceptions=True)
    out: list[Any] = []
    for agent, task in zip(agents, tasks, strict=True):
        if task not in done:
            out.append(TimeoutError(f"{agent or 'agent'} did not answer within {timeout} s"))
        elif task.cancelled():  # an agent cancelled itself: left out like one that failed
            out.append(asyncio.CancelledError(f"{agent or 'agent'} was cancelled"))
        else:
            error = task.exception()
            out.append(error if error is not None else task.result())
    return out


def _gathered_position(agent: str | None, index: int, result: Any) -> Position | Mapping[str, Any]:
    """One fan-out result as a position; its agent must agree with the mapping key."""
    if isinstance(result, Position):
        named_as = result.agent
    elif isinstance(result, Mapping) and "output" in result:
        named_as = result.get("agent", agent)
    elif agent is not None:
        return {"agent": agent, "output": result}
    else:
        raise ValidationError(
            f"fan_out[{index}] returned a bare output: with a list, return a Position or a "
            "mapping with agent and output",
            code="settle.bad_fan_out",
            field=f"fan_out[{index}]",
            rule="a Position or a mapping with agent and output",
        )
    if agent is not None and named_as != agent:
        raise ValidationError(
            f"fan_out[{agent!r}] returned a position for {named_as!r}",
            code="settle.bad_fan_out",
            field=f"fan_out[{agent!r}]",
            rule="the position's agent is the key it was returned under",
        )
    if isinstance(result, Position):
        return result
    return {**result, "agent": named_as}
