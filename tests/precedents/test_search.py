"""Precedent search (R24, R26): type, conditions, authority then recency, superseded last."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.precedents import PrecedentRefused, PrecedentSearch, PrecedentStore
from tests.precedents.conftest import Draft


def _ids(found: list) -> list[str]:  # type: ignore[type-arg]
    return [p.jurisprudence_id for p in found]


def test_r24_search_filters_by_dispute_type(
    store: PrecedentStore, search: PrecedentSearch, draft: Draft, lead: Ed25519Signer
) -> None:
    gpu = store.add(draft(), lead)
    policy = store.add(draft(dispute_type="policy_conflict"), lead)
    also = store.add(
        draft(dispute_type="capability_conflict", types=["capability_conflict", "policy_conflict"]),
        lead,
    )
    assert _ids(search.search("resource_conflict")) == [gpu.jurisprudence_id]
    assert set(_ids(search.search("policy_conflict"))) == {
        policy.jurisprudence_id,
        also.jurisprudence_id,
    }
    assert search.search("directive_conflict") == []


def test_r24_search_matches_a_bundle_listing_any_given_condition(
    store: PrecedentStore, search: PrecedentSearch, draft: Draft, lead: Ed25519Signer
) -> None:
    both = store.add(draft(conditions=["night", "shared_gpu"]), lead)
    night = store.add(draft(conditions=["night"]), lead)
    general = store.add(draft(conditions=[]), lead)
    other = store.add(draft(conditions=["weekend"]), lead)
    found = set(_ids(search.search("resource_conflict", ["night", "shared_gpu"])))
    assert found == {both.jurisprudence_id, night.jurisprudence_id}
    assert _ids(search.search("resource_conflict", ["weekend", "x"])) == [other.jurisprudence_id]
    assert search.search("resource_conflict", ["holiday"]) == []
    assert general.jurisprudence_id in _ids(search.search("resource_conflict"))


def test_r24_conditions_are_sentences_matched_case_and_whitespace_blind(
    store: PrecedentStore, search: PrecedentSearch, draft: Draft, lead: Ed25519Signer
) -> None:
    sentence = store.add(
        draft(
            conditions=["Two or more agents with equal priority"],
            barred=["Non-divisible resource (e.g., one-time-use token)"],
        ),
        lead,
    )
    filed = ["  two or MORE agents   with equal priority "]
    assert _ids(search.search("resource_conflict", filed)) == [sentence.jurisprudence_id]
    barred = [*filed, "non-divisible RESOURCE (e.g., one-time-use  token)"]
    assert search.search("resource_conflict", barred) == []


def test_r24_search_excludes_a_bundle_when_a_condition_is_inapplicable(
    store: PrecedentStore, search: PrecedentSearch, draft: Draft, lead: Ed25519Signer
) -> None:
    kept = store.add(draft(conditions=["shared_gpu"]), lead)
    store.add(draft(conditions=["shared_gpu"], barred=["deadline_today"]), lead)
    found = _ids(search.search("resource_conflict", ["shared_gpu", "deadline_today"]))
    assert found == [kept.jurisprudence_id]
    assert len(search.search("resource_conflict", ["shared_gpu"])) == 2
    store.add(draft(conditions=["deadline_today", "shared_gpu"]), lead)
    assert _ids(search.search("resource_conflict", ["shared_gpu"]))[-1] == kept.jurisprudence_id


@pytest.mark.parametrize("conditions", [[], ["shared_gpu"]])
def test_r24_search_ranks_by_authority_then_recency(
    store: PrecedentStore,
    search: PrecedentSearch,
    draft: Draft,
    lead: Ed25519Signer,
    frozen_clock: FrozenClock,
    conditions: list[str],
) -> None:
    added = {}
    for name, tier in [
        ("old_human", "human_appeal"),
        ("old_panel", "contextual_arbitration"),
        ("old_talk", "direct_negotiation"),
        ("new_talk", "direct_negotiation"),
        ("new_panel", "contextual_arbitration"),
        ("new_human", "human_appeal"),
    ]:
        added[name] = store.add(draft(authority_level=tier), lead).jurisprudence_id
        frozen_clock.advance(timedelta(minutes=5))
    expected = ["new_human", "old_human", "new_panel", "old_panel", "new_talk", "old_talk"]
    assert _ids(search.search("resource_conflict", conditions)) == [added[n] for n in expected]


@pytest.mark.parametrize("conditions", [[], ["shared_gpu"]])
def test_r26_superseded_bundle_is_kept_and_ranked_last(
    store: PrecedentStore,
    search: PrecedentSearch,
    draft: Draft,
    lead: Ed25519Signer,
    frozen_clock: FrozenClock,
    conditions: list[str],
) -> None:
    overruled = store.add(draft(authority_level="human_appeal"), lead)
    frozen_clock.advance(timedelta(hours=1))
    talk = store.add(draft(), lead)
    frozen_clock.advance(timedelta(hours=1))
    ruling = store.add(
        draft(authority_level="contextual_arbitration", supersedes=[overruled.jurisprudence_id]),
        lead,
    )
    found = search.search("resource_conflict", conditions)
    assert _ids(found) == [
        ruling.jurisprudence_id,
        talk.jurisprudence_id,
        overruled.jurisprudence_id,
    ]
    assert [p.superseded_by for p in found] == [(), (), (ruling.jurisprudence_id,)]
    assert found[-1].to_json_dict()["superseded_by"] == [ruling.jurisprudence_id]


def test_r26_superseded_bundles_fill_the_limit_only_after_those_in_force(
    store: PrecedentStore,
    search: PrecedentSearch,
    draft: Draft,
    lead: Ed25519Signer,
    frozen_clock: FrozenClock,
) -> None:
    old = store.add(draft(authority_level="human_appeal"), lead)
    frozen_clock.advance(timedelta(minutes=1))
    new = store.add(draft(supersedes=[old.jurisprudence_id]), lead)
    assert _ids(search.search("resource_conflict", limit=1)) == [new.jurisprudence_id]
    assert _ids(search.search("resource_conflict", limit=2)) == [
        new.jurisprudence_id,
        old.jurisprudence_id,
    ]


def test_r24_search_returns_at_most_limit_results(
    store: PrecedentStore, search: PrecedentSearch, draft: Draft, lead: Ed25519Signer
) -> None:
    store.add_many([draft() for _ in range(5)], lead)
    assert len(search.search("resource_conflict", limit=3)) == 3
    assert len(search.search("resource_conflict", ["shared_gpu"], limit=3)) == 3


def test_r24_equal_rank_and_time_prefers_the_later_registered_bundle(
    store: PrecedentStore, search: PrecedentSearch, draft: Draft, lead: Ed25519Signer
) -> None:
    first, second = store.add_many([draft(), draft()], lead)
    assert _ids(search.search("resource_conflict")) == [
        second.jurisprudence_id,
        first.jurisprudence_id,
    ]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"dispute_type": "billing_conflict"}, "dispute_type"),
        ({"dispute_type": "resource_conflict", "limit": 0}, "limit"),
        ({"dispute_type": "resource_conflict", "limit": 101}, "limit"),
        ({"dispute_type": "resource_conflict", "conditions": ["a\nb"]}, "conditions.0"),
        ({"dispute_type": "resource_conflict", "conditions": ["x" * 257]}, "conditions.0"),
        (
            {"dispute_type": "resource_conflict", "conditions": [str(i) for i in range(65)]},
            "conditions",
        ),
    ],
)
def test_r24_a_malformed_search_is_refused_naming_the_field(
    search: PrecedentSearch, kwargs: dict[str, object], field: str
) -> None:
    with pytest.raises(PrecedentRefused) as caught:
        search.search(**kwargs)  # type: ignore[arg-type]
    assert caught.value.code == "precedents.invalid"
    assert caught.value.context["field"] == field
    assert caught.value.context["rule"]
