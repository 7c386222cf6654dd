"""Search agrees with a plain reading of R24/R26 on a random registry (both engines)."""

from __future__ import annotations

import random
from datetime import timedelta

from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.precedents import JurisprudenceBundle, PrecedentSearch, PrecedentStore
from accord.precedents.authority import authority_rank
from tests.precedents.conftest import Draft

TYPES = ["resource_conflict", "directive_conflict", "capability_conflict", "policy_conflict"]
TIERS = ["direct_negotiation", "contextual_arbitration", "human_appeal"]
CONDITIONS = [f"c{i}" for i in range(8)]


def _expected(
    bundles: list[JurisprudenceBundle],
    superseded: set[str],
    dispute_type: str,
    conditions: list[str],
    limit: int,
) -> list[str]:
    """R24 and R26 read literally, over every bundle in registration order."""
    matching = [
        (seq, b)
        for seq, b in enumerate(bundles)
        if dispute_type
        in {b.classification.dispute_type, *b.applicability.applicable_dispute_types}
        and (not conditions or set(conditions) & set(b.applicability.applicable_conditions))
        and not set(conditions) & set(b.applicability.inapplicable_conditions)
    ]
    matching.sort(
        key=lambda sb: (
            sb[1].jurisprudence_id in superseded,
            -authority_rank(sb[1].authority_level),
            # newest first: created_at, then registration order
            [-ord(ch) for ch in sb[1].created_at],
            -sb[0],
        )
    )
    return [b.jurisprudence_id for _, b in matching[:limit]]


def test_r24_r26_search_matches_the_rules_read_literally_on_a_random_registry(
    store: PrecedentStore,
    search: PrecedentSearch,
    draft: Draft,
    lead: Ed25519Signer,
    frozen_clock: FrozenClock,
) -> None:
    rng = random.Random(20261201)
    bundles: list[JurisprudenceBundle] = []
    superseded: set[str] = set()
    for _ in range(12):
        batch = []
        for _ in range(rng.randrange(1, 8)):
            own = rng.choice(TYPES)
            picked = rng.sample(CONDITIONS, rng.randrange(0, 5))
            cut = rng.randrange(0, len(picked) + 1)
            older = [b.jurisprudence_id for b in bundles]
            batch.append(
                draft(
                    dispute_type=own,
                    types=sorted({own, *rng.sample(TYPES, rng.randrange(0, 2))}),
                    conditions=picked[:cut],
                    barred=picked[cut:],
                    authority_level=rng.choice(TIERS),
                    supersedes=rng.sample(older, 1) if older and rng.random() < 0.2 else [],
                )
            )
        added = store.add_many(batch, lead)
        bundles.extend(added)
        superseded.update(old for b in added for old in b.supersedes)
        frozen_clock.advance(timedelta(seconds=rng.choice([0, 1, 60])))
    assert superseded  # the registry exercises supersession
    for _ in range(150):
        dispute_type = rng.choice(TYPES)
        conditions = rng.sample(CONDITIONS, rng.choice([0, 0, 1, 1, 2, 3]))
        limit = rng.choice([1, 3, 10, 100])
        found = search.search(dispute_type, conditions, limit=limit)
        assert [p.jurisprudence_id for p in found] == _expected(
            bundles, superseded, dispute_type, conditions, limit
        ), (dispute_type, conditions, limit)
        for p in found:
            assert p.superseded is (p.jurisprudence_id in superseded)
