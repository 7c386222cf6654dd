"""The settle service: validate, decide, persist the case and sign it into the ledger.

One transaction per call (or per batch with :meth:`Settler.settle_many`) writes the case,
its parties, its dissent and its ledger entries together: nothing is half-written.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from accord.clock import Clock
from accord.conflicts import Position, SemanticComparator, detect, validate_positions
from accord.disputes.case import Case
from accord.disputes.case_store import CaseStore
from accord.disputes.decide import DecideInput, DecideSettings, decide
from accord.disputes.evidence_gathering import Justifier, gather_justifications
from accord.disputes.ledger_records import case_events
from accord.disputes.signable import AnswerHashes
from accord.errors import ValidationError
from accord.ledger import Ledger
from accord.org import OrgChart
from accord.resolution import VerifierRegistry

WeightsSource = Callable[[], Mapping[str, float]]


@dataclass(frozen=True)
class SettleRequest:
    """One set of parallel agents' positions on one subject."""

    subject: str
    positions: Sequence[Position | Mapping[str, Any]]
    task_type: str = "default"
    session_id: str | None = None


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


def _check_request(request: SettleRequest) -> tuple[Position, ...]:
    for name in ("subject", "task_type"):
        value = getattr(request, name)
        if not isinstance(value, str) or not value.strip():
            raise ValidationError(
                f"{name} must be a non-empty string",
                code="settle.bad_request",
                field=name,
                rule="a non-empty string",
            )
    if request.session_id is not None and (
        not isinstance(request.session_id, str) or not request.session_id.strip()
    ):
        raise ValidationError(
            "session_id must be a non-empty string or null",
            code="settle.bad_request",
            field="session_id",
            rule="a non-empty string or null",
        )
    return _positions(request.positions)


class Settler:
    """Decides cases at tier 1 and records them; the heart of ``Accord.settle``."""

    def __init__(
        self,
        *,
        ledger: Ledger,
        store: CaseStore,
        clock: Clock,
        settings: DecideSettings,
        org: OrgChart | None = None,
        verifiers: VerifierRegistry | None = None,
        weights: WeightsSource | None = None,
        semantic: SemanticComparator | None = None,
    ) -> None:
        self.ledger = ledger
        self.store = store
        self.clock = clock
        self.settings = settings
        self.org = org
        self.verifiers = verifiers or VerifierRegistry()
        self._weights = weights or dict
        self.semantic = semantic

    def _decide(
        self, request: SettleRequest, positions: tuple[Position, ...], started: float
    ) -> Case:
        now = self.clock.now()
        item = DecideInput(
            subject=request.subject,
            task_type=request.task_type,
            session_id=request.session_id,
            positions=positions,
            created_at=now,
        )
        case = decide(
            item,
            self.settings,
            org=self.org,
            verifiers=self.verifiers,
            weights=self._weights(),
            semantic=self.semantic,
            decided_at=now,
        )
        elapsed = round((time.perf_counter() - started) * 1000)
        return case.model_copy(update={"duration_ms": elapsed})

    def _persist(self, batch: list[Case]) -> list[Case]:
        """Sign the cases' events, then store the cases (with their ledger seqs) — one txn."""
        hashes = AnswerHashes()
        events = [case_events(c, self.org, hashes) for c in batch]
        with self.ledger.db.write() as conn:
            sealed = self.ledger.append_within(conn, [e for evs in events for e in evs])
            out, at = [], 0
            for case, evs in zip(batch, events, strict=True):
                seqs = tuple(s.seq for s in sealed[at : at + len(evs)])
                at += len(evs)
                out.append(case.model_copy(update={"ledger_seqs": seqs}))
            self.store.insert(conn, out, hashes)
        return out

    def settle(self, request: SettleRequest) -> Case:
        """Validate, decide and record one case (durable when this returns)."""
        started = time.perf_counter()
        positions = _check_request(request)
        return self._persist([self._decide(request, positions, started)])[0]

    def settle_many(self, requests: Sequence[SettleRequest]) -> list[Case]:
        """Settle several cases in one transaction: all are recorded, or none."""
        decided = []
        for index, request in enumerate(requests):
            started = time.perf_counter()
            try:
                positions = _check_request(request)
            except ValidationError as exc:
                raise ValidationError(
                    f"requests[{index}]: {exc.message}",
                    code=exc.code,
                    **{**exc.context, "request": index},
                ) from exc
            decided.append(self._decide(request, positions, started))
        return self._persist(decided)

    async def settle_async(
        self,
        request: SettleRequest,
        *,
        justifier: Justifier | None = None,
        justify_timeout: float = 10.0,
    ) -> Case:
        """As :meth:`settle`; first asks each agent to justify itself when there is a conflict."""
        started = time.perf_counter()
        positions = _check_request(request)
        if justifier is not None and len(positions) > 1:
            detection = self.settings.detection_for(request.task_type)
            if detect(positions, detection, self.semantic).has_conflict:
                positions = await gather_justifications(
                    justifier, positions, request.subject, timeout=justify_timeout
                )
        case = self._decide(request, positions, started)
        persisted = await asyncio.to_thread(self._persist, [case])
        return persisted[0]
