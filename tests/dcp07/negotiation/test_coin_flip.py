"""R8's random strategy: a commit–reveal coin flip that nobody can bias or read early."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord.dcp07.negotiation import (
    MIN_NONCE_BYTES,
    CoinFlip,
    NegotiationRefused,
    coin_order,
    coin_outcome_from_reveals,
    commitment,
    new_nonce,
)
from accord.dcp07.negotiation import coin_flip as coin_module

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
COMMIT_BY = NOW + timedelta(minutes=5)
REVEAL_BY = NOW + timedelta(minutes=10)
A, B = "agent:a", "agent:b"
NONCE_A = bytes(range(32))
NONCE_B = bytes(range(32, 64))


def flip(*parties: str) -> CoinFlip:
    return CoinFlip(
        dispute_id="disp:1",
        parties=parties or (A, B),
        commit_deadline=COMMIT_BY,
        reveal_deadline=REVEAL_BY,
    )


def committed() -> CoinFlip:
    state = flip().commit(A, commitment("disp:1", A, NONCE_A, "heads"), at=NOW)
    return state.commit(B, commitment("disp:1", B, NONCE_B, "tails"), at=NOW)


def refused(excinfo: pytest.ExceptionInfo[NegotiationRefused], code: str) -> None:
    assert excinfo.value.code == code
    assert excinfo.value.context["requirement"] == "R8"


def _framed(tag: str, *fields: bytes) -> bytes:
    return tag.encode() + b"\x00" + b"".join(len(f).to_bytes(4, "big") + f for f in fields)


def test_r08_a_commitment_is_sha256_over_the_documented_byte_layout() -> None:
    expected = hashlib.sha256(
        _framed("DCP-07-COIN-COMMIT-v1", b"disp:1", b"agent:a", NONCE_A, b"heads")
    ).hexdigest()
    assert commitment("disp:1", A, NONCE_A, "heads") == f"sha256:{expected}"


def test_r08_a_commitment_binds_the_dispute_the_party_the_nonce_and_the_choice() -> None:
    base = commitment("disp:1", A, NONCE_A, "heads")
    assert base != commitment("disp:2", A, NONCE_A, "heads")
    assert base != commitment("disp:1", B, NONCE_A, "heads")
    assert base != commitment("disp:1", A, NONCE_B, "heads")
    assert base != commitment("disp:1", A, NONCE_A, "tails")


def test_r08_nonces_are_at_least_32_random_bytes() -> None:
    assert len(new_nonce()) == MIN_NONCE_BYTES
    assert new_nonce() != new_nonce()
    with pytest.raises(NegotiationRefused) as excinfo:
        commitment("disp:1", A, b"\x00" * 31, "heads")
    refused(excinfo, "coin.short_nonce")


def test_r08_a_matching_reveal_is_accepted_and_decides_the_outcome() -> None:
    state = committed().reveal(A, NONCE_A, "heads", at=NOW).reveal(B, NONCE_B, "tails", at=NOW)
    outcome = state.outcome(now=NOW)
    assert outcome.winner in (A, B)
    assert outcome.choice == {"agent:a": "heads", "agent:b": "tails"}[outcome.winner]
    assert outcome.revealed_by == (A, B)
    assert outcome.forfeited == ()


@pytest.mark.parametrize(
    ("nonce", "choice"), [(NONCE_B, "heads"), (NONCE_A, "tails"), (NONCE_A + b"\x00", "heads")]
)
def test_r08_a_reveal_that_does_not_match_its_commit_is_refused(nonce: bytes, choice: str) -> None:
    state = committed()
    with pytest.raises(NegotiationRefused) as excinfo:
        state.reveal(A, nonce, choice, at=NOW)
    refused(excinfo, "coin.reveal_mismatch")
    assert state.reveals == ()


def test_r08_a_reveal_is_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(coin_module.hmac, "compare_digest", spy)
    committed().reveal(A, NONCE_A, "heads", at=NOW)
    assert calls == [(calls[0][0], calls[0][0])]
    assert calls[0][0] == commitment("disp:1", A, NONCE_A, "heads").encode()


def test_r08_nobody_reveals_while_another_party_may_still_commit() -> None:
    state = flip().commit(A, commitment("disp:1", A, NONCE_A, "heads"), at=NOW)
    with pytest.raises(NegotiationRefused) as excinfo:
        state.reveal(A, NONCE_A, "heads", at=NOW)
    refused(excinfo, "coin.reveal_too_early")
    assert excinfo.value.context["waiting_for"] == [B]


def test_r08_a_party_that_never_commits_forfeits() -> None:
    state = flip().commit(A, commitment("disp:1", A, NONCE_A, "heads"), at=NOW)
    after_commits = COMMIT_BY + timedelta(seconds=1)
    with pytest.raises(NegotiationRefused) as excinfo:
        state.commit(B, commitment("disp:1", B, NONCE_B, "tails"), at=after_commits)
    refused(excinfo, "coin.commit_closed")
    state = state.reveal(A, NONCE_A, "heads", at=after_commits)
    outcome = state.outcome(now=after_commits)
    assert (outcome.winner, outcome.choice, outcome.forfeited) == (A, "heads", (B,))


def test_r08_a_party_that_never_reveals_before_the_deadline_forfeits() -> None:
    state = committed().reveal(B, NONCE_B, "tails", at=NOW)
    with pytest.raises(NegotiationRefused) as excinfo:
        state.outcome(now=REVEAL_BY)
    refused(excinfo, "coin.outcome_too_early")
    late = REVEAL_BY + timedelta(microseconds=1)
    with pytest.raises(NegotiationRefused) as excinfo:
        state.reveal(A, NONCE_A, "heads", at=late)
    refused(excinfo, "coin.reveal_closed")
    outcome = state.outcome(now=late)
    assert (outcome.winner, outcome.choice, outcome.forfeited) == (B, "tails", (A,))


def test_r08_when_nobody_reveals_there_is_no_winner() -> None:
    outcome = committed().outcome(now=REVEAL_BY + timedelta(seconds=1))
    assert outcome.winner is None
    assert outcome.choice is None
    assert outcome.forfeited == (A, B)


def test_r08_each_party_commits_and_reveals_once_and_only_parties_take_part() -> None:
    state = committed()
    with pytest.raises(NegotiationRefused) as excinfo:
        state.commit(A, commitment("disp:1", A, NONCE_A, "tails"), at=NOW)
    refused(excinfo, "coin.already_committed")
    state = state.reveal(A, NONCE_A, "heads", at=NOW)
    with pytest.raises(NegotiationRefused) as excinfo:
        state.reveal(A, NONCE_A, "heads", at=NOW)
    refused(excinfo, "coin.already_revealed")
    with pytest.raises(NegotiationRefused) as excinfo:
        state.commit("agent:x", commitment("disp:1", "agent:x", NONCE_A, "heads"), at=NOW)
    refused(excinfo, "coin.not_a_party")
    with pytest.raises(NegotiationRefused) as excinfo:
        flip().commit(A, "sha256:xyz", at=NOW)
    refused(excinfo, "coin.bad_commitment")


def test_r08_a_copied_commitment_does_not_let_another_party_reveal_the_same_nonce() -> None:
    copied = commitment("disp:1", A, NONCE_A, "heads")
    state = flip().commit(A, copied, at=NOW).commit(B, copied, at=NOW)
    state = state.reveal(A, NONCE_A, "heads", at=NOW)
    with pytest.raises(NegotiationRefused) as excinfo:
        state.reveal(B, NONCE_A, "heads", at=NOW)
    refused(excinfo, "coin.reveal_mismatch")


def test_r08_the_outcome_is_recomputable_from_the_reveals_alone() -> None:
    state = committed().reveal(A, NONCE_A, "heads", at=NOW).reveal(B, NONCE_B, "tails", at=NOW)
    shipped = CoinFlip.model_validate_json(state.model_dump_json())
    again = coin_outcome_from_reveals(shipped.dispute_id, shipped.parties, shipped.reveals)
    assert again == state.outcome(now=NOW)
    seed = hashlib.sha256(
        _framed("DCP-07-COIN-OUTCOME-v1", b"disp:1", b"agent:a", NONCE_A, b"agent:b", NONCE_B)
    ).hexdigest()
    assert again.seed_hex == seed


def test_r08_the_coin_is_fair_over_many_flips() -> None:
    wins: Counter[str] = Counter()
    for i in range(2000):
        nonce_a = hashlib.sha256(b"a" + i.to_bytes(4, "big")).digest()
        nonce_b = hashlib.sha256(b"b" + i.to_bytes(4, "big")).digest()
        state = flip().commit(A, commitment("disp:1", A, nonce_a, "h"), at=NOW)
        state = state.commit(B, commitment("disp:1", B, nonce_b, "t"), at=NOW)
        state = state.reveal(A, nonce_a, "h", at=NOW).reveal(B, nonce_b, "t", at=NOW)
        winner = state.outcome(now=NOW).winner
        assert winner is not None
        wins[winner] += 1
    assert 900 <= wins[A] <= 1100  # ±4.5 standard deviations of a fair coin


@given(
    revealers=st.sets(st.sampled_from(["agent:a", "agent:b", "agent:c"]), min_size=1),
    nonce=st.binary(min_size=32, max_size=48),
)
def test_r08_the_winner_is_always_a_party_that_revealed(revealers: set[str], nonce: bytes) -> None:
    parties = ("agent:a", "agent:b", "agent:c")
    state = flip(*parties)
    for p in parties:
        state = state.commit(p, commitment("disp:1", p, nonce + p.encode(), p), at=NOW)
    for p in sorted(revealers):
        state = state.reveal(p, nonce + p.encode(), p, at=NOW)
    outcome = state.outcome(now=REVEAL_BY + timedelta(seconds=1))
    assert outcome.winner in revealers
    assert outcome.choice == outcome.winner
    assert set(outcome.forfeited) == set(parties) - revealers


def test_r08_revealed_nonces_are_what_a_panel_seed_hashes() -> None:
    state = committed().reveal(B, NONCE_B, "tails", at=NOW).reveal(A, NONCE_A, "heads", at=NOW)
    assert [(n.agent_id, n.nonce) for n in state.revealed_nonces()] == [(A, NONCE_A), (B, NONCE_B)]


def test_r08_a_flip_opened_with_options_refuses_any_other_choice() -> None:
    state = CoinFlip(
        dispute_id="disp:1",
        parties=(A, B),
        commit_deadline=COMMIT_BY,
        reveal_deadline=REVEAL_BY,
        options=("prop:1", "prop:2"),
    )
    state = state.commit(A, commitment("disp:1", A, NONCE_A, "prop:9"), at=NOW)
    state = state.commit(B, commitment("disp:1", B, NONCE_B, "prop:2"), at=NOW)
    with pytest.raises(NegotiationRefused) as excinfo:
        state.reveal(A, NONCE_A, "prop:9", at=NOW)
    refused(excinfo, "coin.unknown_choice")
    assert state.reveal(B, NONCE_B, "prop:2", at=NOW).reveals[0].choice == "prop:2"


def test_r08_the_coin_gives_a_turn_order_with_its_winner_first() -> None:
    state = committed().reveal(A, NONCE_A, "heads", at=NOW).reveal(B, NONCE_B, "tails", at=NOW)
    outcome = state.outcome(now=NOW)
    order = coin_order(outcome, state.parties)
    assert order.strategy == "random"
    assert order.first == outcome.winner
    assert set(order.order) == {A, B}
    nobody = coin_order(committed().outcome(now=REVEAL_BY + timedelta(seconds=1)), (A, B))
    assert not nobody.decided
    assert nobody.order == (A, B)
