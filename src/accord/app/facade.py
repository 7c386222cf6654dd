"""``Accord``: the library's facade — settle, decide, park, close sessions, verify, query.

``Accord.open`` (or ``Accord.from_config``) has :func:`accord.app.wiring.wire` build every
part, injected ones included; the facade only delegates. Its parts are private: read-only
properties name the ones users, the CLI and the service need.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Unpack

import httpx
from pydantic import ValidationError as PydanticValidationError
from sqlalchemy import Connection

from accord.app.deadline_sweep import deadline_sweep
from accord.app.gather import FanOut, gather_positions
from accord.app.idempotency import gather_payload, keyed, park_payload, settle_payload
from accord.app.wiring import AccordParts, WiringOptions, wire
from accord.approvals import (
    ActingDeadline,
    ApprovalItem,
    ApprovalQueue,
    Parking,
    Principal,
    Reviewer,
    TaskHandle,
    UnconfiguredReviewer,
)
from accord.approvals.transitions import refuse_unless_one_decision
from accord.audit import (
    DecisionReceipt,
    decided,
    decision_entry_within,
    receipt_for,
    verify_database,
)
from accord.boundary import Boundary, BoundaryService, CloseReport
from accord.cases import Case, CaseStore, Justifier, SettleRequest, gate_positions
from accord.cases.collecting import Collecting
from accord.cases.deadlines import (
    CaseDeadlines,
    case_acting_deadline,
    case_escalation_deadline,
    item_acting_deadline,
)
from accord.cases.dissent_store import DissentStore
from accord.cases.outcome_view import case_outcome
from accord.cases.reliability_cache import ReliabilityCache
from accord.cases.session_close import close_session_report
from accord.cases.undated_cases import adopt_undated_cases
from accord.clock import Clock
from accord.config import LoadedConfig, load_config
from accord.conflicts import Position
from accord.crypto import ED25519, Ed25519Signer, Keyring, derive_kid
from accord.dcp07 import export_bundle, sdk_document
from accord.deadlines import Deadline, DeadlineSweep, SweepReport
from accord.disputes import Disputes
from accord.disputes.reviewers import reviewer_for
from accord.errors import AccordError, NotFound, ValidationError, VerificationFailed
from accord.ladder import VerifierRegistry
from accord.learning import CaseOutcome
from accord.ledger import Checkpoint, Ledger, LedgerEntry, TrustRoot, VerificationReport
from accord.llm import LanguageModel
from accord.log import get_logger
from accord.org import OrgChart
from accord.plugins import ConfiguredProbes
from accord.precedents import Precedents
from accord.store import Database, IdempotentRequest, KeyTaken
from accord.webhooks import Deliverer, Outbox

log = get_logger(__name__)


class Accord:
    """One configured Accord instance: database, keys, ledger, cases and the settle service.

    Open one with :meth:`open`; the constructor takes the parts :func:`accord.app.wiring.wire`
    built. Nothing is assigned to an ``Accord`` after that (``__slots__``, frozen parts,
    read-only properties): what differs between deployments or tests is injected when it is
    opened.
    """

    __slots__ = ("_parts",)

    def __init__(self, parts: AccordParts) -> None:
        self._parts = parts

    @classmethod
    def open(
        cls, config_path: str | Path | None = None, **options: Unpack[WiringOptions]
    ) -> Accord:
        """Load ``config_path`` (None: the defaults), open (and migrate) the database, load
        keys and the ledger, and wire every part.

        Precedence for the database URL: ``db_url`` > ``ACCORD_DB`` > the config file >
        ``sqlite:///accord.db``; for the key directory: ``keys_dir`` > ``ACCORD_KEYS`` >
        the config file. With ``must_exist`` a SQLite file that is not there is an error
        (``store.no_database``) instead of a new, empty database — for commands that only read.
        With ``read_only`` no application code is imported (strategy plugins, probes) and no
        model is built; settling, deciding, sweeping and closing sessions are refused.
        ``model``, ``strategies``, ``decision_port``, ``verifiers``, ``clock`` and ``environ``
        are injected as :func:`accord.app.wiring.wire` describes; ``background_refits``
        runs ``settle_async``'s reliability refits in a worker process (what a server wants).
        """
        config = load_config(Path(config_path) if config_path is not None else None)
        return cls(wire(config, **options))

    @classmethod
    def from_config(cls, config: LoadedConfig, **options: Unpack[WiringOptions]) -> Accord:
        """As :meth:`open`, for a configuration already loaded (``accord.config.load_config``)."""
        return cls(wire(config, **options))

    # --- what users, the CLI and the service read ------------------------------------------

    @property
    def db(self) -> Database:
        """The database (for stores beside the cases, e.g. API keys)."""
        return self._parts.db

    @property
    def keyring(self) -> Keyring:
        """The key folder this instance signs with."""
        return self._parts.keyring

    @property
    def ledger(self) -> Ledger:
        """The signed, hash-chained ledger."""
        return self._parts.ledger

    @property
    def config(self) -> LoadedConfig:
        """The configuration this instance was opened with."""
        return self._parts.config

    @property
    def clock(self) -> Clock:
        """The clock every record's time comes from."""
        return self._parts.clock

    @property
    def read_only(self) -> bool:
        """Opened to read: no strategy plugins, probes or models are loaded, and settling,
        deciding, sweeping and closing sessions raise ``accord.read_only``."""
        return self._parts.read_only

    @property
    def cases(self) -> CaseStore:
        """Every case, as stored."""
        return self._parts.cases

    @property
    def dissent(self) -> DissentStore:
        """Dissent records: query, summarize, export."""
        return self._parts.dissent

    @property
    def verifiers(self) -> VerifierRegistry:
        """Source verifiers by task type (``accord.verifiers.register(task_type, verifier)``)."""
        return self._parts.verifiers

    @property
    def reliability(self) -> ReliabilityCache:
        """Agents' learned reliability weights (refit from the stored outcomes)."""
        return self._parts.reliability

    @property
    def model(self) -> LanguageModel | None:
        """The language model tier-2 strategies call (None: none configured or injected)."""
        return self._parts.model

    @property
    def approvals(self) -> ApprovalQueue:
        """The human approval queue."""
        return self._parts.approvals

    @property
    def parking(self) -> Parking:
        """Agents' tasks parked on cases that wait for people."""
        return self._parts.parking

    @property
    def probes(self) -> ConfiguredProbes:
        """Probes a successor runs to resolve a boundary (``probes.register(probe)``)."""
        return self._parts.probes

    @property
    def boundaries(self) -> BoundaryService:
        """Disagreement boundaries recorded when sessions close, and their tie-breaker hints."""
        return self._parts.boundaries

    @property
    def precedents(self) -> Precedents:
        """The jurisprudence registry: ``search``, ``get``, ``add`` (DCP-07 §7)."""
        return self._parts.precedents

    def export_precedent(self, jurisprudence_id: str, *, session_nonce: str) -> dict[str, Any]:
        """A bundle as a reference-SDK jurisprudence bundle (JSON values), signed by the service
        key (``classical_only``); ``precedents.not_found`` for an unknown id."""
        bundle = self.precedents.get(jurisprudence_id).bundle
        sdk = export_bundle(
            bundle, session_nonce=session_nonce, classical=self.ledger.signer, pq=None
        )
        return sdk_document(sdk)

    @property
    def disputes(self) -> Disputes:
        """DCP-07 disputes: ``open``, ``submit_evidence``, ``escalate``, ``withdraw``,
        ``show``, ``list``, ``export`` / ``import_sdk``; ``accord sweep`` escalates them at
        their tier deadlines."""
        return self._parts.disputes

    @property
    def case_deadlines(self) -> CaseDeadlines:
        """Settle cases' tier deadlines (R3, R4, R6): the port ``accord sweep`` fires them with."""
        return self._parts.case_deadlines

    def case_deadline(self, case_id: str) -> Deadline | None:
        """The deadline case ``case_id`` waits on (its tier's, or its approval item's §12.4
        timeout at human appeal); None when nothing is armed. ``cases.not_found`` if none."""
        with self.db.read() as conn:
            return case_escalation_deadline(conn, self.cases.get_within(conn, case_id))

    def acting_deadline(self, item: ApprovalItem) -> ActingDeadline | None:
        """The deadline that will act on ``item`` while it waits (its own §12.4 timeout or its
        case's tier deadline, whichever is sooner) and what happens then; None if decided."""
        with self.db.read() as conn:
            return item_acting_deadline(conn, item)

    def case_acting_deadline(self, case: Case) -> ActingDeadline | None:
        """The deadline that will act on ``case`` next (its waiting item's, see
        :meth:`acting_deadline`, else its tier's) and what happens then; None if none."""
        with self.db.read() as conn:
            item_id = case.approval_item_id
            item = None if item_id is None else self.approvals.get_within(conn, item_id)
            return case_acting_deadline(conn, case.case_id, item)

    @property
    def collecting(self) -> Collecting:
        """Collecting cases: ``open`` a question for named agents; each submits its own
        position (``submit``) and the last one settles it; ``accord sweep`` settles or
        abandons it at its deadline."""
        return self._parts.collecting

    @property
    def webhooks(self) -> Outbox:
        """Webhook subscriptions and the outbox (docs/webhooks.md)."""
        return self._parts.webhooks

    def webhook_deliverer(self, transport: httpx.BaseTransport | None = None) -> Deliverer:
        """A delivery pass over the outbox with the configured retries; ``transport`` is
        httpx's (tests inject one). Close it when done."""
        self._refuse_if_read_only("deliver webhooks")
        return Deliverer(
            self.db,
            self.clock,
            self.webhooks,
            self.config.settings.webhooks,
            transport=transport,
        )

    @property
    def org(self) -> OrgChart | None:
        """The org chart, when the configuration names one."""
        return self._parts.config.org

    def _refuse_if_read_only(self, action: str) -> None:
        if self.read_only:
            raise AccordError(
                f"cannot {action}: this Accord was opened read-only (Accord.open(read_only=True))",
                code="accord.read_only",
                action=action,
            )

    # --- settle -------------------------------------------------------------------------

    def settle(
        self,
        subject: str,
        positions: Sequence[Position | Mapping[str, Any]],
        *,
        task_type: str = "default",
        session_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> Case:
        """Turn N agents' positions into a decided (or escalated) case, persisted and signed.

        With ``idempotency_key``, a retry of the same request returns the case the first call
        recorded and writes nothing; the same key with a different request is refused with
        ``idempotency.conflict``, writing nothing.
        """
        self._refuse_if_read_only("settle")
        request = SettleRequest(subject, positions, task_type, session_id)
        return self._settle(request, "settle", idempotency_key)

    def request_approval(
        self,
        subject: str,
        *,
        agent_id: str,
        proposal: Any,
        gate: str,
        reason: str = "",
        task_type: str = "approval",
        session_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> Case:
        """Ask people to approve an agent's proposed action: a case that goes straight to the
        approval queue (a gate), never decided at tier 1 — however confident the agent is.

        Its positions are ``agent_id`` proposing (``approve``, the ``proposal`` as its
        evidence, so the signed records bind its hash) and the gate ``policy:<gate>``
        objecting (``reject``); the item's options are ``approve`` and ``reject``. Park the
        agent's task on the case; a reviewer decides as on any item. ``idempotency_key`` as
        for :meth:`settle`.
        """
        self._refuse_if_read_only("request an approval")
        request = SettleRequest(
            subject, gate_positions(agent_id, proposal, gate, reason), task_type, session_id, gate
        )
        return self._settle(request, "approval", idempotency_key)

    async def request_approval_async(
        self,
        subject: str,
        *,
        agent_id: str,
        proposal: Any,
        gate: str,
        reason: str = "",
        task_type: str = "approval",
        session_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> Case:
        """As :meth:`request_approval`, from an event loop (where the synchronous call is
        refused with ``settle.use_async``: queueing for people is a tier-2 step)."""
        self._refuse_if_read_only("request an approval")
        request = SettleRequest(
            subject, gate_positions(agent_id, proposal, gate, reason), task_type, session_id, gate
        )
        if idempotency_key is None:
            return await self._parts.settler.settle_async(request)
        keyed_request = keyed("approval", idempotency_key, settle_payload(request), self.clock)
        stored = await asyncio.to_thread(self._stored, keyed_request)
        if stored is not None:
            return stored
        return await self._settle_keyed_async(request, keyed_request, None, 10.0)

    def _settle(self, request: SettleRequest, scope: str, idempotency_key: str | None) -> Case:
        if idempotency_key is None:
            return self._parts.settler.settle(request)
        keyed_request = keyed(scope, idempotency_key, settle_payload(request), self.clock)
        stored = self._stored(keyed_request)
        if stored is not None:
            return stored
        try:
            return self._parts.settler.settle(request, on_recorded=_recorder(keyed_request))
        except KeyTaken:
            return self._replayed(keyed_request)

    def _stored(self, request: IdempotentRequest) -> Case | None:
        """The case a keyed settle recorded before (None: the key is new)."""
        case_id = request.stored_alone(self.db)  # the common case, a new key: one statement
        if case_id is None:
            return None
        with self.db.read() as conn:
            return self.cases.get_within(conn, case_id)

    def _replayed(self, request: IdempotentRequest) -> Case:
        """The case another call recorded under the key while this one was deciding."""
        stored = self._stored(request)
        if stored is None:  # pragma: no cover - KeyTaken means the row is committed
            raise AccordError("idempotency key vanished", code="idempotency.taken")
        return stored

    def settle_many(self, requests: Sequence[SettleRequest]) -> list[Case]:
        """Settle many cases in one transaction (all recorded, or none)."""
        self._refuse_if_read_only("settle")
        return self._parts.settler.settle_many(requests)

    def check(self, request: SettleRequest) -> None:
        """Every check :meth:`settle` makes on ``request`` before deciding it, writing nothing
        (``accord settle`` checks a whole file before it records any case)."""
        self._parts.settler.check(request)

    async def settle_async(
        self,
        subject: str,
        positions: Sequence[Position | Mapping[str, Any]],
        *,
        task_type: str = "default",
        session_id: str | None = None,
        justifier: Justifier | None = None,
        justify_timeout: float = 10.0,
        idempotency_key: str | None = None,
    ) -> Case:
        """As :meth:`settle` (``idempotency_key`` too); with a ``justifier`` each agent is
        first asked to justify itself."""
        self._refuse_if_read_only("settle")
        request = SettleRequest(subject, positions, task_type, session_id)
        if idempotency_key is None:
            return await self._parts.settler.settle_async(
                request, justifier=justifier, justify_timeout=justify_timeout
            )
        keyed_request = keyed("settle", idempotency_key, settle_payload(request), self.clock)
        stored = await asyncio.to_thread(self._stored, keyed_request)
        if stored is not None:
            return stored
        return await self._settle_keyed_async(request, keyed_request, justifier, justify_timeout)

    async def _settle_keyed_async(
        self,
        request: SettleRequest,
        keyed_request: IdempotentRequest,
        justifier: Justifier | None,
        justify_timeout: float,
    ) -> Case:
        try:
            return await self._parts.settler.settle_async(
                request,
                justifier=justifier,
                justify_timeout=justify_timeout,
                on_recorded=_recorder(keyed_request),
            )
        except KeyTaken:
            return await asyncio.to_thread(self._replayed, keyed_request)

    async def settle_gather(
        self,
        subject: str,
        fan_out: FanOut,
        *,
        task_type: str = "default",
        session_id: str | None = None,
        justifier: Justifier | None = None,
        justify_timeout: float = 10.0,
        timeout: float | None = None,
        idempotency_key: str | None = None,
    ) -> Case:
        """Await a parallel fan-out and settle what came back.

        ``fan_out`` maps agent → awaitable (each may return a :class:`Position`, a position
        mapping, or a bare output, named by its key), or is the list of awaitables you would
        give ``asyncio.gather`` (each must then return a Position or a mapping with
        ``agent``). Agents that raise, or are still running after ``timeout`` seconds
        (cancelled), are left out and logged.

        With ``idempotency_key`` the request is the subject, task type, session and (for a
        mapping) the agents' names: a retry returns the stored case without awaiting the
        fan-out (its coroutines are closed), since agents may answer differently a second time.
        """
        if idempotency_key is None:
            positions = await gather_positions(fan_out, timeout=timeout)
            return await self.settle_async(
                subject,
                positions,
                task_type=task_type,
                session_id=session_id,
                justifier=justifier,
                justify_timeout=justify_timeout,
            )
        self._refuse_if_read_only("settle")
        agents = list(fan_out) if isinstance(fan_out, Mapping) else None
        keyed_request = keyed(
            "gather",
            idempotency_key,
            gather_payload(subject, agents, task_type, session_id),
            self.clock,
        )
        try:
            stored = await asyncio.to_thread(self._stored, keyed_request)
        except BaseException:  # a conflicting key: the fan-out is never awaited
            _close_unawaited(fan_out)
            raise
        if stored is not None:
            _close_unawaited(fan_out)
            return stored
        positions = await gather_positions(fan_out, timeout=timeout)
        return await self._settle_keyed_async(
            SettleRequest(subject, positions, task_type, session_id),
            keyed_request,
            justifier,
            justify_timeout,
        )

    # --- people ---------------------------------------------------------------------------

    def park(
        self,
        case: Case | str,
        agent_id: str,
        context: Mapping[str, Any],
        *,
        idempotency_key: str | None = None,
        party_only: bool = False,
    ) -> TaskHandle:
        """Park an agent's task on a case that waits for people; resume with the handle.
        ``party_only`` (the agent's own credential acts, as over HTTP): the agent must be a
        party of the case (``approvals.not_a_party``); without it the caller orchestrates.

        With ``idempotency_key`` a retry of the same park (case, agent, context) returns the
        handle of the task the first call parked, writing nothing; the same key with a
        different park is refused with ``idempotency.conflict``.
        """
        self._refuse_if_read_only("park a task")
        found = self.cases.get(case) if isinstance(case, str) else case
        if found.approval_item_id is None:
            raise ValidationError(
                f"case {found.case_id} is not waiting for a human decision",
                code="approvals.not_queued",
                field="case",
                case_id=found.case_id,
            )
        if idempotency_key is None:
            return self.parking.park(
                agent_id, found.approval_item_id, dict(context), party_only=party_only
            )
        keyed_request = keyed(
            "park",
            idempotency_key,
            park_payload(found.approval_item_id, agent_id, context),
            self.clock,
        )
        with self.db.write() as conn:
            task_id = keyed_request.stored_within(conn)
            if task_id is not None:
                return TaskHandle(task_id, found.approval_item_id, self.parking)
            handle = self.parking.park_within(
                conn, agent_id, found.approval_item_id, dict(context), party_only=party_only
            )
            keyed_request.record_within(conn, handle.task_id)
            return handle

    def principal(self, principal_id: str) -> Principal:
        """A person as configured: roles come from ``approvals.principals``."""
        roles = self.config.settings.approvals.principals.get(principal_id, [])
        return Principal(principal_id=principal_id, roles=frozenset(roles))

    def register_reviewer_key(self, public_key: bytes, principal_id: str) -> str:
        """Register a reviewer key for ``principal_id`` in the ledger (a signed
        ``key_registered`` entry); returns its kid. The principal must be configured."""
        self._configured(principal_id)
        return str(self.ledger.register_key(public_key, "reviewer", principal_id).record["kid"])

    def register_agent_key(self, public_key: bytes, agent_id: str) -> LedgerEntry:
        """Enrol ``agent_id``'s own Ed25519 public key (its private key stays with the agent):
        a signed ``key_registered`` entry, after which records the agent signs with it verify
        as that agent's. A key registered before is refused (409); the agent id is checked as
        a principal id."""
        try:
            Principal(principal_id=agent_id)
        except PydanticValidationError as exc:
            raise ValidationError(
                f"{agent_id!r} is not an agent id",
                code="keys.bad_agent_id",
                field="agent_id",
                rule=str(exc.errors()[0]["msg"]),
            ) from None
        kid = derive_kid(ED25519, public_key)
        if self.ledger.key_registry().key(kid) is not None:
            raise AccordError(
                f"key {kid} is registered already",
                code="keys.already_registered",
                field="public_key",
                rule="a key is registered once",
                kid=kid,
            )
        return self.ledger.register_key(public_key, "agent", agent_id)

    def revoke_agent_key(self, kid: str, reason: str = "") -> LedgerEntry:
        """Revoke an agent's registered key (a signed ``key_revoked`` entry): it signs nothing
        after it. Not an agent key, or unknown: ``NotFound``; revoked before: 409."""
        key = self.ledger.key_registry().key(kid)
        if key is None or key.role != "agent":
            raise NotFound(f"no agent key {kid!r}", code="keys.not_found", kid=kid)
        if key.revoked_at is not None:
            raise AccordError(
                f"key {kid} is revoked already",
                code="keys.already_revoked",
                field="kid",
                rule="a key is revoked once",
                kid=kid,
            )
        return self.ledger.revoke_key(kid, reason)

    def key_signer(self, key_name: str) -> Ed25519Signer:
        """The signer of ``key_name`` in this instance's key folder; a sealed key opens with
        the passphrase given when it was opened (``ACCORD_KEY_PASSPHRASE``)."""
        return self.keyring.signer(key_name, passphrase=self._parts.passphrase)

    async def key_signer_async(self, key_name: str) -> Ed25519Signer:
        """As :meth:`key_signer`, from an event loop: a key not unlocked yet is read (and a
        sealed one unsealed, which runs argon2) on a worker thread, not on the loop."""
        kept = self.keyring.unlocked_signer(key_name, passphrase=self._parts.passphrase)
        if kept is not None:
            return kept
        return await asyncio.to_thread(self.key_signer, key_name)

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
        outcome: str | None = None,
    ) -> ApprovalItem:
        """A reviewer's signed decision on an approval item; the case settles in the same
        transaction. ``reviewer`` is a :class:`Reviewer` or a reviewer key's signer.

        Give exactly one of ``choice`` (one of the item's options), ``outcome`` (the
        reviewer's own outcome in words, e.g. "neither: use 42 and re-run the check": the case
        settles on it, every agent overruled) or ``deny=True``."""
        return self.approvals.decide(
            item_id,
            self._decider(reviewer, choice=choice, outcome=outcome, deny=deny),
            outcome="denied" if deny else "approved",
            choice=choice,
            reason=reason,
            written_outcome=outcome,
        )

    async def decide_async(
        self,
        item_id: str,
        reviewer: Reviewer | Ed25519Signer,
        *,
        choice: str | None = None,
        deny: bool = False,
        reason: str = "",
        outcome: str | None = None,
    ) -> ApprovalItem:
        """As :meth:`decide`, from an event loop (the decisions of one loop turn share one
        transaction; on SQLite it is written in place when nothing would wait there)."""
        return await self.approvals.decide_async(
            item_id,
            self._decider(reviewer, choice=choice, outcome=outcome, deny=deny),
            outcome="denied" if deny else "approved",
            choice=choice,
            reason=reason,
            written_outcome=outcome,
        )

    def _decider(
        self,
        reviewer: Reviewer | Ed25519Signer,
        *,
        choice: str | None,
        outcome: str | None,
        deny: bool,
    ) -> Reviewer:
        """The checks every decision makes before it is queued, and its :class:`Reviewer`."""
        self._refuse_if_read_only("decide")
        refuse_unless_one_decision(choice=choice, outcome=outcome, deny=deny)
        return self.reviewer(reviewer) if isinstance(reviewer, Ed25519Signer) else reviewer

    def receipt(self, item_id: str) -> DecisionReceipt:
        """The signed decision receipt of approval item ``item_id``: the decision, the ledger
        entry that recorded it (seq, entry hash, signing kid) and that entry's inclusion proof,
        so anyone holding the service's public key checks it offline
        (``DecisionReceipt.verify``, ``accord receipt verify``). An undecided item is refused
        (``approvals.pending``); an unknown one is ``approvals.not_found``."""
        with self.db.read() as conn:
            item = self.approvals.get_within(conn, item_id)
            decided(item)
            seq = decision_entry_within(conn, self.ledger, item_id)
        return receipt_for(item, self.ledger, seq)

    def sweep(self) -> list[ApprovalItem]:
        """Apply every due approval deadline exactly once (run it periodically)."""
        self._refuse_if_read_only("sweep")
        return self.approvals.sweep_due()

    def deadline_sweeper(self) -> DeadlineSweep:
        """The one sweeper of every deadline kind — approval timeouts, settle cases' and filed
        disputes' tiers, required actions, collecting cases — that ``accord sweep``, the
        service's sweeper and :meth:`sweep_deadlines` run (``accord.read_only`` if read-only)."""
        return deadline_sweep(
            self.db,
            self.clock,
            self.approvals,
            disputes=self.disputes.deadlines,
            cases=self.case_deadlines,
            compliance=self.disputes.compliance,
            collecting=self.collecting,
            read_only=self.read_only,
        )

    def sweep_deadlines(self) -> SweepReport:
        """Fire every due deadline of every kind exactly once, as ``accord sweep`` does."""
        return self.deadline_sweeper().run()

    def adopt_undated_cases(self) -> list[Deadline]:
        """Give every settle case an older version escalated above tier 1 without a tier
        deadline the ``case_tier`` deadline settle arms now, due its tier's span after the
        case escalated (:mod:`accord.cases.undated_cases`), in one transaction; the
        deadlines armed (logged). Those already past fire at the next sweep."""
        self._refuse_if_read_only("adopt undated cases")
        with self.db.write() as conn:
            armed = adopt_undated_cases(conn, self.clock.now())
        if armed:
            log.info(
                "cases.undated_adopted",
                count=len(armed),
                case_ids=[d.subject_id for d in armed[:100]],
            )
        return armed

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

    def trust_root_pinned(self) -> bool:
        """Whether ``accord.yaml`` names the trust root (``keys.trust_root``); without it,
        verification trusts whatever service key the key folder holds."""
        return self.config.settings.keys.trust_root is not None

    def trust_root(self, pinned: str | None = None) -> TrustRoot:
        """The service key verification pins: ``pinned`` (a kid named outside the database
        and the key folder, e.g. by a trusted checkpoint file), else ``keys.trust_root``, else
        (unpinned: trust on first use) this instance's own service key.

        A pinned kid that is neither the present service key nor a ``*.pub.json`` in the key
        folder means the folder's service key was replaced: ``ledger.trust_root_mismatch``
        (``VerificationFailed``)."""
        configured = self.config.settings.keys.trust_root
        if pinned is not None and configured is not None and pinned != configured:
            raise VerificationFailed(
                f"the trusted checkpoint pins the service key {pinned} but accord.yaml's "
                f"keys.trust_root is {configured}: one of them is not this ledger's root",
                code="ledger.trust_root_mismatch",
                field="trust_root",
                pinned=pinned,
                configured=configured,
            )
        kid = pinned or configured
        signer = self.ledger.signer
        if kid is None or kid == signer.kid:
            return TrustRoot(signer.kid, signer.public_key)
        keys = self.keyring.trusted_public_keys()
        if kid not in keys:
            raise VerificationFailed(
                f"the pinned trust root {kid} is neither the key folder's service key "
                f"({signer.kid}) nor one of its public keys: the service key was replaced, or "
                "the pin names another installation's key (a ledger signed under another key "
                "is not this ledger)",
                code="ledger.trust_root_mismatch",
                field="trust_root",
                pinned=kid,
                present=signer.kid,
            )
        return TrustRoot.from_public_keys(keys, kid)

    def verify(
        self,
        *,
        workers: int | None = None,
        cases: bool = True,
        trusted_checkpoint: Checkpoint | None = None,
        trust_root: str | None = None,
    ) -> VerificationReport:
        """Verify the whole ledger against the pinned service key and the keys it registered,
        then every stored row the audit covers against what was signed about it (cases,
        approval items, boundaries, stays, the precedent registry: ``VerificationFailed`` names
        the first bad entry, or the table, row and column of the first altered row).

        ``trusted_checkpoint`` (one kept outside the database: ``accord.ledger.anchor``) also
        proves that no entry at or below its size was removed or altered; ``trust_root`` (the
        kid such a file pins) pins the service key like ``keys.trust_root``. A table the check
        needs that is missing is ``store.missing_table``."""
        return verify_database(
            self.db,
            self.trust_root(trust_root),
            workers=workers,
            cases=cases,
            trusted_checkpoint=trusted_checkpoint,
        )

    def close(self) -> None:
        """Wait until the witness URLs were offered every checkpoint signed so far (each
        post waits at most its timeout), stop the refit worker process (``background_refits``),
        then release the database's connections."""
        witnesses = self._parts.witnesses
        if witnesses is not None:
            witnesses.close()
        self._parts.reliability.close()
        self.db.dispose()


def _recorder(request: IdempotentRequest) -> Callable[[Connection, Case], None]:
    """Records ``request``'s key for the case in the transaction that records the case."""

    def record(conn: Connection, case: Case) -> None:
        request.record_within(conn, case.case_id)

    return record


def _close_unawaited(fan_out: FanOut) -> None:
    """Close a replayed gather's coroutines (never awaited: no 'never awaited' warning)."""
    awaitables = fan_out.values() if isinstance(fan_out, Mapping) else fan_out
    for awaitable in awaitables:
        if inspect.iscoroutine(awaitable):
            awaitable.close()
        elif isinstance(awaitable, asyncio.Future):
            awaitable.cancel()
