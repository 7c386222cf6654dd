"""``CaseStore``: cases, dissent and votes read back as they were written."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accord.cases import Case, CaseStore, Settler
from accord.cases.store import VOTE_PAGE
from accord.clock import FrozenClock
from accord.errors import NotFound, ValidationError

from ._builders import pos as p
from ._builders import request


def settle_mix(settler: Settler, clock: FrozenClock) -> list[Case]:
    """A settled, an escalated, an agreed and a merged case, a minute apart."""
    made = []
    for req in [
        request(p("a", 100, 0.9), p("b", 200, 0.2), p("c", 300, 0.1), session_id="s-1"),
        request(p("a", 1, 0.6), p("b", 9, 0.6), session_id="s-1"),
        request(p("a", "ok"), p("b", "ok"), session_id="s-2"),
        request(p("a", {"x": 1.5}), p("b", {"y": 2})),
    ]:
        made.append(settler.settle(req))
        clock.advance(timedelta(minutes=1))
    return made


def test_get_round_trips_every_kind_of_case(
    settler: Settler, store: CaseStore, frozen_clock: FrozenClock
) -> None:
    for case in settle_mix(settler, frozen_clock):
        assert store.get(case.case_id) == case


def test_get_of_an_unknown_case_raises_not_found(store: CaseStore) -> None:
    with pytest.raises(NotFound) as caught:
        store.get("disp:nope")

    assert caught.value.code == "cases.not_found"
    assert caught.value.context["case_id"] == "disp:nope"


def test_find_lists_newest_first_as_flat_rows(
    settler: Settler, store: CaseStore, frozen_clock: FrozenClock
) -> None:
    made = settle_mix(settler, frozen_clock)

    rows = store.find()

    assert [r["case_id"] for r in rows] == [c.case_id for c in reversed(made)]
    assert "document" not in rows[0]
    assert rows[-1]["winner"] == "a"


def test_find_filters_by_status_and_session_and_limits(
    settler: Settler, store: CaseStore, frozen_clock: FrozenClock
) -> None:
    settled, escalated, agreed, merged = settle_mix(settler, frozen_clock)

    assert [r["case_id"] for r in store.find(status="escalated")] == [escalated.case_id]
    assert [r["case_id"] for r in store.find(status="merged")] == [merged.case_id]
    assert [r["case_id"] for r in store.find(session_id="s-1")] == [
        escalated.case_id,
        settled.case_id,
    ]
    assert store.find(status="settled", session_id="s-2") == []
    assert [r["case_id"] for r in store.find(limit=2)] == [merged.case_id, agreed.case_id]


@pytest.mark.parametrize("status", ["resolved", "SETTLED", "", "open"])
def test_find_rejects_an_unknown_status(store: CaseStore, status: str) -> None:
    with pytest.raises(ValidationError) as caught:
        store.find(status=status)

    assert caught.value.code == "cases.bad_status"
    assert caught.value.context["field"] == "status"
    assert "no_conflict" in caught.value.message


def test_count_by_status_and_total(
    settler: Settler, store: CaseStore, frozen_clock: FrozenClock
) -> None:
    assert store.count_by_status() == {}
    assert store.total() == 0

    settle_mix(settler, frozen_clock)
    settler.settle(request(p("a", 5, 0.9), p("b", 50, 0.1)))

    assert store.count_by_status() == {
        "settled": 2,
        "escalated": 1,
        "no_conflict": 1,
        "merged": 1,
    }
    assert store.total() == 5


def test_iter_documents_streams_every_case_oldest_first_across_batches(
    settler: Settler, store: CaseStore, frozen_clock: FrozenClock
) -> None:
    made = settle_mix(settler, frozen_clock) + settle_mix(settler, frozen_clock)

    assert list(store.iter_documents(batch=3)) == made


def test_iter_documents_orders_cases_of_the_same_instant_by_id(
    settler: Settler, store: CaseStore
) -> None:
    made = [settler.settle(request(p("a", i), p("b", i))) for i in range(5)]

    streamed = list(store.iter_documents(batch=2))

    assert [c.case_id for c in streamed] == sorted(c.case_id for c in made)


def test_iter_documents_of_an_empty_store_yields_nothing(store: CaseStore) -> None:
    assert list(store.iter_documents()) == []


def test_votes_list_every_party_of_real_conflicts_only(
    settler: Settler, store: CaseStore, frozen_clock: FrozenClock
) -> None:
    settled, escalated, _, _ = settle_mix(settler, frozen_clock)

    votes = store.votes()

    assert sorted((case, agent) for case, agent, _ in votes) == sorted(
        [(settled.case_id, a) for a in "abc"] + [(escalated.case_id, a) for a in "ab"]
    )
    keys = {(case, agent): key for case, agent, key in votes}
    assert keys[(settled.case_id, "a")] != keys[(settled.case_id, "b")]


def test_vote_pages_hold_the_same_votes_in_pages_each_its_own_read(
    settler: Settler, store: CaseStore
) -> None:
    for batch in range(VOTE_PAGE // 150 + 1):  # over one page of three-agent conflicts
        settler.settle_many(
            [
                request(p("a", i), p("b", i), p("c", 10_000 + i))
                for i in range(batch * 50, batch * 50 + 50)
            ]
        )
    settle_mix(settler, FrozenClock())

    pages = list(store.vote_pages())

    assert len(pages) == 2
    assert len(pages[0]) == VOTE_PAGE
    every = [vote for page in pages for vote in page]
    assert len(set(every)) == len(every)  # no vote twice across the page boundary
    assert sorted(every) == sorted(store.votes())


def test_dissent_round_trips_for_a_case(
    settler: Settler, store: CaseStore, frozen_clock: FrozenClock
) -> None:
    settled, escalated, *_ = settle_mix(settler, frozen_clock)

    dissent = store.dissent(settled.case_id)

    assert sorted(dissent, key=lambda d: d.agent_id) == list(settled.dissent)
    assert [d.agent_id for d in settled.dissent] == ["b", "c"]
    assert store.dissent(escalated.case_id) == []
    assert store.dissent("disp:nope") == []
