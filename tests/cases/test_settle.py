"""``Settler.settle``: one case, its parties, dissent and ledger entries in one transaction."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from accord.cases import CaseStore, Settler, SettleStatus, TriageSettings
from accord.cases.reliability_cache import FixedWeights
from accord.clock import FrozenClock
from accord.ledger import Ledger, TrustRoot
from accord.store import Database
from accord.store.tables import case_parties, cases

from ..org._builders import chart, member
from ._builders import NOTHING_WRITTEN, request, row_counts, verifiers
from ._builders import pos as p


def test_a_settled_case_is_persisted_with_parties_dissent_and_verifiable_ledger_entries(
    settler: Settler,
    store: CaseStore,
    ledger: Ledger,
    db: Database,
    trusted: TrustRoot,
) -> None:
    case = settler.settle(request(p("a", 100, 0.9), p("b", 200, 0.2), p("c", 100, 0.4)))

    assert case.status is SettleStatus.SETTLED
    assert row_counts(db) == {"cases": 1, "case_parties": 3, "dissents": 1, "ledger_entries": 2}
    assert case.ledger_seqs == (1, 2)
    assert [ledger.get(s).event_type for s in case.ledger_seqs] == [
        "dispute_opened",
        "dispute_resolved",
    ]
    resolved = ledger.get(2).record
    assert resolved["dispute_id"] == case.case_id
    assert [(d["dissent_id"], d["agent_id"]) for d in resolved["dissent"]] == [
        (case.dissent_ids[0], "b")
    ]
    assert ledger.verify(trusted).entries == 2


def test_the_stored_case_is_the_returned_case_ledger_seqs_included(
    settler: Settler, store: CaseStore
) -> None:
    case = settler.settle(request(p("a", 100, 0.9), p("b", 200, 0.2), session_id="s-1"))

    assert store.get(case.case_id) == case
    assert store.get(case.case_id).ledger_seqs == (1, 2)


def test_the_case_row_holds_the_flat_decision_view(settler: Settler, db: Database) -> None:
    case = settler.settle(request(p("a", 100, 0.9), p("b", 200, 0.2), session_id="s-1"))

    with db.read() as conn:
        row = conn.execute(select(cases).where(cases.c.case_id == case.case_id)).one()._mapping

    assert row["status"] == "settled"
    assert row["dcp_status"] == "resolved"
    assert row["kind"] == "numerical_inconsistency"
    assert row["severity"] == "high"
    assert row["dispute_type"] == "capability_conflict"
    assert row["tier"] == "direct_negotiation"
    assert row["winner"] == "a"
    assert row["rung"] == "confidence"
    assert row["confidence_bp"] == 9000
    assert not row["escalated"]
    assert row["session_id"] == "s-1"
    assert row["created_at"] == "2026-11-29T12:00:00.000000Z"


@pytest.mark.parametrize(
    ("positions", "outcomes"),
    [
        ([p("a", 100, 0.9), p("b", 200, 0.2)], {"a": "won", "b": "lost"}),
        ([p("a", 100, 0.6), p("b", 200, 0.6)], {"a": "pending", "b": "pending"}),
        ([p("a", 100), p("b", 101)], {"a": "no_conflict", "b": "no_conflict"}),
        ([p("a", {"x": 1}), p("b", {"y": 2})], {"a": "merged", "b": "merged"}),
    ],
)
def test_each_party_row_records_how_its_answer_fared(
    settler: Settler, db: Database, positions: list[Any], outcomes: dict[str, str]
) -> None:
    settler.settle(request(*positions))

    with db.read() as conn:
        rows = conn.execute(select(case_parties.c.agent_id, case_parties.c.outcome)).all()

    assert {r[0]: r[1] for r in rows} == outcomes


def test_agents_on_one_side_share_an_answer_key(settler: Settler, db: Database) -> None:
    settler.settle(request(p("a", 100, 0.9), p("b", 104, 0.2), p("c", 300, 0.2)))

    with db.read() as conn:
        keys = dict(conn.execute(select(case_parties.c.agent_id, case_parties.c.answer_key)).all())

    assert keys["a"] == keys["b"] != keys["c"]


@pytest.mark.parametrize(
    ("positions", "events"),
    [
        ([p("a", 1, 0.6), p("b", 9, 0.6)], ["dispute_opened", "dispute_escalated"]),
        ([p("a", {"x": 1}), p("b", {"y": 2})], ["outputs_merged"]),
        ([p("a", "ok"), p("b", "OK")], ["consensus_recorded"]),
    ],
)
def test_every_outcome_is_signed_into_the_ledger(
    settler: Settler,
    ledger: Ledger,
    trusted: TrustRoot,
    positions: list[Any],
    events: list[str],
) -> None:
    case = settler.settle(request(*positions))

    assert [ledger.get(s).event_type for s in case.ledger_seqs] == events
    assert ledger.verify(trusted).entries == len(events)


def test_a_failure_while_storing_the_case_leaves_neither_rows_nor_ledger_entries(
    settler: Settler, store: CaseStore, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_insert = store.insert

    def insert_then_fail(*args: Any, **kwargs: Any) -> None:
        real_insert(*args, **kwargs)
        raise RuntimeError("disk full")

    monkeypatch.setattr(store, "insert", insert_then_fail)

    with pytest.raises(RuntimeError, match="disk full"):
        settler.settle(request(p("a", 100, 0.9), p("b", 200, 0.2)))

    assert row_counts(db) == NOTHING_WRITTEN


def test_the_settler_uses_its_org_chart_verifiers_and_weights(
    ledger: Ledger, store: CaseStore, frozen_clock: FrozenClock
) -> None:
    org = chart([member("a", principal="human:alice"), member("b")])
    settler = Settler(
        ledger=ledger,
        store=store,
        clock=frozen_clock,
        settings=TriageSettings(),
        org=org,
        verifiers=verifiers(200, task_type="invoice.total"),
        weights=FixedWeights({"a": 9.0}),
    )

    sourced = settler.settle(request(p("a", 100), p("b", 200)))
    weighted = settler.settle(request(p("a", 100), p("b", 200), task_type="other"))

    assert sourced.decision is not None
    assert sourced.decision.rung == "source_verification"
    assert sourced.decision.winner == "b"
    assert weighted.decision is not None
    assert weighted.decision.rung == "vote"
    assert weighted.decision.winner == "a"
    opened = ledger.get(sourced.ledger_seqs[0]).record
    assert opened["complainant"]["principal_id"] == "human:alice"


def test_the_case_records_how_long_deciding_took(settler: Settler) -> None:
    case = settler.settle(request(p("a", 100, 0.9), p("b", 200, 0.2)))

    assert case.duration_ms >= 0
    assert case.created_at == case.decided_at
