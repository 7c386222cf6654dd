"""``Settler.settle_many``: a batch is recorded entirely, or not at all."""

from __future__ import annotations

import pytest

from accord.cases import CaseStore, Settler, SettleStatus
from accord.errors import ValidationError
from accord.ledger import Ledger, TrustRoot
from accord.store import Database

from ._builders import NOTHING_WRITTEN, request, row_counts
from ._builders import pos as p


def test_a_batch_is_recorded_in_order_with_consecutive_ledger_entries(
    settler: Settler, store: CaseStore, ledger: Ledger, trusted: TrustRoot
) -> None:
    batch = [
        request(p("a", 100, 0.9), p("b", 200, 0.2)),
        request(p("a", "ok"), p("b", "ok")),
        request(p("a", 1, 0.6), p("b", 9, 0.6)),
    ]

    done = settler.settle_many(batch)

    assert [c.status for c in done] == [
        SettleStatus.SETTLED,
        SettleStatus.NO_CONFLICT,
        SettleStatus.ESCALATED,
    ]
    assert [c.ledger_seqs for c in done] == [(1, 2), (3,), (4, 5)]
    assert store.total() == 3
    assert all(store.get(c.case_id) == c for c in done)
    assert ledger.verify(trusted).entries == 5


def test_an_empty_batch_records_nothing(settler: Settler, db: Database) -> None:
    assert settler.settle_many([]) == []
    assert row_counts(db) == NOTHING_WRITTEN


def test_a_bad_request_in_the_middle_writes_nothing_and_is_named_by_its_index(
    settler: Settler, db: Database
) -> None:
    batch = [
        request(p("a", 100, 0.9), p("b", 200, 0.2)),
        request(p("a", 1), p("a", 2)),
        request(p("a", 1), p("b", 1)),
    ]

    with pytest.raises(ValidationError) as caught:
        settler.settle_many(batch)

    assert caught.value.message.startswith("requests[1]: ")
    assert caught.value.context["request"] == 1
    assert caught.value.code == "conflicts.duplicate_agent"
    assert row_counts(db) == NOTHING_WRITTEN


def test_a_bad_subject_in_a_batch_is_named_by_index_and_field(
    settler: Settler, db: Database
) -> None:
    batch = [request(p("a", 1), p("b", 1)), request(p("a", 1), p("b", 1), subject=" ")]

    with pytest.raises(ValidationError) as caught:
        settler.settle_many(batch)

    assert caught.value.message == "requests[1]: subject must be a non-empty string"
    assert caught.value.context["field"] == "subject"
    assert row_counts(db) == NOTHING_WRITTEN


def test_an_unsignable_output_in_a_batch_is_named_by_request_and_field(
    settler: Settler, db: Database
) -> None:
    batch = [request(p("a", 1), p("b", 1)), request(p("a", 1), p("b", 2**60))]

    with pytest.raises(ValidationError) as caught:
        settler.settle_many(batch)

    assert caught.value.message.startswith("requests[1]: positions[1].output")
    assert caught.value.context["request"] == 1
    assert row_counts(db) == NOTHING_WRITTEN


def test_every_request_is_checked_before_any_case_goes_beyond_tier_one(
    settler: Settler, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Tier 2 may spend model tokens or queue approvals: a bad request later in the batch must
    # be refused before any of that happens.
    beyond: list[str] = []
    monkeypatch.setattr(
        settler, "_beyond_tier_one_sync", lambda case, staged: beyond.append(case.case_id) or case
    )
    batch = [request(p("a", 1, 0.6), p("b", 9, 0.6)), request(p("a", 1), p("a", 2))]

    with pytest.raises(ValidationError):
        settler.settle_many(batch)

    assert beyond == []
    assert row_counts(db) == NOTHING_WRITTEN


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"subject": "s" * 481}, "subject"),
        ({"task_type": "t" * 129}, "task_type"),
        ({"session_id": "x" * 129}, "session_id"),
    ],
)
def test_overlong_text_is_refused_at_the_boundary_whatever_tier_the_case_would_reach(
    settler: Settler, db: Database, fields: dict[str, str], field: str
) -> None:
    batch = [request(p("a", 1), p("b", 1)), request(p("a", 1), p("b", 9), **fields)]
    with pytest.raises(ValidationError) as caught:
        settler.settle_many(batch)
    assert caught.value.context["field"] == field
    assert caught.value.context["request"] == 1
    assert row_counts(db) == NOTHING_WRITTEN


def test_an_agent_id_longer_than_256_characters_is_refused(settler: Settler, db: Database) -> None:
    with pytest.raises(ValidationError) as caught:
        settler.settle(request(p("a" * 257, 1), p("b", 2)))
    assert caught.value.code == "conflicts.invalid_agent"
    assert row_counts(db) == NOTHING_WRITTEN
