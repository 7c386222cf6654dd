"""Session close and successor hand-off: boundaries in, one probe call out.

``close`` turns a session's unresolved cases into boundaries (model calls, if any, happen
before the single write transaction that records them all); ``resolve`` runs a pending
boundary's tie-breaker probe exactly once, records its receipt, and names the winning side —
with zero model tokens. The composition root settles the case from the receipt, inside the
same transaction, through ``on_resolved``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast, get_args

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection

from accord.boundary._json import canonical_size, render
from accord.boundary.crux import TextCrux
from accord.boundary.model import (
    AttemptOutcome,
    Boundary,
    BoundaryStatus,
    ProbeAttempt,
    ProbeResultRecord,
    ResolutionReceipt,
    TieBreaker,
)
from accord.boundary.probes import ProbeFailed, ProbeRegistry, run_probe
from accord.boundary.procedure import BoundaryInputs, decide_boundary
from accord.boundary.store import BoundaryStore
from accord.clock import Clock
from accord.conflicts import Detection, Position
from accord.errors import ValidationError
from accord.ids import new_hex_id
from accord.values import MISSING, revised, value_at

BOUNDARY_STATUSES: tuple[str, ...] = get_args(BoundaryStatus)
"""Every status a boundary can have (``accord boundaries list --status``)."""

OnResolved = Callable[[Connection, ResolutionReceipt], None]
"""Called inside the resolve transaction: settle the case, sign its events (or raise to undo)."""


class CaseView(BaseModel):
    """An unresolved case as the boundary room needs it (built by the composition root)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    case_id: str
    subject: str
    task_type: str
    positions: tuple[Position, ...]
    detection: Detection
    hints: dict[str, TieBreaker] = Field(default_factory=dict)
    """Case-specific tie-breakers (say, a lookup of this invoice); they override the service's."""


def transcript_bytes_of(document: Any) -> int:
    """The canonical JSON size of ``document`` (floats included), e.g. a full case record
    with every position's reasoning and evidence, its attempts and arguments."""
    return canonical_size(document)


class CloseReport(BaseModel):
    """What ``close`` did: new boundaries, cases not recorded (purely stylistic), and
    boundaries that already existed for the given cases (a repeated close records nothing)."""

    model_config = ConfigDict(frozen=True)

    session_id: str
    boundaries: tuple[Boundary, ...]
    stylistic: tuple[str, ...]
    already_recorded: tuple[Boundary, ...]


class BudgetLine(BaseModel):
    """A boundary's size against the transcript it replaces (``ratio_bp`` in basis points)."""

    model_config = ConfigDict(frozen=True)

    boundary_id: str
    case_id: str
    status: BoundaryStatus
    size_bytes: int
    transcript_bytes: int
    ratio_bp: int


class BoundaryService:
    """Records boundaries at session close and resolves them for the successor."""

    def __init__(
        self,
        store: BoundaryStore,
        probes: ProbeRegistry,
        clock: Clock,
        *,
        text_crux: TextCrux | None = None,
        hints: Mapping[str, TieBreaker] | None = None,
        on_resolved: OnResolved | None = None,
    ) -> None:
        self.store = store
        self.probes = probes
        self.clock = clock
        self.text_crux = text_crux
        self.hints: dict[str, TieBreaker] = dict(hints or {})
        self.on_resolved = on_resolved

    # --- session close ---------------------------------------------------------------------

    def close(
        self,
        session_id: str,
        cases: Sequence[CaseView],
        transcript_bytes: Mapping[str, int] | None = None,
    ) -> list[Boundary]:
        """Boundaries for every case of ``cases`` not yet recorded (see :meth:`close_report`)."""
        return list(self.close_report(session_id, cases, transcript_bytes).boundaries)

    def close_report(
        self,
        session_id: str,
        cases: Sequence[CaseView],
        transcript_bytes: Mapping[str, int] | None = None,
    ) -> CloseReport:
        """Decide and record a boundary for each case, all in one transaction.

        ``transcript_bytes`` maps case ids to the size of the transcript each boundary
        replaces; a case missing there is measured as its ``CaseView`` (positions with
        reasoning and evidence, and the detection). Every input is checked and every draft
        decided before anything is written: an error records nothing.
        """
        if not session_id.strip():
            raise ValidationError(
                "a session id is required",
                code="boundary.invalid_session",
                field="session_id",
                rule="session_id is a non-empty string",
            )
        ids = [case.case_id for case in cases]
        duplicates = sorted({case_id for case_id in ids if ids.count(case_id) > 1})
        if duplicates:
            raise ValidationError(
                f"case {duplicates[0]!r} is given more than once",
                code="boundary.duplicate_case",
                field="cases",
                rule="each case appears once",
                case_ids=duplicates,
            )
        sizes = dict(transcript_bytes or {})
        with self.store.db.read() as conn:
            existing = self.store.by_cases_within(conn, ids)
        now = self.clock.now()
        fresh: list[Boundary] = []
        stylistic: list[str] = []
        for case in cases:
            if case.case_id in existing:
                continue
            draft = decide_boundary(
                BoundaryInputs(
                    case_id=case.case_id,
                    subject=case.subject,
                    task_type=case.task_type,
                    positions=case.positions,
                    detection=case.detection,
                    hints=case.hints,
                ),
                probes=self.probes,
                hints=self.hints,
                text_crux=self.text_crux,
            )
            if draft is None:
                stylistic.append(case.case_id)
                continue
            size = sizes.get(case.case_id)
            fresh.append(
                Boundary.build(
                    draft,
                    boundary_id=new_hex_id("bnd", now),
                    session_id=session_id,
                    created_at=now,
                    transcript_bytes=(
                        size if size is not None else canonical_size(case.model_dump(mode="json"))
                    ),
                )
            )
        with self.store.db.write() as conn:
            raced = self.store.by_cases_within(conn, [b.case_id for b in fresh])
            existing.update(raced)
            fresh = [b for b in fresh if b.case_id not in raced]
            self.store.save_within(conn, fresh)
        return CloseReport(
            session_id=session_id,
            boundaries=tuple(fresh),
            stylistic=tuple(stylistic),
            already_recorded=tuple(existing[i] for i in ids if i in existing),
        )

    # --- hand-off ------------------------------------------------------------------------

    def pending(self, session_id: str | None = None) -> list[Boundary]:
        """What a successor can settle, one probe each."""
        return self.store.pending(session_id)

    def find(self, *, session_id: str | None = None, status: str | None = None) -> list[Boundary]:
        """Every boundary (oldest first), optionally of one session and one status.

        ``status`` is one of ``BOUNDARY_STATUSES``; anything else is ``boundary.bad_status``.
        """
        if status is not None and status not in BOUNDARY_STATUSES:
            raise ValidationError(
                f"unknown boundary status {status!r}; valid: {', '.join(BOUNDARY_STATUSES)}",
                code="boundary.bad_status",
                field="status",
                rule=f"one of {BOUNDARY_STATUSES}",
            )
        return self.store.find(session_id=session_id, status=cast("BoundaryStatus | None", status))

    def get(self, boundary_id: str) -> Boundary:
        return self.store.get(boundary_id)

    def attempts(self, boundary_id: str) -> list[ProbeAttempt]:
        return self.store.attempts(boundary_id)

    def budget(self, session_id: str | None = None) -> list[BudgetLine]:
        """Each boundary's size against the transcript it replaced."""
        return [
            BudgetLine(
                boundary_id=b.boundary_id,
                case_id=b.case_id,
                status=b.status,
                size_bytes=b.size_bytes,
                transcript_bytes=b.transcript_bytes,
                ratio_bp=b.size_bytes * 10_000 // b.transcript_bytes,
            )
            for b in self.store.find(session_id=session_id)
        ]

    def resolve(self, boundary_id: str, *, timeout_s: float = 10.0) -> ResolutionReceipt:
        """Run the boundary's probe once, record the receipt, and name the winners.

        Errors (each leaves the boundary pending): ``boundary.not_pending`` and
        ``boundary.unknown_probe`` before anything runs; after the run, with the attempt
        recorded and signed: ``boundary.probe_failed`` / ``boundary.probe_timeout`` /
        ``boundary.probe_inconclusive`` (:class:`ProbeFailed`) and ``boundary.not_a_party``.
        """
        boundary = self.store.get(boundary_id)
        tie_breaker = boundary.tie_breaker
        if boundary.status != "pending" or tie_breaker is None:
            raise ValidationError(
                f"boundary {boundary_id!r} is {boundary.status}, not pending",
                code="boundary.not_pending",
                field="status",
                rule="only a pending boundary can be resolved",
                boundary_id=boundary_id,
                status=boundary.status,
            )
        self.probes.get(tie_breaker.probe)
        attempted_at = self.clock.now()
        attempt = ProbeAttempt(
            attempt_id=new_hex_id("att", attempted_at),
            boundary_id=boundary.boundary_id,
            case_id=boundary.case_id,
            probe=tie_breaker.probe,
            arguments=tie_breaker.arguments,
            outcome="resolved",
            attempted_at=attempted_at,
        )
        try:
            result = run_probe(self.probes, tie_breaker, timeout_s)
        except ProbeFailed as exc:
            outcome: AttemptOutcome = (
                "timeout" if exc.code == "boundary.probe_timeout" else "failed"
            )
            self._record_failure(attempt, outcome, exc.code, exc.message, None)
            raise
        record = result.record()
        winners = tie_breaker.winner_by_result.get(result.value)
        if winners is None:
            known = sorted(tie_breaker.winner_by_result)
            error = ProbeFailed(
                f"probe {tie_breaker.probe!r} answered {result.value!r}, which decides for "
                f"no side (expected one of {known})",
                code="boundary.probe_inconclusive",
                probe=tie_breaker.probe,
                value=result.value,
                expected=known,
            )
            self._record_failure(attempt, "inconclusive", error.code, error.message, record)
            raise error
        outsiders = [agent for agent in winners if agent not in boundary.agent_ids]
        if outsiders:
            error_nap = ValidationError(
                f"probe result {result.value!r} names {', '.join(outsiders)}, not a party to "
                f"case {boundary.case_id!r}",
                code="boundary.not_a_party",
                field="winner_by_result",
                rule="the winner is one of the boundary's agents",
                agents=outsiders,
                parties=list(boundary.agent_ids),
            )
            self._record_failure(attempt, "refused", error_nap.code, error_nap.message, record)
            raise error_nap
        winning = next(entry for entry in boundary.positions if entry.agent_id in winners)
        receipt = ResolutionReceipt(
            boundary_id=boundary.boundary_id,
            case_id=boundary.case_id,
            session_id=boundary.session_id,
            probe=tie_breaker.probe,
            arguments=tie_breaker.arguments,
            result=record,
            winner_agents=tuple(a for a in boundary.agent_ids if a in winners),
            loser_agents=tuple(a for a in boundary.agent_ids if a not in winners),
            winning_conclusion=winning.conclusion,
            verified_consensus=(*boundary.consensus, _settled_line(boundary, winning.answer)),
            attempt_id=attempt.attempt_id,
            resolved_at=attempt.attempted_at,
        ).sealed()
        won = revised(attempt, result=record, detail=result.detail).sealed()
        with self.store.db.write() as conn:
            self.store.mark_resolved_within(conn, receipt, won)
            if self.on_resolved is not None:
                self.on_resolved(conn, receipt)
        return receipt

    def _record_failure(
        self,
        attempt: ProbeAttempt,
        outcome: AttemptOutcome,
        code: str,
        detail: str,
        result: ProbeResultRecord | None,
    ) -> None:
        failed = revised(
            attempt, outcome=outcome, error_code=code, detail=detail, result=result
        ).sealed()
        self.store.record_attempt(failed)


def _settled_line(boundary: Boundary, answer: Any) -> str:
    """The crux as the probe settled it, in the consensus format (``path = value``)."""
    crux = boundary.crux
    if crux is not None and crux.kind == "field" and crux.path:
        value = value_at(answer, crux.path)
        if value is not MISSING:
            return f"{crux.path} = {render(value, None)}"
    return f"answer = {render(answer, None)}"
