"""Close, hand off and resolve, persisted on both engines with every event signed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Connection, func, select

from accord.boundary import (
    BoundaryService,
    BoundaryStore,
    ModelTextCrux,
    ProbeFailed,
    ProbeRegistry,
    ResolutionReceipt,
    TieBreaker,
)
from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer, content_hash
from accord.errors import NotFound, ValidationError
from accord.ledger import Ledger, TrustRoot
from accord.llm import ScriptedModel
from accord.store import Database
from accord.store.tables import boundaries, boundary_attempts, ledger_entries

from ._builders import (
    FailingProbe,
    FixedProbe,
    HangingProbe,
    currency_split,
    erp_hint,
    pos,
    view,
)


def _verify(ledger: Ledger, signer: Ed25519Signer) -> int:
    return ledger.verify(TrustRoot(signer.kid, signer.public_key)).entries


def _count(db: Database, table: object) -> int:
    with db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())  # type: ignore[arg-type]


def _service(
    store: BoundaryStore, probe: object, clock: FrozenClock, **kwargs: object
) -> BoundaryService:
    registry = ProbeRegistry()
    registry.register(probe)  # type: ignore[arg-type]
    return BoundaryService(
        store,
        registry,
        clock,
        hints={"invoice.total:total.currency": erp_hint()},
        **kwargs,  # type: ignore[arg-type]
    )


def test_close_records_signed_boundaries_and_pending_lists_them(
    service: BoundaryService, ledger: Ledger, signer: Ed25519Signer, db: Database
) -> None:
    cases = [
        currency_split("case:1"),
        view("case:2", pos("a", 1200), pos("b", 1450)),  # no hint → human
        view("case:3", pos("a", "ok"), pos("b", "ok")),  # consensus
    ]
    recorded = service.close("session:7", cases, {"case:1": 50_000})
    assert [b.status for b in recorded] == ["pending", "human", "consensus"]
    assert recorded[0].transcript_bytes == 50_000
    assert recorded[1].transcript_bytes > 0  # measured from the case view
    assert [b.boundary_id for b in service.pending("session:7")] == [recorded[0].boundary_id]
    assert service.pending("session:other") == []
    assert service.pending() == service.pending("session:7")
    stored = service.get(recorded[0].boundary_id)
    assert stored == recorded[0]
    stored.verify_digest()
    assert _verify(ledger, signer) == 3
    entries = list(ledger.entries())
    assert [e.event_type for e in entries] == ["boundary_recorded"] * 3
    assert entries[0].record == {**recorded[0].record(), "size_bytes": recorded[0].size_bytes}
    assert _count(db, boundaries) == 3
    found = service.store.find(session_id="session:7", status=["human", "consensus"])
    assert sorted(b.status for b in found) == ["consensus", "human"]


def test_close_is_idempotent(service: BoundaryService, ledger: Ledger) -> None:
    first = service.close_report("s", [currency_split()])
    again = service.close_report("s", [currency_split(), view("case:9", pos("a", 1), pos("b", 1))])
    assert [b.case_id for b in again.boundaries] == ["case:9"]
    assert again.already_recorded == first.boundaries
    assert ledger.count_by_event_type() == {"boundary_recorded": 2}


def test_close_reports_stylistic_cases_without_recording_them(service: BoundaryService) -> None:
    report = service.close_report(
        "s",
        [
            view(
                "case:s",
                pos("a", "**Approve** the refund for order 7 today"),
                pos("b", "approve the refund for order 7 today"),
            )
        ],
    )
    assert report.boundaries == ()
    assert report.stylistic == ("case:s",)


@pytest.mark.parametrize(
    ("session", "cases", "code"),
    [
        ("  ", [], "boundary.invalid_session"),
        ("s", [currency_split("case:1"), currency_split("case:1")], "boundary.duplicate_case"),
        (
            "s",
            [currency_split("case:1"), view("case:2", pos("a", 1))],
            "boundary.too_few_positions",
        ),
    ],
)
def test_bad_close_writes_nothing(
    service: BoundaryService, db: Database, session: str, cases: list[object], code: str
) -> None:
    with pytest.raises(ValidationError) as info:
        service.close(session, cases)  # type: ignore[arg-type]
    assert info.value.code == code
    assert _count(db, boundaries) == 0
    assert _count(db, ledger_entries) == 0


def test_bad_transcript_size_writes_nothing(service: BoundaryService, db: Database) -> None:
    with pytest.raises(ValidationError) as info:
        service.close("s", [currency_split("case:1"), currency_split("case:2")], {"case:2": 0})
    assert info.value.code == "boundary.invalid_transcript_size"
    assert _count(db, boundaries) == 0


def test_resolve_runs_the_probe_once_picks_the_group_and_uses_no_model(
    store: BoundaryStore,
    erp: FixedProbe,
    frozen_clock: FrozenClock,
    ledger: Ledger,
    signer: Ed25519Signer,
) -> None:
    model = ScriptedModel([])
    service = _service(store, erp, frozen_clock, text_crux=ModelTextCrux(model))
    (boundary,) = service.close("s", [currency_split()])
    receipt = service.resolve(boundary.boundary_id)
    assert len(erp.calls) == 1
    assert model.requests == []  # the successor needs zero model tokens
    assert receipt.winner_agents == ("agent:audit",)
    assert receipt.loser_agents == ("agent:billing",)
    assert receipt.winning_answer == {
        "total": {"amount": 1200, "currency": "USD"},
        "vendor": "ACME",
    }
    assert receipt.verified_consensus[-1] == "total.currency = USD"
    assert receipt.result.evidence == {"row": {"currency": "USD", "rate": {"$decimal": "1.08"}}}
    assert receipt.receipt_hash == content_hash(receipt.record())
    resolved = service.get(boundary.boundary_id)
    assert resolved.status == "resolved"
    assert resolved.resolution is not None
    assert resolved.resolution["receipt_hash"] == receipt.receipt_hash
    assert service.pending() == []
    (attempt,) = service.attempts(boundary.boundary_id)
    assert attempt.outcome == "resolved"
    assert attempt.attempt_id == receipt.attempt_id
    assert ledger.count_by_event_type() == {
        "boundary_recorded": 1,
        "boundary_probe_attempted": 1,
        "boundary_resolved": 1,
    }
    last = list(ledger.entries())[-1]
    assert last.record["receipt_hash"] == receipt.receipt_hash
    assert last.record["digest"] == boundary.digest
    assert _verify(ledger, signer) == 3
    with pytest.raises(ValidationError) as info:
        service.resolve(boundary.boundary_id)
    assert info.value.code == "boundary.not_pending"
    assert len(erp.calls) == 1


def test_resolving_a_human_boundary_is_refused(service: BoundaryService, erp: FixedProbe) -> None:
    (boundary,) = service.close("s", [view("case:2", pos("a", 1), pos("b", 5))])
    with pytest.raises(ValidationError) as info:
        service.resolve(boundary.boundary_id)
    assert info.value.code == "boundary.not_pending"
    assert erp.calls == []


def test_unknown_boundary(service: BoundaryService) -> None:
    with pytest.raises(NotFound) as info:
        service.resolve("bnd:" + "0" * 32)
    assert info.value.code == "boundary.not_found"


@pytest.fixture
def hanging() -> Iterator[HangingProbe]:
    probe = HangingProbe()
    yield probe
    probe.release.set()


@pytest.mark.parametrize("kind", ["failed", "timeout"])
def test_a_failed_or_timed_out_probe_is_recorded_and_the_boundary_stays_pending(
    store: BoundaryStore,
    frozen_clock: FrozenClock,
    ledger: Ledger,
    signer: Ed25519Signer,
    hanging: HangingProbe,
    db: Database,
    kind: str,
) -> None:
    probe = FailingProbe() if kind == "failed" else hanging
    service = _service(store, probe, frozen_clock)
    (boundary,) = service.close("s", [currency_split()])
    with pytest.raises(ProbeFailed) as info:
        service.resolve(boundary.boundary_id, timeout_s=0.05)
    assert info.value.code == f"boundary.probe_{kind}"
    assert service.get(boundary.boundary_id) == boundary  # nothing half-written
    assert service.pending() == [boundary]
    (attempt,) = service.attempts(boundary.boundary_id)
    assert attempt.outcome == kind
    assert attempt.error_code == info.value.code
    assert attempt.receipt_hash == content_hash(attempt.record())
    assert ledger.count_by_event_type() == {"boundary_recorded": 1, "boundary_probe_attempted": 1}
    assert _count(db, boundary_attempts) == 1
    assert _verify(ledger, signer) == 2


def test_an_inconclusive_result_is_recorded_and_stays_pending(
    store: BoundaryStore, frozen_clock: FrozenClock
) -> None:
    service = _service(store, FixedProbe("erp.currency", "GBP"), frozen_clock)
    (boundary,) = service.close("s", [currency_split()])
    with pytest.raises(ProbeFailed) as info:
        service.resolve(boundary.boundary_id)
    assert info.value.code == "boundary.probe_inconclusive"
    assert info.value.context["expected"] == ["EUR", "USD"]
    (attempt,) = service.attempts(boundary.boundary_id)
    assert attempt.outcome == "inconclusive"
    assert attempt.result is not None
    assert attempt.result.value == "GBP"
    assert service.get(boundary.boundary_id).status == "pending"


def test_a_winner_that_was_not_a_party_is_refused(
    store: BoundaryStore, frozen_clock: FrozenClock, erp: FixedProbe
) -> None:
    service = _service(store, erp, frozen_clock)
    case = currency_split()
    hint = erp_hint(winner_by_result={"USD": ("agent:intruder",), "EUR": ("agent:billing",)})
    case = case.model_copy(update={"hints": {"invoice.total": hint}})
    (boundary,) = service.close("s", [case])
    with pytest.raises(ValidationError) as info:
        service.resolve(boundary.boundary_id)
    assert info.value.code == "boundary.not_a_party"
    assert info.value.context["agents"] == ["agent:intruder"]
    assert len(erp.calls) == 1
    (attempt,) = service.attempts(boundary.boundary_id)
    assert attempt.outcome == "refused"
    assert service.get(boundary.boundary_id).status == "pending"


def test_an_unregistered_probe_at_resolve_time_runs_and_writes_nothing(
    store: BoundaryStore, frozen_clock: FrozenClock, erp: FixedProbe, ledger: Ledger
) -> None:
    (boundary,) = _service(store, erp, frozen_clock).close("s", [currency_split()])
    successor = BoundaryService(store, ProbeRegistry(), frozen_clock)
    with pytest.raises(ValidationError) as info:
        successor.resolve(boundary.boundary_id)
    assert info.value.code == "boundary.unknown_probe"
    assert successor.attempts(boundary.boundary_id) == []
    assert ledger.count_by_event_type() == {"boundary_recorded": 1}


def test_on_resolved_runs_in_the_same_transaction_and_can_undo_it(
    store: BoundaryStore, frozen_clock: FrozenClock, erp: FixedProbe, ledger: Ledger
) -> None:
    seen: list[tuple[bool, ResolutionReceipt]] = []

    def settle_case(conn: Connection, receipt: ResolutionReceipt) -> None:
        seen.append((conn.in_transaction(), receipt))
        raise RuntimeError("case store unavailable")

    service = _service(store, erp, frozen_clock, on_resolved=settle_case)
    (boundary,) = service.close("s", [currency_split()])
    with pytest.raises(RuntimeError):
        service.resolve(boundary.boundary_id)
    assert seen
    assert seen[0][0] is True
    assert seen[0][1].case_id == "case:1"
    assert service.get(boundary.boundary_id).status == "pending"
    assert service.attempts(boundary.boundary_id) == []
    assert ledger.count_by_event_type() == {"boundary_recorded": 1}


def test_a_concurrent_resolution_is_refused_by_compare_and_set(
    store: BoundaryStore, frozen_clock: FrozenClock, erp: FixedProbe, db: Database
) -> None:
    service = _service(store, erp, frozen_clock)
    (boundary,) = service.close("s", [currency_split()])
    service.resolve(boundary.boundary_id)
    from accord.boundary import ProbeAttempt

    receipt = ResolutionReceipt(
        boundary_id=boundary.boundary_id,
        case_id="case:1",
        session_id="s",
        probe="erp.currency",
        arguments={},
        result={"value": "EUR", "detail": "", "evidence": None},
        winner_agents=("agent:billing",),
        loser_agents=("agent:audit",),
        winning_conclusion=None,
        verified_consensus=(),
        attempt_id="att:x",
        resolved_at=frozen_clock.now(),
    )
    attempt = ProbeAttempt(
        attempt_id="att:x",
        boundary_id=boundary.boundary_id,
        case_id="case:1",
        probe="erp.currency",
        arguments={},
        outcome="resolved",
        attempted_at=frozen_clock.now(),
    )
    with db.write() as conn, pytest.raises(ValidationError) as info:
        store.mark_resolved_within(conn, receipt, attempt.sealed())
    assert info.value.code == "boundary.unsealed_receipt"
    with db.write() as conn, pytest.raises(ValidationError) as info:
        store.mark_resolved_within(conn, receipt.sealed(), attempt.sealed())
    assert info.value.code == "boundary.not_pending"
    with pytest.raises(ValidationError) as info:
        store.record_attempt(attempt)
    assert info.value.code == "boundary.unsealed_receipt"


def test_budget_report(service: BoundaryService) -> None:
    service.close("s", [currency_split()], {"case:1": 40_000})
    (line,) = service.budget("s")
    assert line.transcript_bytes == 40_000
    assert line.ratio_bp == line.size_bytes * 10_000 // 40_000
    service.store.save([])  # nothing to save: no transaction work, no event
    assert len(service.budget("s")) == 1


def test_save_within_and_explicit_hints_type(store: BoundaryStore) -> None:
    assert isinstance(erp_hint(), TieBreaker)
    assert store.find(status="pending") == []
