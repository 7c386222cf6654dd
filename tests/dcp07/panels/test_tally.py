"""Tallying a panel (R14, R15, R19): binding, recommended, split (escalating to tier 3)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord.crypto import sha256_prefixed
from accord.dcp07.panels import (
    PanelBallot,
    PanelDecision,
    PanelFormation,
    PanelMode,
    PanelRefused,
    PanelThreshold,
    VoteChoice,
    cast_vote,
    tally,
)

from ._builders import DEADLINE, NOW, formed, key_of, keys, refused

RESOLUTION = sha256_prefixed(b"resolution")
AFTER = DEADLINE + timedelta(seconds=1)


def voted(formation: PanelFormation, choices: list[VoteChoice | None]) -> PanelBallot:
    ballot = PanelBallot(formation=formation, resolution_hash=RESOLUTION)
    for agent_id, choice in zip(formation.member_ids, choices, strict=True):
        if choice is None:
            continue
        ballot = ballot.cast(
            cast_vote(
                dispute_id=formation.dispute_id,
                panel_id=formation.panel_id,
                agent_id=agent_id,
                vote=choice,
                resolution_hash=RESOLUTION,
                reasoning=f"{agent_id}: {choice}",
                at=NOW,
                signer=key_of(agent_id),
            ),
            member_keys=keys(formation),
            now=NOW,
        )
    return ballot


def test_r15_two_of_three_approvals_make_a_binding_resolution() -> None:
    result = tally(voted(formed(), ["approve", "dissent", "approve"]), now=NOW)
    assert result.decision is PanelDecision.BINDING
    assert (result.votes_for, result.votes_against) == (2, 1)
    assert result.escalates_to is None


def test_r15_an_advisory_panels_approval_is_a_recommended_resolution() -> None:
    result = tally(voted(formed(mode=PanelMode.ADVISORY), ["approve"] * 3), now=NOW)
    assert result.decision is PanelDecision.RECOMMENDED
    assert result.escalates_to is None


def test_r15_a_split_decision_escalates_to_human_appeal() -> None:
    result = tally(voted(formed(), ["approve", "dissent", "dissent"]), now=NOW)
    assert result.decision is PanelDecision.SPLIT
    assert result.escalates_to == "human_appeal"


def test_r15_an_advisory_panel_short_of_m_is_split_too() -> None:
    result = tally(voted(formed(mode=PanelMode.ADVISORY), ["dissent"] * 3), now=NOW)
    assert result.decision is PanelDecision.SPLIT


def test_r14_votes_are_counted_only_once_every_member_voted_or_the_deadline_passed() -> None:
    ballot = voted(formed(), ["approve", "approve", None])
    with pytest.raises(PanelRefused) as excinfo:
        tally(ballot, now=DEADLINE)
    refused(excinfo, "panels.tally_too_early", "R14")
    assert excinfo.value.context["outstanding"] == [ballot.formation.member_ids[2]]
    assert tally(ballot, now=AFTER).decision is PanelDecision.BINDING


def test_r15_members_who_did_not_vote_count_neither_way() -> None:
    result = tally(voted(formed(), ["approve", None, None]), now=AFTER)
    assert result.decision is PanelDecision.SPLIT
    assert (result.votes_for, result.votes_against) == (1, 0)
    assert len(result.absent) == 2


def test_r19_the_tally_gives_the_resolution_records_panel_section() -> None:
    formation = formed()
    result = tally(voted(formation, ["approve", "dissent", "approve"]), now=NOW)
    section = result.panel_section()
    assert section["threshold"] == {"m": 2, "n": 3}
    assert (section["votes_for"], section["votes_against"]) == (2, 1)
    assert [m["agent_id"] for m in section["members"]] == list(formation.member_ids)
    assert section["members"][1]["vote"] == "dissent"
    assert section["members"][1]["reasoning_hash"] == sha256_prefixed(
        f"{formation.member_ids[1]}: dissent".encode()
    )


@given(st.lists(st.sampled_from(["approve", "dissent", None]), min_size=5, max_size=5))
def test_r39_a_3_of_5_panel_binds_exactly_when_three_approve(
    choices: list[VoteChoice | None],
) -> None:
    formation = formed(threshold=PanelThreshold.of(3, 5))
    result = tally(voted(formation, choices), now=AFTER)
    approvals = choices.count("approve")
    assert (result.decision is PanelDecision.BINDING) == (approvals >= 3)
    assert (result.decision is PanelDecision.SPLIT) == (approvals < 3)
    assert result.votes_for == approvals
    assert result.votes_against == choices.count("dissent")
    assert len(result.absent) == choices.count(None)
