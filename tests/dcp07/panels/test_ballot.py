"""Votes and the ballot box (R14, R19, R36): signed independent votes; non-members, second
votes, late votes and forged signatures refused."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accord.crypto import DISPUTE_SIG_TAG, Ed25519Signer, sha256_prefixed
from accord.dcp07.panels import (
    PanelBallot,
    PanelFormation,
    PanelRefused,
    PanelVote,
    VoteChoice,
    cast_vote,
    verify_vote,
)
from accord.errors import SignatureInvalid

from ._builders import DEADLINE, NOW, formed, key_of, keys, refused

RESOLUTION = sha256_prefixed(b"the resolution put to the panel")


def vote(
    formation: PanelFormation,
    agent_id: str,
    choice: VoteChoice = "approve",
    *,
    signer: Ed25519Signer | None = None,
    resolution: str = RESOLUTION,
) -> PanelVote:
    return cast_vote(
        dispute_id=formation.dispute_id,
        panel_id=formation.panel_id,
        agent_id=agent_id,
        vote=choice,
        resolution_hash=resolution,
        reasoning=f"{agent_id} finds for the complainant",
        at=NOW,
        signer=signer or key_of(agent_id),
    )


@pytest.fixture
def formation() -> PanelFormation:
    return formed()


@pytest.fixture
def ballot(formation: PanelFormation) -> PanelBallot:
    return PanelBallot(formation=formation, resolution_hash=RESOLUTION)


def test_r19_a_vote_carries_the_sha256_of_its_reasoning(formation: PanelFormation) -> None:
    member = formation.member_ids[0]
    cast = vote(formation, member)
    assert cast.reasoning_hash == sha256_prefixed(f"{member} finds for the complainant".encode())
    assert cast.cast_at == "2026-11-29T12:00:00.000000Z"


def test_r36_a_vote_is_signed_by_its_member_under_dcp_dispute_sig_v2(
    formation: PanelFormation,
) -> None:
    member = formation.member_ids[0]
    cast = vote(formation, member)
    assert cast.signature.domain_sep == DISPUTE_SIG_TAG
    assert cast.signature.kid == key_of(member).kid
    verify_vote(cast, key_of(member).public_key)
    flipped = cast.model_copy(update={"vote": "dissent"})
    with pytest.raises(SignatureInvalid):
        verify_vote(flipped, key_of(member).public_key)


def test_r14_each_members_vote_is_recorded(ballot: PanelBallot, formation: PanelFormation) -> None:
    for agent_id in formation.member_ids:
        ballot = ballot.cast(vote(formation, agent_id), member_keys=keys(formation), now=NOW)
    assert [v.agent_id for v in ballot.votes] == list(formation.member_ids)
    assert ballot.outstanding == ()


def test_r14_a_vote_from_a_non_member_is_refused(
    ballot: PanelBallot, formation: PanelFormation
) -> None:
    outsider = next(
        e.agent_id for e in formation.eligibility if e.agent_id not in formation.member_ids
    )
    with pytest.raises(PanelRefused) as excinfo:
        ballot.cast(
            vote(formation, outsider),
            member_keys={outsider: key_of(outsider).public_key},
            now=NOW,
        )
    refused(excinfo, "panels.not_a_member", "R14")


def test_r14_a_second_vote_is_refused(ballot: PanelBallot, formation: PanelFormation) -> None:
    member = formation.member_ids[0]
    ballot = ballot.cast(vote(formation, member), member_keys=keys(formation), now=NOW)
    with pytest.raises(PanelRefused) as excinfo:
        ballot.cast(vote(formation, member, "dissent"), member_keys=keys(formation), now=NOW)
    refused(excinfo, "panels.second_vote", "R14")
    assert [v.vote for v in ballot.votes] == ["approve"]


def test_r04_a_vote_after_the_deadline_is_refused(
    ballot: PanelBallot, formation: PanelFormation
) -> None:
    member = formation.member_ids[0]
    on_time = ballot.cast(vote(formation, member), member_keys=keys(formation), now=DEADLINE)
    assert len(on_time.votes) == 1
    with pytest.raises(PanelRefused) as excinfo:
        ballot.cast(
            vote(formation, member),
            member_keys=keys(formation),
            now=DEADLINE + timedelta(microseconds=1),
        )
    refused(excinfo, "panels.vote_after_deadline", "R4")


def test_r36_a_vote_signed_with_another_key_is_refused(
    ballot: PanelBallot, formation: PanelFormation
) -> None:
    member = formation.member_ids[0]
    forged = vote(formation, member, signer=key_of("mallory"))
    with pytest.raises(PanelRefused) as excinfo:
        ballot.cast(forged, member_keys=keys(formation), now=NOW)
    refused(excinfo, "panels.bad_vote_signature", "R36")


def test_r36_a_vote_from_a_member_without_a_known_key_is_refused(
    ballot: PanelBallot, formation: PanelFormation
) -> None:
    with pytest.raises(PanelRefused) as excinfo:
        ballot.cast(vote(formation, formation.member_ids[0]), member_keys={}, now=NOW)
    refused(excinfo, "panels.unknown_member_key", "R36")


def test_r14_a_vote_on_another_resolution_or_panel_is_refused(
    ballot: PanelBallot, formation: PanelFormation
) -> None:
    member = formation.member_ids[0]
    other = vote(formation, member, resolution=sha256_prefixed(b"something else"))
    with pytest.raises(PanelRefused) as excinfo:
        ballot.cast(other, member_keys=keys(formation), now=NOW)
    refused(excinfo, "panels.wrong_resolution", "R14")
    elsewhere = formed()  # a second panel on the same dispute has its own id
    with pytest.raises(PanelRefused) as excinfo:
        ballot.cast(vote(elsewhere, member), member_keys=keys(formation), now=NOW)
    refused(excinfo, "panels.wrong_panel", "R14")


def test_r14_a_vote_is_approve_or_dissent(formation: PanelFormation) -> None:
    with pytest.raises(ValueError, match="approve"):
        vote(formation, formation.member_ids[0], "abstain")  # type: ignore[arg-type]
