"""Forming a panel (R10–R13, R32, R35): nominations, eligibility per candidate, the draw."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord.crypto import canonical_bytes
from accord.dcp07.negotiation import RevealedNonce
from accord.dcp07.panels import (
    ArbitratorPool,
    Nomination,
    PanelFormation,
    PanelMode,
    PanelRefused,
    PanelThreshold,
    verify_formation,
)
from accord.org import LifecycleState

from ._builders import (
    COMPLAINANT,
    NOW,
    Disputes,
    Interactions,
    formed,
    member,
    nominate,
    pool,
    refused,
)


def test_r10_a_panel_seats_three_members_by_default_deciding_2_of_3() -> None:
    formation = formed()
    assert len(formation.members) == 3
    assert (formation.threshold.m, formation.threshold.n) == (2, 3)
    assert formation.mode is PanelMode.BINDING
    assert formation.panel_id.startswith("panel:")
    assert formation.member_ids == formation.selection.selected


def test_r39_a_3_of_5_panel_seats_five() -> None:
    formation = formed(threshold=PanelThreshold.of(3, 5))
    assert len(formation.members) == 5


def test_r10_eligibility_is_checked_and_recorded_for_every_nominee() -> None:
    arbitrators = pool(member("arb:tired", vitality=500, organization_id="initech"))
    formation = formed(arbitrators)
    checked = {e.agent_id: e for e in formation.eligibility}
    assert set(checked) == {m.agent_id for m in arbitrators.members}
    assert checked["arb:tired"].breaks("R12")
    assert "arb:tired" not in formation.selection.candidates


def test_r11_an_ineligible_nominee_is_never_drawn() -> None:
    busy = {frozenset((f"arb:{i:02d}", "agent:audit")): ["disp:x"] for i in range(3)}
    formation = formed(disputes=Disputes(busy))
    drawn = set(formation.member_ids)
    assert drawn.isdisjoint({"arb:00", "arb:01", "arb:02"})
    assert drawn <= {"arb:03", "arb:04", "arb:05"}


def test_r10_too_few_eligible_nominees_is_refused_with_every_candidates_reasons() -> None:
    recent = {frozenset((f"arb:{i:02d}", "agent:billing")): NOW for i in range(4)}
    with pytest.raises(PanelRefused) as excinfo:
        formed(interactions=Interactions(recent))
    refused(excinfo, "panels.too_few_eligible", "R10")
    eligibility = excinfo.value.context["eligibility"]
    assert len(eligibility) == 6
    assert sum(not e["eligible"] for e in eligibility) == 4


def test_r10_the_panel_is_drawn_from_the_parties_nominees() -> None:
    nominees = ["arb:01", "arb:03", "arb:05"]
    nominations = (
        *nominate("arb:01", "arb:03", by="agent:billing"),
        *nominate("arb:03", "arb:05", by="agent:audit"),
    )
    formation = formed(nominations=nominations)
    assert formation.selection.candidates == tuple(nominees)
    assert sorted(formation.member_ids) == nominees


def test_r10_a_non_party_cannot_nominate() -> None:
    with pytest.raises(PanelRefused) as excinfo:
        formed(nominations=nominate("arb:01", by="agent:outsider"))
    refused(excinfo, "panels.nominator_not_a_party", "R10")


def test_r10_a_nominee_outside_the_pool_is_refused() -> None:
    nominations = (Nomination(nominated_by="agent:audit", agent_id="arb:friend", nominated_at=NOW),)
    with pytest.raises(PanelRefused) as excinfo:
        formed(nominations=nominations)
    refused(excinfo, "panels.not_in_pool", "R10")


def test_r13_a_suspended_nominee_is_recorded_ineligible() -> None:
    arbitrators = pool(member("arb:zz", state=LifecycleState.SUSPENDED, organization_id="x"))
    formation = formed(arbitrators)
    assert next(e for e in formation.eligibility if e.agent_id == "arb:zz").breaks("R13")


def test_r35_the_record_says_whether_the_pool_spans_organisations() -> None:
    assert formed().pool_spans_organizations
    single = ArbitratorPool.of([member(f"arb:{i}") for i in range(3)], single_organization=True)
    assert not formed(single).pool_spans_organizations


def test_r35_only_the_parties_nonces_seed_the_draw() -> None:
    stranger = RevealedNonce(agent_id="arb:00", nonce_hex="11" * 32)
    with pytest.raises(PanelRefused) as excinfo:
        formed(nonces=(stranger,))
    refused(excinfo, "panels.seed_nonce_not_a_party", "R35")


def test_r04_the_voting_deadline_lies_after_formation() -> None:
    with pytest.raises(PanelRefused) as excinfo:
        formed(vote_deadline=NOW - timedelta(seconds=1))
    refused(excinfo, "panels.bad_vote_deadline", "R4")


def test_r10_a_panel_decides_between_two_distinct_parties() -> None:
    with pytest.raises(PanelRefused) as excinfo:
        formed(parties=(COMPLAINANT,))
    refused(excinfo, "panels.bad_parties", "R10")


def test_r36_the_formation_record_has_canonical_bytes_for_signing() -> None:
    formation = formed()
    body = canonical_bytes(formation.model_dump(mode="json"))
    assert PanelFormation.model_validate_json(body) == formation


def test_r04_a_panel_deadline_is_a_timezone_aware_instant() -> None:
    with pytest.raises(ValueError, match="timezone"):
        PanelFormation.model_validate(
            {**formed().model_dump(), "vote_deadline": datetime(2026, 11, 29, 13, 0)}
        )


candidate_facts = st.tuples(
    st.integers(0, 1000),  # vitality
    st.sampled_from(list(LifecycleState)),
    st.sampled_from(["own", "user:ana", "user:bo"]),  # principal (the parties': ana, bo)
    st.booleans(),  # an active dispute with the respondent
    st.booleans(),  # interacted with the complainant yesterday
)


@given(facts=st.lists(candidate_facts, min_size=3, max_size=9))
def test_r11_r12_r13_r32_a_formed_panel_never_seats_an_ineligible_candidate(
    facts: list[tuple[int, LifecycleState, str, bool, bool]],
) -> None:
    members, busy, recent = [], {}, {}
    for i, (vitality, state, principal, disputing, talked) in enumerate(facts):
        agent_id = f"arb:{i:02d}"
        members.append(
            member(
                agent_id,
                organization_id=("acme", "initech")[i % 2],
                principal_id=f"user:{i}" if principal == "own" else principal,
                vitality=vitality,
                state=state,
            )
        )
        if disputing:
            busy[frozenset((agent_id, "agent:audit"))] = ["disp:other"]
        if talked:
            recent[frozenset((agent_id, "agent:billing"))] = NOW - timedelta(days=1)
    arbitrators = ArbitratorPool.of(members)
    eligible = {
        m.agent_id
        for m, (vitality, state, principal, disputing, talked) in zip(members, facts, strict=True)
        if vitality > 600
        and state is LifecycleState.ACTIVE
        and principal == "own"
        and not disputing
        and not talked
    }
    ports = {"disputes": Disputes(busy), "interactions": Interactions(recent)}
    if len(eligible) < 3:
        with pytest.raises(PanelRefused) as excinfo:
            formed(arbitrators, **ports)
        refused(excinfo, "panels.too_few_eligible", "R10")
        return
    formation = formed(arbitrators, **ports)
    assert set(formation.member_ids) <= eligible
    assert {e.agent_id for e in formation.eligibility if e.eligible} == eligible
    verify_formation(formation)
