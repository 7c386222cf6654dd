"""The settle service: validate, decide, persist the case and sign it into the ledger.

One transaction writes a case with its parties, dissent, approval items and ledger entries:
nothing is half-written. :meth:`Settler.settle_many` writes its whole batch in one
transaction; concurrent :meth:`Settler.settle` / :meth:`Settler.settle_async` calls share
transactions through group commit (each case is still all-or-nothing).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection

from accord.approvals import ApprovalItem, ApprovalQueue, TimeoutPolicy, WaitForever
from accord.cases.approval import request_case_approval
from accord.cases.case import Case, SettleStatus
from accord.cases.deadlines import case_tier_deadline
from accord.cases.evidence_gathering import Justifier, gather_justifications
from accord.cases.gate import gate_agent
from accord.cases.ledger_records import case_events
from accord.cases.reliability_cache import FixedWeights, VoteWeights
from accord.cases.signable import AnswerHashes
from accord.cases.staged_approvals import StagedApprovals, StagedRequest
from accord.cases.store import CaseStore
from accord.cases.tier_two import TierTwo, run_tier_two
from accord.cases.triage import Triaged, TriageInput, TriageSettings, triage
from accord.clock import Clock
from accord.conflicts import (
    Position,
    SemanticComparator,
    detect,
    validate_positions,
)
from accord.crypto import canonical_bytes
from accord.deadlines import arm_many
from accord.errors import AccordError, CanonicalizationError, StoreError, ValidationError
from accord.ladder import VerifierRegistry, option_texts_of
from accord.ledger import Ledger, PreparedEvent
from accord.limits import Limits, exceeded
from accord.org import OrgChart, department_of_agents
from accord.printable import printable_problem
from accord.store.group_commit import GroupCommit
from accord.store.short_work import short_write
from accord.values import revised, signable

OnRecorded = Callable[[Connection, Case], None]
"""Called with the case inside the transaction that records it (its rows and ledger entries
are written): what it writes commits with the case, and raising rolls the case back."""


@dataclass(frozen=True, slots=True)
class _Prepared:
    """A decided case, its canonical ledger events and the approval items its strategy asked
    for, waiting for the writer lock."""

    case: Case
    events: list[PreparedEvent]
    approvals: list[StagedRequest]
    hashes: AnswerHashes
    """The answer hashes its events took (the case rows reuse them: a large output is
    canonicalized once, not once more per row)."""
    on_recorded: OnRecorded | None = None


@dataclass(frozen=True)
class SettleRequest:
    """One set of parallel agents' positions on one subject."""

    subject: str
    positions: Sequence[Position | Mapping[str, Any]]
    task_type: str = "default"
    session_id: str | None = None
    gate: str | None = None
    """A gate's name: the case goes straight to people, never decided at tier 1
    (:meth:`accord.Accord.request_approval`)."""


def _positions(raw: Sequence[Position | Mapping[str, Any]]) -> tuple[Position, ...]:
    if isinstance(raw, (str, bytes)) or not isinstance(raw, Sequence):
        raise ValidationError(
            "positions must be a list",
            code="settle.bad_positions",
            field="positions",
            rule="a list of positions",
        )
    out = []
    for index, item in enumerate(raw):
        if isinstance(item, Position):
            out.append(item)
        elif isinstance(item, Mapping):
            try:
                out.append(Position.model_validate(dict(item)))
            except ValidationError as exc:
                raise ValidationError(
                    f"positions[{index}]: {exc.message}",
                    code=exc.code,
                    **{**exc.context, "position": index},
                ) from exc
        else:
            raise ValidationError(
                f"positions[{index}] must be a Position or a mapping",
                code="settle.bad_positions",
                field=f"positions[{index}]",
                rule="a Position or a mapping",
            )
    return validate_positions(out)


#: A disagreement needs two sides: fewer positions are refused, never signed as agreement.
MIN_POSITIONS = 2


def check_agents_known(
    agents: Sequence[str],
    org: OrgChart | None,
    *,
    allow_unknown: bool,
    field: Callable[[int], str] = lambda index: f"positions[{index}].agent",
) -> None:
    """With an org chart, every agent must be in it (``settle.allow_unknown_agents`` lifts
    this): a typo'd agent id must not win a case. ``field`` names the index's field."""
    if org is None or allow_unknown:
        return
    for index, agent in enumerate(agents):
        if agent not in org:
            where = field(index)
            raise ValidationError(
                f"{where}: agent {agent!r} is not in the org chart "
                f"(organization {org.organization_id!r}); set settle.allow_unknown_agents: "
                "true to accept agents outside it",
                code="settle.unknown_agent",
                field=where,
                position=index,
                agent=agent,
                rule="an agent of the org chart (settle.allow_unknown_agents is false)",
            )


#: The longest subject, task type and session id a case can carry: the same limits hold
#: whether it settles at tier 1 or goes to people (an approval title is "Decide: " + subject).
MAX_LENGTHS = {"subject": 480, "task_type": 128, "session_id": 128}


def check_case_fields(subject: object, task_type: object, session_id: object) -> None:
    """The checks :meth:`Settler.settle` makes on a case's subject, task type and session id
    (non-empty, bounded, printable, signable)."""
    values = {"subject": subject, "task_type": task_type, "session_id": session_id}
    for name in ("subject", "task_type"):
        value = values[name]
        if not isinstance(value, str) or not value.strip():
            raise ValidationError(
                f"{name} must be a non-empty string",
                code="settle.bad_request",
                field=name,
                rule="a non-empty string",
            )
    for name, limit in MAX_LENGTHS.items():
        value = values[name]
        if isinstance(value, str) and len(value) > limit:
            raise ValidationError(
                f"{name} is longer than {limit} characters",
                code="settle.bad_request",
                field=name,
                rule=f"at most {limit} characters",
            )
    if session_id is not None and (not isinstance(session_id, str) or not session_id.strip()):
        raise ValidationError(
            "session_id must be a non-empty string or null",
            code="settle.bad_request",
            field="session_id",
            rule="a non-empty string or null",
        )
    try:
        canonical_bytes([subject, task_type, session_id])
    except CanonicalizationError:
        for name, value in values.items():
            _check_signable(value, name, None)
        raise
    for name, value in values.items():
        problem = None if value is None else printable_problem(str(value))
        if problem is not None:
            raise ValidationError(
                f"{name}: {problem}", code="settle.bad_request", field=name, rule=problem
            )


def _check_request(request: SettleRequest, limits: Limits) -> tuple[Position, ...]:
    check_case_fields(request.subject, request.task_type, request.session_id)
    positions = check_positions(request.positions, limits)
    if len(positions) < MIN_POSITIONS:
        plural = "" if len(positions) == 1 else "s"
        raise ValidationError(
            f"too few answers: {len(positions)} position{plural}; settling a disagreement "
            f"needs at least {MIN_POSITIONS} agents' positions",
            code="settle.too_few_positions",
            field="positions",
            rule=f"at least {MIN_POSITIONS} positions",
            count=len(positions),
        )
    return positions


def check_positions(
    raw: Sequence[Position | Mapping[str, Any]], limits: Limits
) -> tuple[Position, ...]:
    """The positions once each is valid and a signed record could carry it (its output
    within ``limits.output_bytes``); their number is not checked against the minimum."""
    count = len(raw) if isinstance(raw, Sequence) else 0
    if count > limits.positions_per_case:
        raise exceeded(
            "positions_per_case",
            limits.positions_per_case,
            count,
            field="positions",
            unit="positions",
        )
    positions = _positions(raw)
    # Canonicalize what a signed record will copy, one output at a time (its size is checked
    # against the limit, and only one output's bytes are alive at once); only when that fails,
    # walk field by field to name the culprit. Evidence content is only ever hashed.
    copied = [[p.agent, p.reasoning, list(p.sources), list(p.assumptions)] for p in positions]
    try:
        canonical_bytes(copied)
        for index, position in enumerate(positions):
            size = len(canonical_bytes(signable(position.output)))
            if size > limits.output_bytes:
                raise exceeded(
                    "output_bytes",
                    limits.output_bytes,
                    size,
                    field=f"positions[{index}].output",
                    unit="bytes",
                    position=index,
                )
    except CanonicalizationError:
        for index, position in enumerate(positions):
            fields = position.model_dump(exclude={"evidence": {"__all__": {"content"}}})
            _check_signable(fields, f"positions[{index}]", index)
        raise
    return positions


def _check_signable(value: object, field: str, position: int | None) -> None:
    """Refuse now what a signed record could not carry later (huge integers, lone surrogates)."""
    try:
        canonical_bytes(signable(value))
    except CanonicalizationError as exc:
        where = field + str(exc.context.get("path", "$"))[1:]
        rule = str(exc.context.get("rule", exc.message))
        raise ValidationError(
            f"{where}: {rule}", code=exc.code, field=where, position=position, rule=rule
        ) from None


def _full_texts(request: StagedRequest) -> tuple[str, ...]:
    """The options' full texts when some option is a label for a longer answer, else ()."""
    full = option_texts_of(request.dispute)
    return full if full != request.options else ()


class Settler:
    """Decides cases at tier 1 and records them; the heart of ``Accord.settle``."""

    def __init__(
        self,
        *,
        ledger: Ledger,
        store: CaseStore,
        clock: Clock,
        settings: TriageSettings,
        org: OrgChart | None = None,
        verifiers: VerifierRegistry | None = None,
        weights: VoteWeights | None = None,
        semantic: SemanticComparator | None = None,
        tier_two: TierTwo | None = None,
        approvals: ApprovalQueue | None = None,
        approval_policy: TimeoutPolicy | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.ledger = ledger
        self.store = store
        self.clock = clock
        self.settings = settings
        self.org = org
        self.verifiers = verifiers or VerifierRegistry()
        self._weights: VoteWeights = weights or FixedWeights()
        self.semantic = semantic
        self.tier_two = tier_two
        self.approvals = approvals
        self.approval_policy: TimeoutPolicy = approval_policy or WaitForever()
        self.limits = limits or Limits()
        #: Concurrent settle()/settle_async() callers share transactions (one fsync per batch);
        #: ``commits.max_batch = 1`` gives each call its own. A database failure (StoreError)
        #: fails the batch; any other failure is retried by halves so it stays with its case.
        self.commits: GroupCommit[_Prepared, Case] = GroupCommit(
            self._persist, batch_wide=(StoreError,)
        )

    def check(self, request: SettleRequest) -> None:
        """Every check :meth:`settle` makes on ``request`` before deciding it, writing nothing
        (``accord settle`` checks a whole file before it records any case)."""
        self._checked(request)

    def _checked(self, request: SettleRequest) -> tuple[Position, ...]:
        """The request's positions once the request, its positions and its agents are valid."""
        positions = _check_request(request, self.limits)
        objector = None if request.gate is None else gate_agent(request.gate)
        self.check_agents([p.agent for p in positions if p.agent != objector])
        return positions

    def _needs_tier_two(self, decided: Triaged) -> bool:
        return (
            self.tier_two is not None
            and decided.choice is not None
            and decided.case.status is SettleStatus.ESCALATED
        )

    async def _beyond_tier_one(self, decided: Triaged, staged: StagedApprovals) -> Case:
        """The case after the policy's strategy (the choice tier 1 was given, not a new one)."""
        tier, choice = self.tier_two, decided.choice
        if tier is None or choice is None or not self._needs_tier_two(decided):
            return decided.case
        if self.approvals is not None:
            tier = dataclasses.replace(tier, approvals=staged)
        return await run_tier_two(tier, decided.case, choice, clock=self.clock)

    def _beyond_tier_one_sync(self, decided: Triaged, staged: StagedApprovals) -> Case:
        case = decided.case
        if not self._needs_tier_two(decided):
            return case
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self._beyond_tier_one(decided, staged))
        raise AccordError(
            "this case needs a tier-2 strategy (model or approval calls): inside an event "
            "loop, call settle_async instead of settle",
            code="settle.use_async",
            case_id=case.case_id,
        )

    def _decide(
        self,
        request: SettleRequest,
        positions: tuple[Position, ...],
        started: float,
        weights: Mapping[str, float],
    ) -> Triaged:
        """Tier 1, with the policy chosen once for the case (tier 2 reuses the choice)."""
        now = self.clock.now()
        item = TriageInput(
            subject=request.subject,
            task_type=request.task_type,
            session_id=request.session_id,
            positions=positions,
            created_at=now,
        )
        tier = self.tier_two
        decided = triage(
            item,
            self.settings,
            org=self.org,
            verifiers=self.verifiers,
            weights=weights,
            semantic=self.semantic,
            decided_at=now,
            policy=None if tier is None else tier.policy,
            department=None
            if tier is None
            else department_of_agents([p.agent for p in positions], tier.org),
            manager_port=tier is not None and tier.decision_port is not None,
            gate=request.gate,
        )
        elapsed = round((time.perf_counter() - started) * 1000)
        return Triaged(revised(decided.case, duration_ms=elapsed), decided.choice)

    def _prepare(
        self,
        case: Case,
        hashes: AnswerHashes,
        staged: StagedApprovals,
        on_recorded: OnRecorded | None = None,
    ) -> _Prepared:
        """The case with its ledger events already canonical: only bytes wait for the lock."""
        events = self.ledger.prepare(case_events(case, self.org, hashes))
        return _Prepared(case, events, staged.take(case.case_id), hashes, on_recorded)

    def _persist(
        self, batch: Sequence[_Prepared], hashes: AnswerHashes | None = None
    ) -> list[Case]:
        """Sign the cases' events, store the cases (with their ledger seqs) and any approval
        items their strategies asked for — all in one transaction."""
        with self.ledger.db.write() as conn:
            return self._persist_within(conn, batch, hashes)

    def _persist_within(
        self, conn: Connection, batch: Sequence[_Prepared], hashes: AnswerHashes | None = None
    ) -> list[Case]:
        sealed = self.ledger.append_prepared_within(
            conn, [e for item in batch for e in item.events]
        )
        out, at = [], 0
        for item in batch:
            seqs = tuple(s.seq for s in sealed[at : at + len(item.events)])
            at += len(item.events)
            out.append(revised(item.case, ledger_seqs=seqs))
        joined = hashes or AnswerHashes.joined(item.hashes for item in batch)
        self.store.insert(conn, out, joined)
        armed = []
        for item, case in zip(batch, out, strict=True):
            queued = [self._write_request(conn, case, request) for request in item.approvals]
            item_deadline = next(
                (q.deadline for q in queued if q.item_id == case.approval_item_id), None
            )
            # a case above tier 1 is a dispute in escalated: its tier's deadline (R3)
            deadline = case_tier_deadline(
                case, case.decided_at or self.clock.now(), item_deadline=item_deadline
            )
            if deadline is not None:
                armed.append(deadline)
            if item.on_recorded is not None:
                item.on_recorded(conn, case)
        arm_many(conn, armed)
        return out

    def _write_request(self, conn: Connection, case: Case, request: StagedRequest) -> ApprovalItem:
        assert self.approvals is not None
        return request_case_approval(
            conn,
            self.approvals,
            case,
            item_id=request.item_id,
            summary=request.summary,
            analysis=request.analysis,
            options=request.options,
            option_texts=_full_texts(request),
            policy=self.approval_policy,
        )

    def check_positions(self, positions: Sequence[Position | Mapping[str, Any]]) -> None:
        """Every check :meth:`settle` makes on each of ``positions`` (not on how many there
        are), writing nothing: a position collected for a later settle is refused now."""
        checked = check_positions(positions, self.limits)
        self.check_agents([p.agent for p in checked])

    def check_agents(
        self,
        agents: Sequence[str],
        field: Callable[[int], str] = lambda index: f"positions[{index}].agent",
    ) -> None:
        """Every agent is one the org chart knows (unless ``settle.allow_unknown_agents``)."""
        check_agents_known(
            agents, self.org, allow_unknown=self.settings.allow_unknown_agents, field=field
        )

    def settle(self, request: SettleRequest, *, on_recorded: OnRecorded | None = None) -> Case:
        """Validate, decide and record one case (durable when this returns); ``on_recorded``
        runs in the transaction that records it."""
        started = time.perf_counter()
        positions = self._checked(request)
        staged = StagedApprovals(self.clock.now)
        case = self._beyond_tier_one_sync(
            self._decide(request, positions, started, self._weights.weights()), staged
        )
        return self.commits.submit(self._prepare(case, AnswerHashes(), staged, on_recorded))

    def settle_within(
        self, conn: Connection, request: SettleRequest, *, on_recorded: OnRecorded | None = None
    ) -> Case:
        """As :meth:`settle`, recorded inside the caller's write transaction ``conn`` (a
        deadline handler's): the case commits with the caller's work, or not at all."""
        started = time.perf_counter()
        positions = self._checked(request)
        staged = StagedApprovals(self.clock.now)
        case = self._beyond_tier_one_sync(
            self._decide(request, positions, started, self._weights.weights()), staged
        )
        prepared = self._prepare(case, AnswerHashes(), staged, on_recorded)
        return self._persist_within(conn, [prepared])[0]

    def settle_many(self, requests: Sequence[SettleRequest]) -> list[Case]:
        """Settle several cases in one transaction: all are recorded, or none."""
        if len(requests) > self.limits.cases_per_batch:
            raise exceeded(
                "cases_per_batch",
                self.limits.cases_per_batch,
                len(requests),
                field="requests",
                unit="cases",
            )
        decided = []
        for index, request in enumerate(requests):  # every request is checked before any
            started = time.perf_counter()  # model or approval call is made
            try:
                positions = self._checked(request)
            except ValidationError as exc:
                raise ValidationError(
                    f"requests[{index}]: {exc.message}",
                    code=exc.code,
                    **{**exc.context, "request": index},
                ) from exc
            decided.append(self._decide(request, positions, started, self._weights.weights()))
        hashes, staged = AnswerHashes(), StagedApprovals(self.clock.now)
        prepared = [
            self._prepare(self._beyond_tier_one_sync(item, staged), hashes, staged)
            for item in decided
        ]
        return self._persist(prepared, hashes)

    async def settle_async(
        self,
        request: SettleRequest,
        *,
        justifier: Justifier | None = None,
        justify_timeout: float = 10.0,
        on_recorded: OnRecorded | None = None,
    ) -> Case:
        """As :meth:`settle`; first asks each agent to justify itself when there is a conflict."""
        started = time.perf_counter()
        positions = self._checked(request)
        if justifier is not None and len(positions) > 1:
            detection = self.settings.detection_for(request.task_type)
            found = detect(
                positions,
                detection,
                self.semantic,
                question=request.subject,
                reference=self.clock.now(),
            )
            if found.has_conflict:
                positions = await gather_justifications(
                    justifier, positions, request.subject, timeout=justify_timeout
                )
        staged = StagedApprovals(self.clock.now)
        weights = await self._weights.weights_async()
        if self.semantic is None and self.verifiers.for_task(request.task_type) is None:
            decided = self._decide(request, positions, started, weights)
        else:  # a semantic comparator may ask its model, a verifier its source of truth,
            # synchronously (a lookup is a database row, an API, a file): not on the loop
            decided = await asyncio.to_thread(self._decide, request, positions, started, weights)
        case = await self._beyond_tier_one(decided, staged)
        prepared = self._prepare(case, AnswerHashes(), staged, on_recorded)
        # batched with the callers of this loop turn, written in place on SQLite when nothing
        # waits there, else on a worker thread (store.short_work)
        db = self.ledger.db
        return await self.commits.submit_async(prepared, lambda write: short_write(db, write))
