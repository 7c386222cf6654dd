"""The proposed §6 resolution a panel votes on (R14, R19, R20, R25): what its hash covers and
which proposals are not a resolution anyone could comply with."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from accord.crypto.hashing import content_hash
from accord.dcp07.panels import PanelQuestion
from accord.errors import AccordError

DISPUTE = "disp:0197aaaa-0000-7000-8000-000000000001"
ACTION = {"agent_id": "agent:audit", "action": "release", "deadline": "2026-12-08T00:00:00Z"}
LATER = "2026-12-09T00:00:00Z"


def _question(**proposal: Any) -> PanelQuestion:
    return PanelQuestion.model_validate(
        {
            "dispute_id": DISPUTE,
            "question": "who keeps the slot?",
            "positions": [
                {"agent_id": "agent:billing", "argument": "first"},
                {"agent_id": "agent:audit", "argument": "statute"},
            ],
            "proposal": {"favours": "agent:billing", "description": "billing keeps it", **proposal},
        }
    )


def test_r14_a_bare_proposal_hashes_as_the_sentence_it_replaces() -> None:
    expected = {
        "dispute_id": DISPUTE,
        "favours": "agent:billing",
        "description": "billing keeps it",
    }
    assert _question().resolution_hash == content_hash(expected)


def test_r14_r19_the_hash_covers_the_actions_their_deadlines_and_the_precedents() -> None:
    base = _question(actions_required=[ACTION], compliance_deadline=LATER)
    other_action = _question(
        actions_required=[{**ACTION, "action": "keep it"}], compliance_deadline=LATER
    )
    other_deadline = _question(
        actions_required=[{**ACTION, "deadline": LATER}], compliance_deadline=LATER
    )
    cited = _question(
        actions_required=[ACTION],
        compliance_deadline=LATER,
        precedents_applied=[
            {"jurisprudence_id": "jur:0197aaaa-0000-7000-8000-0000000000ff", "applicability": "x"}
        ],
    )
    hashes = {q.resolution_hash for q in (base, other_action, other_deadline, cited)}
    assert len(hashes) == 4


def test_r20_an_action_owed_by_someone_not_a_party_is_no_proposal() -> None:
    with pytest.raises(ValidationError, match="R20"):
        _question(
            actions_required=[{**ACTION, "agent_id": "agent:stranger"}], compliance_deadline=LATER
        )


def test_r20_the_compliance_deadline_is_not_before_an_actions_deadline() -> None:
    with pytest.raises(ValidationError, match="compliance_deadline"):
        _question(actions_required=[ACTION], compliance_deadline="2026-12-07T00:00:00Z")


def test_r25_a_departure_in_a_proposal_carries_its_reasoning() -> None:
    departed = {
        "jurisprudence_id": "jur:0197aaaa-0000-7000-8000-0000000000ff",
        "applicability": "departed",
    }
    with pytest.raises(AccordError) as refused:
        _question(precedents_applied=[departed])
    assert refused.value.context["requirement"] == "R25"
    reasoned = _question(precedents_applied=[{**departed, "departure_reasoning": "facts differ"}])
    assert reasoned.proposal.precedents_applied[0].departed
