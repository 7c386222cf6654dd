"""Verifiable random panel selection (R35): recomputable from the record alone."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord.dcp07.negotiation import RevealedNonce, choose
from accord.dcp07.panels import (
    PanelFormation,
    PanelRefused,
    PanelSelection,
    panel_seed,
    recompute_selection,
    select_panel,
    verify_formation,
    verify_selection,
)

from ._builders import DISPUTE, NONCES, formed, refused

CANDIDATES = [f"arb:{i:02d}" for i in range(8)]


def _framed(tag: str, *fields: bytes) -> bytes:
    return tag.encode() + b"\x00" + b"".join(len(f).to_bytes(4, "big") + f for f in fields)


def test_r35_the_seed_is_the_hash_of_the_revealed_nonces_and_the_dispute_id() -> None:
    expected = hashlib.sha256(
        _framed(
            "DCP-07-PANEL-SEED-v1",
            DISPUTE.encode(),
            b"agent:audit",
            bytes(range(32, 64)),
            b"agent:billing",
            bytes(range(32)),
        )
    ).digest()
    assert panel_seed(DISPUTE, NONCES) == expected
    assert panel_seed(DISPUTE, list(reversed(NONCES))) == expected
    assert panel_seed("disp:other", NONCES) != expected


def test_r35_the_panel_is_drawn_over_the_eligible_pool_sorted_by_agent_id() -> None:
    selection = select_panel(DISPUTE, list(reversed(CANDIDATES)), NONCES, 3)
    assert selection.candidates == tuple(CANDIDATES)
    assert selection.selected == choose(panel_seed(DISPUTE, NONCES), CANDIDATES, 3)
    assert selection.seed_hex == panel_seed(DISPUTE, NONCES).hex()


def test_r35_panel_selection_is_recomputable_from_the_record() -> None:
    formation = formed()
    shipped = PanelFormation.model_validate_json(formation.model_dump_json())
    verify_formation(shipped)
    assert recompute_selection(shipped.selection) == formation.member_ids
    # recomputed by hand from the record's JSON, with nothing but hashlib and the spec
    record = formation.model_dump(mode="json")["selection"]
    fields = [record["dispute_id"].encode()]
    for nonce in sorted(record["seed_nonces"], key=lambda n: n["agent_id"]):
        fields += [nonce["agent_id"].encode(), bytes.fromhex(nonce["nonce_hex"])]
    seed = hashlib.sha256(_framed("DCP-07-PANEL-SEED-v1", *fields)).digest()
    pool = sorted(record["candidates"])
    counter = 0
    for j in range(record["size"]):
        bound = len(pool) - j
        while True:
            block = hashlib.sha256(_framed("DCP-07-DRAW-v1", seed, counter.to_bytes(8, "big")))
            counter += 1
            x = int.from_bytes(block.digest()[:8], "big")
            if x < (1 << 64) - ((1 << 64) % bound):
                break
        pick = j + x % bound
        pool[j], pool[pick] = pool[pick], pool[j]
    assert tuple(pool[: record["size"]]) == formation.member_ids


@pytest.mark.parametrize(
    "tamper",
    [
        lambda s: s.model_copy(update={"selected": tuple(reversed(s.selected))}),
        lambda s: s.model_copy(update={"seed_hex": "00" * 32}),
        lambda s: s.model_copy(
            update={
                "seed_nonces": (
                    RevealedNonce(agent_id="agent:audit", nonce_hex="ff" * 32),
                    s.seed_nonces[1],
                )
            }
        ),
        lambda s: s.model_copy(update={"candidates": (*s.candidates, "arb:zz")}),
        lambda s: s.model_copy(update={"algorithm": "pick-my-friends"}),
    ],
)
def test_r35_a_selection_that_was_not_drawn_as_recorded_fails_verification(tamper: object) -> None:
    selection = select_panel(DISPUTE, CANDIDATES, NONCES, 3)
    verify_selection(selection)
    with pytest.raises(PanelRefused) as excinfo:
        verify_selection(tamper(selection))  # type: ignore[operator]
    refused(excinfo, "panels.selection_mismatch", "R35")


def test_r35_a_formation_whose_candidates_are_not_its_eligible_nominees_fails() -> None:
    formation = formed()
    forged = formation.model_copy(update={"eligibility": formation.eligibility[:-1]})
    with pytest.raises(PanelRefused) as excinfo:
        verify_formation(forged)
    refused(excinfo, "panels.selection_mismatch", "R35")


def test_r35_a_draw_needs_a_revealed_nonce_and_one_per_party() -> None:
    with pytest.raises(PanelRefused) as excinfo:
        select_panel(DISPUTE, CANDIDATES, [], 3)
    refused(excinfo, "panels.no_seed_nonce", "R35")
    with pytest.raises(PanelRefused) as excinfo:
        select_panel(DISPUTE, CANDIDATES, [NONCES[0], NONCES[0]], 3)
    refused(excinfo, "panels.duplicate_seed_nonce", "R35")


def test_r10_a_draw_needs_as_many_candidates_as_seats() -> None:
    with pytest.raises(PanelRefused) as excinfo:
        select_panel(DISPUTE, CANDIDATES[:2], NONCES, 3)
    refused(excinfo, "panels.too_few_eligible", "R10")


nonce_lists = st.lists(
    st.builds(
        RevealedNonce,
        agent_id=st.sampled_from(["agent:a", "agent:b", "agent:c"]),
        nonce_hex=st.binary(min_size=32, max_size=40).map(bytes.hex),
    ),
    min_size=1,
    max_size=3,
    unique_by=lambda n: n.agent_id,
)


@given(
    nonces=nonce_lists,
    candidates=st.sets(
        st.from_regex(r"arb:[a-z0-9]{1,6}", fullmatch=True), min_size=3, max_size=15
    ),
    data=st.data(),
)
def test_r35_selection_is_deterministic_never_repeats_and_never_picks_a_non_candidate(
    nonces: list[RevealedNonce], candidates: set[str], data: st.DataObject
) -> None:
    size = data.draw(st.integers(3, len(candidates)))
    selection = select_panel(DISPUTE, list(candidates), nonces, size)
    assert selection == select_panel(DISPUTE, sorted(candidates, reverse=True), nonces, size)
    assert len(selection.selected) == size
    assert len(set(selection.selected)) == size
    assert set(selection.selected) <= candidates
    verify_selection(PanelSelection.model_validate_json(selection.model_dump_json()))


def test_r35_selection_is_close_to_uniform_across_disputes() -> None:
    seats: Counter[str] = Counter()
    draws = 3000
    for i in range(draws):
        selection = select_panel(f"disp:{i}", CANDIDATES, NONCES, 3)
        seats.update(selection.selected)
    expected = draws * 3 / len(CANDIDATES)  # 1125 seats each, sd ~29
    assert all(abs(seats[c] - expected) < 150 for c in CANDIDATES), seats
