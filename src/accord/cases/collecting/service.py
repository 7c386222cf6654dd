"""``Accord.collecting``: open a collecting case, let each party submit its own position,
settle it through the one settle path when the last arrives (or at the deadline).

Identity is the caller's: the library is handed ``by=`` (the CLI's operator, the service's
API key), never reads it from the position. A position is stored input until the case
settles — no signed record type carries a lone position — and the settled case's opening
record then signs every position that arrived.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from pydantic import ValidationError as PydanticValidationError
from sqlalchemy import Connection

from accord.approvals import refuse_non_party
from accord.cases.case import Case
from accord.cases.collecting.deadline import COLLECTING_DEADLINE, Unsettleable
from accord.cases.collecting.party_signature import verify_position_signature
from accord.cases.collecting.rows import (
    insert_collecting,
    load_collecting,
    load_many,
    page_ids,
    positions_within,
    save_move,
    signatures_within,
    store_position,
)
from accord.cases.collecting_case import MAX_COLLECT_FOR, MIN_COLLECT_FOR, CollectingCase
from accord.cases.lifecycle import move_collecting
from accord.cases.settle import (
    MIN_POSITIONS,
    OnRecorded,
    Settler,
    SettleRequest,
    check_case_fields,
)
from accord.cases.statuses import CollectingStatus
from accord.clock import Clock
from accord.conflicts import Position
from accord.crypto.record_signature import RecordSignature
from accord.deadlines import arm, cancel
from accord.errors import AccordError, IllegalTransition, NotFound, ValidationError
from accord.ids import new_id
from accord.limits import Limits, exceeded
from accord.log import get_logger
from accord.printable import MAX_ID_LENGTH, printable_problem
from accord.store import Database

log = get_logger("accord.collecting")
MAX_PAGE = 100
ALL_IN = "all_positions_in"
DEADLINE_PASSED = "deadline_passed"
TOO_FEW = "too_few_positions"


class Collecting:
    """Collecting cases: :meth:`open`, :meth:`submit`, :meth:`get`, :meth:`list`; the
    deadline sweep closes the ones whose deadline passed (``CloseOnDeadline``)."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        settler: Settler,
        *,
        limits: Limits | None = None,
        read_only: bool = False,
        on_opened: Callable[[Connection, str, str, Sequence[str], datetime], None] | None = None,
    ) -> None:
        """``on_opened(conn, collecting_id, subject, parties, deadline_at)`` runs in the
        opening transaction (the webhook outbox: the parties are told they are named)."""
        self._on_opened = on_opened
        self._db = db
        self._clock = clock
        self._settler = settler
        self._limits = limits or Limits()
        self._read_only = read_only

    # --- the library's calls ---------------------------------------------------------------

    def open(
        self,
        subject: str,
        parties: Sequence[str],
        *,
        within: timedelta | float,
        opened_by: str,
        task_type: str = "default",
        session_id: str | None = None,
        acting_agent: str | None = None,
    ) -> CollectingCase:
        """Open a case on ``subject`` that waits up to ``within`` (a duration, or seconds)
        for each of ``parties`` (2 to ``limits.positions_per_case`` distinct agents) to
        submit its position. ``acting_agent``, the agent whose credential opens it, must be
        one of them (``approvals.not_a_party``); None is an orchestrator (an admin key)."""
        self._refuse_if_read_only("open a collecting case")
        check_case_fields(subject, task_type, session_id)
        _check_id(opened_by, "opened_by")
        named = self._check_parties(parties)
        if acting_agent is not None:
            refuse_non_party(
                acting_agent, named, act="open", case_id="the collecting case", field="parties"
            )
        window = _window(within)
        now = self._clock.now()
        opened = CollectingCase(
            collecting_id=new_id("coll", now),
            subject=subject,
            task_type=task_type,
            session_id=session_id,
            parties=named,
            submitted=(),
            opened_by=opened_by,
            opened_at=now,
            deadline_at=now + window,
            status=CollectingStatus.COLLECTING,
        )
        with self._db.write() as conn:
            insert_collecting(conn, opened)
            arm(
                conn,
                kind=COLLECTING_DEADLINE,
                subject_id=opened.collecting_id,
                due_at=opened.deadline_at,
                now=now,
            )
            if self._on_opened is not None:
                self._on_opened(conn, opened.collecting_id, subject, named, opened.deadline_at)
        return opened

    def submit(
        self,
        collecting_id: str,
        position: Position | Mapping[str, Any],
        *,
        by: str,
        signature: RecordSignature | Mapping[str, Any] | None = None,
    ) -> CollectingCase:
        """``by``'s own position; once every party's is in, the case settles (the answer
        names its ``case_id``). A non-party is ``collecting.not_a_party``, a second
        submission ``collecting.already_submitted``, a closed case or a passed deadline
        ``collecting.closed`` / ``collecting.deadline_passed``.

        ``signature`` (optional) is ``by``'s own signature on the position
        (:func:`~accord.cases.collecting.party_signature.sign_position`), checked against
        the agent key the ledger registered for ``by`` before anything is stored."""
        self._refuse_if_read_only("submit a position")
        own = self._own_position(position, by)
        signed = (
            None if signature is None else self._checked_signature(collecting_id, own, signature)
        )
        now = self._clock.now()
        with self._db.write() as conn:
            current = self._existing(conn, collecting_id)
            if by not in current.parties:
                raise AccordError(
                    f"{by} is not one of the parties of {collecting_id}",
                    code="collecting.not_a_party",
                    field="by",
                    rule="only an expected party submits a position",
                    collecting_id=collecting_id,
                )
            if current.status is not CollectingStatus.COLLECTING:
                raise AccordError(
                    f"{collecting_id} is {current.status.value}: it takes no more positions",
                    code="collecting.closed",
                    field="collecting_id",
                    rule="positions are submitted while the case is collecting",
                    status=current.status.value,
                )
            if current.is_due(now):
                raise AccordError(
                    f"the deadline of {collecting_id} passed; the next sweep closes it",
                    code="collecting.deadline_passed",
                    field="collecting_id",
                    rule="positions are submitted before the deadline",
                )
            self._comparable(positions_within(conn, collecting_id), own)
            if not store_position(conn, collecting_id, own, now, signed):
                raise AccordError(
                    f"{by} already submitted its position to {collecting_id}",
                    code="collecting.already_submitted",
                    field="by",
                    rule="each party submits one position",
                    collecting_id=collecting_id,
                )
        after = self.get(collecting_id)
        if after.missing or after.status is not CollectingStatus.COLLECTING:
            return after
        try:
            self._settle(after)
        except IllegalTransition:
            pass  # another writer (a racing last submission, the sweeper) settled it first
        except AccordError as exc:
            # the position is recorded; the deadline, still armed, settles the case later
            log.warning("collecting.settle_failed", collecting_id=collecting_id, error=exc.code)
        return self.get(collecting_id)

    def signatures(self, collecting_id: str) -> dict[str, RecordSignature]:
        """Each signing party's own signature on its position (check one with
        ``party_signature.verify_position_signature`` against the settled case's positions)."""
        with self._db.read() as conn:
            self._existing(conn, collecting_id)
            return signatures_within(conn, collecting_id)

    def get(self, collecting_id: str) -> CollectingCase:
        """The collecting case as it stands (``collecting.not_found`` if there is none)."""
        with self._db.read() as conn:
            return self._existing(conn, collecting_id)

    def list(
        self,
        *,
        party: str | None = None,
        status: CollectingStatus | str | None = None,
        before: str | None = None,
        limit: int = 50,
    ) -> list[CollectingCase]:
        """Collecting cases, newest first; ``before`` (an id) pages on, ``party`` keeps a
        party's, ``status`` one status."""
        if not isinstance(limit, int) or not 1 <= limit <= MAX_PAGE:
            raise ValidationError(
                f"limit must be from 1 to {MAX_PAGE}",
                code="collecting.bad_query",
                field="limit",
                rule=f"1 <= limit <= {MAX_PAGE}",
            )
        try:
            wanted = None if status is None else CollectingStatus(status)
        except ValueError:
            raise ValidationError(
                f"unknown status {status!r}",
                code="collecting.bad_query",
                field="status",
                rule="one of " + ", ".join(s.value for s in CollectingStatus),
            ) from None
        with self._db.read() as conn:
            ids = page_ids(conn, party=party, status=wanted, before=before, limit=limit)
            return load_many(conn, ids)

    # --- the deadline sweep's port (CloseOnDeadline) -------------------------------------

    def collecting_within(self, conn: Connection, collecting_id: str) -> CollectingCase | None:
        return load_collecting(conn, collecting_id)

    def settle_within(self, conn: Connection, collecting: CollectingCase, now: datetime) -> Case:
        reason = DEADLINE_PASSED if collecting.missing else ALL_IN
        request = self._request(positions_within(conn, collecting.collecting_id), collecting)
        try:
            self._settler.check(request)  # writes nothing
        except ValidationError as exc:
            raise Unsettleable(
                f"{collecting.collecting_id}: settle refuses its positions: {exc.message}",
                collecting_id=collecting.collecting_id,
                refusal=exc.code,
            ) from exc
        return self._settler.settle_within(
            conn, request, on_recorded=self._closing(collecting, reason, now, at_deadline=True)
        )

    def abandon_within(
        self, conn: Connection, collecting: CollectingCase, now: datetime, reason: str = TOO_FEW
    ) -> CollectingCase:
        moved = move_collecting(
            collecting, CollectingStatus.ABANDONED, closed_at=now, closed_reason=reason
        )
        if not save_move(conn, moved):
            raise _closed_meanwhile(collecting)
        return moved

    # --- helpers -------------------------------------------------------------------------

    def _settle(self, collecting: CollectingCase) -> Case:
        with self._db.read() as conn:
            positions = positions_within(conn, collecting.collecting_id)
        now = self._clock.now()
        return self._settler.settle(
            self._request(positions, collecting),
            on_recorded=self._closing(collecting, ALL_IN, now, at_deadline=False),
        )

    def _closing(
        self, collecting: CollectingCase, reason: str, now: datetime, *, at_deadline: bool
    ) -> OnRecorded:
        """What the settle transaction does once the case is written: the collecting case
        moves to ``settled`` naming it (compare-and-set, so it settles once) and, unless the
        deadline itself fired, its deadline is cancelled."""

        def record(conn: Connection, case: Case) -> None:
            moved = move_collecting(
                collecting,
                CollectingStatus.SETTLED,
                case_id=case.case_id,
                closed_at=now,
                closed_reason=reason,
            )
            if not save_move(conn, moved):
                raise _closed_meanwhile(collecting)
            if not at_deadline:
                cancel(conn, kind=COLLECTING_DEADLINE, subject_id=collecting.collecting_id, now=now)

        return record

    @staticmethod
    def _request(positions: Sequence[Position], collecting: CollectingCase) -> SettleRequest:
        return SettleRequest(
            collecting.subject, positions, collecting.task_type, collecting.session_id
        )

    def _existing(self, conn: Connection, collecting_id: str) -> CollectingCase:
        found = load_collecting(conn, collecting_id) if isinstance(collecting_id, str) else None
        if found is None:
            raise NotFound(
                f"no collecting case {collecting_id!r}",
                code="collecting.not_found",
                field="collecting_id",
                collecting_id=str(collecting_id),
            )
        return found

    def _own_position(self, position: Position | Mapping[str, Any], by: str) -> Position:
        """``position`` as ``by``'s, checked as settle will check it."""
        _check_id(by, "by")
        if isinstance(position, Position):
            raw: Position | dict[str, Any] = position
            agent: object = position.agent
        elif isinstance(position, Mapping):
            raw = {**position, "agent": position.get("agent", by)}
            agent = raw["agent"]
        else:
            raise ValidationError(
                "position must be a Position or a mapping",
                code="collecting.bad_position",
                field="position",
                rule="a Position or a mapping",
            )
        if agent != by:
            raise AccordError(
                f"a position submitted by {by} cannot be {agent!r}'s",
                code="collecting.not_own_position",
                field="position.agent",
                rule="a party submits only its own position",
            )
        try:
            self._settler.check_positions([raw])
        except ValidationError as exc:
            raise _as_one_position(exc) from exc
        return raw if isinstance(raw, Position) else Position.model_validate(raw)

    def _checked_signature(
        self, collecting_id: str, position: Position, signature: RecordSignature | Mapping[str, Any]
    ) -> RecordSignature:
        if isinstance(signature, RecordSignature):
            parsed = signature
        else:
            try:
                parsed = RecordSignature.model_validate(dict(signature))
            except (PydanticValidationError, TypeError, ValueError):
                raise ValidationError(
                    "party_signature must be {alg, kid, sig_b64, domain_sep}",
                    code="collecting.bad_signature",
                    field="party_signature",
                    rule="a record signature: alg, kid, sig_b64, domain_sep",
                ) from None
        verify_position_signature(
            self._settler.ledger.key_registry(), collecting_id, position, parsed
        )
        return parsed

    def _comparable(self, arrived: Sequence[Position], own: Position) -> None:
        """``own`` is refused now if settle could not compare it with those already in
        (outputs of another kind): otherwise the case could never settle."""
        try:
            others = [p for p in arrived if p.agent != own.agent]  # a resubmission: 409 next
            self._settler.check_positions([*others, own])
        except ValidationError as exc:
            rule = str(exc.context.get("rule", exc.message))
            raise ValidationError(
                f"position: {rule} (the positions already submitted answer differently)",
                code=exc.code,
                field="position.output"
                if exc.code == "conflicts.mixed_output_types"
                else "position",
                rule=rule,
            ) from exc

    def _check_parties(self, parties: Sequence[str]) -> tuple[str, ...]:
        if isinstance(parties, (str, bytes)) or not isinstance(parties, Sequence):
            raise ValidationError(
                "parties must be a list of agent ids",
                code="collecting.bad_parties",
                field="parties",
                rule="a list of agent ids",
            )
        most = self._limits.positions_per_case
        if len(parties) > most:
            raise exceeded(
                "positions_per_case", most, len(parties), field="parties", unit="parties"
            )
        if len(parties) < MIN_POSITIONS:
            raise ValidationError(
                f"a collecting case needs at least {MIN_POSITIONS} parties",
                code="collecting.bad_parties",
                field="parties",
                rule=f"at least {MIN_POSITIONS} distinct agents",
            )
        for index, party in enumerate(parties):
            _check_id(party, f"parties[{index}]")
        if len(set(parties)) != len(parties):
            raise ValidationError(
                "parties names an agent twice",
                code="collecting.bad_parties",
                field="parties",
                rule="distinct agents",
            )
        self._settler.check_agents(list(parties), field=lambda index: f"parties[{index}]")
        return tuple(parties)

    def _refuse_if_read_only(self, action: str) -> None:
        if self._read_only:
            raise AccordError(
                f"cannot {action}: this Accord was opened read-only (Accord.open(read_only=True))",
                code="accord.read_only",
                action=action,
            )


def _window(within: object) -> timedelta:
    """``within`` as a duration, refused unless it lies in the bounds."""
    least, most = MIN_COLLECT_FOR.total_seconds(), MAX_COLLECT_FOR.total_seconds()
    if isinstance(within, timedelta):
        seconds: float | None = within.total_seconds()
    elif isinstance(within, int | float) and not isinstance(within, bool):
        seconds = float(within)
    else:
        seconds = None
    if seconds is None or not least <= seconds <= most:  # NaN fails both comparisons
        raise ValidationError(
            f"within must be a duration from {int(least)} to {int(most)} seconds",
            code="collecting.bad_deadline",
            field="within",
            rule=f"a duration from {int(least)} to {int(most)} seconds",
        )
    return timedelta(seconds=seconds)


def _check_id(value: object, field: str) -> None:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_ID_LENGTH:
        raise ValidationError(
            f"{field} must be a non-empty id of at most {MAX_ID_LENGTH} characters",
            code="collecting.bad_id",
            field=field,
            rule=f"a non-empty string of at most {MAX_ID_LENGTH} characters",
        )
    problem = printable_problem(value)
    if problem is not None:
        raise ValidationError(
            f"{field}: {problem}", code="collecting.bad_id", field=field, rule=problem
        )


def _as_one_position(exc: ValidationError) -> ValidationError:
    """Settle's refusal of ``positions[0]`` as a refusal of ``position``."""
    field = str(exc.context.get("field", "position"))
    if field.startswith("positions[0]"):
        field = "position" + field.removeprefix("positions[0]")
    elif not field.startswith("position"):
        field = f"position.{field}"
    message = exc.message.replace("positions[0]", "position")
    return type(exc)(message, code=exc.code, **{**exc.context, "field": field})


def _closed_meanwhile(collecting: CollectingCase) -> IllegalTransition:
    return IllegalTransition(
        f"collecting case {collecting.collecting_id} was closed by another writer",
        collecting_id=collecting.collecting_id,
        field="status",
        rule="a collecting case closes once (settled or abandoned)",
    )
