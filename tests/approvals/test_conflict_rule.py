"""The one conflict rule: a principal who is or owns a party never acts on that party's case;
an agent acts only in a case it is party to."""

from __future__ import annotations

import pytest

from accord.approvals import (
    CONFLICT_RULE,
    PARTY_RULE,
    ConflictedDecider,
    NotAParty,
    refuse_non_party,
    refuse_party_acting,
)

PARTIES = ("agent:billing", "agent:audit")
OWNERS = {"agent:billing": "human:controller"}


def test_a_principal_who_owns_a_party_is_refused_naming_the_act_party_and_requirement() -> None:
    with pytest.raises(ConflictedDecider) as refused:
        refuse_party_acting(
            "human:controller", PARTIES, OWNERS, act="vote on", case_id="d:1", requirement="R32"
        )
    context = refused.value.context
    assert refused.value.code == "approvals.conflicted_decider"
    assert (context["party"], context["act"], context["case_id"]) == (
        "agent:billing",
        "vote on",
        "d:1",
    )
    assert (context["rule"], context["requirement"]) == (CONFLICT_RULE, "R32")
    assert "owns party agent:billing" in refused.value.message


def test_a_principal_who_is_a_party_is_refused_and_an_outsider_is_not() -> None:
    with pytest.raises(ConflictedDecider) as refused:
        refuse_party_acting("agent:audit", PARTIES, OWNERS, act="decide", case_id="c:1")
    assert "is party agent:audit" in refused.value.message
    assert "requirement" not in refused.value.context
    refuse_party_acting("human:treasurer", PARTIES, OWNERS, act="decide", case_id="c:1")


def test_an_agent_acts_only_in_a_case_it_is_party_to() -> None:
    refuse_non_party("agent:audit", PARTIES, act="park a task on", case_id="c:1", field="agent_id")
    with pytest.raises(NotAParty) as refused:
        refuse_non_party("agent:ops", PARTIES, act="open", case_id="c:1", field="parties")
    assert refused.value.code == "approvals.not_a_party"
    assert (refused.value.context["field"], refused.value.context["rule"]) == (
        "parties",
        PARTY_RULE,
    )
