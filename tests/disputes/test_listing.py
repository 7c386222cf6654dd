"""Listing disputes (filters, paging) and the active disputes between two agents (R11)."""

from __future__ import annotations

import pytest

from accord.dcp07.panels.eligibility import ActiveDisputes
from accord.disputes import Disputes
from accord.errors import ValidationError
from tests.disputes.conftest import File


def test_list_filters_by_every_field_and_pages_in_opening_order(
    disputes: Disputes, filing: File
) -> None:
    opened = disputes.open_many(
        [
            filing(),
            filing(severity="high", respondents=["agent-c"]),
            filing(dispute_type="policy_conflict"),
        ]
    )
    ids = [d.dispute_id for d in opened]
    disputes.escalate(ids[0], by="agent-b")
    assert [s.dispute_id for s in disputes.list().items] == ids
    assert [s.dispute_id for s in disputes.list(status="escalated").items] == [ids[0]]
    assert [s.dispute_id for s in disputes.list(severity="high").items] == [ids[1]]
    assert [s.dispute_id for s in disputes.list(dispute_type="policy_conflict").items] == [ids[2]]
    assert [s.dispute_id for s in disputes.list(party="agent-c").items] == [ids[1]]
    assert [s.dispute_id for s in disputes.list(tier="contextual_arbitration").items] == [ids[0]]
    first = disputes.list(limit=2)
    assert [s.dispute_id for s in first.items] == ids[:2]
    assert first.next_after == ids[1]
    rest = disputes.list(after=first.next_after, limit=2)
    assert ([s.dispute_id for s in rest.items], rest.next_after) == ([ids[2]], None)


def test_each_listed_dispute_names_its_respondents(disputes: Disputes, filing: File) -> None:
    opened = disputes.open_many([filing(), filing(respondents=["agent-d", "agent-c"])])
    listed = {s.dispute_id: s.respondents for s in disputes.list().items}
    assert listed == {
        opened[0].dispute_id: ("agent-b",),
        opened[1].dispute_id: ("agent-c", "agent-d"),
    }


@pytest.mark.parametrize(
    "bad", [{"status": "pending"}, {"dispute_type": "turf"}, {"limit": 0}, {"after": "x"}]
)
def test_a_bad_listing_filter_is_refused_naming_it(
    disputes: Disputes, bad: dict[str, object]
) -> None:
    with pytest.raises(ValidationError) as caught:
        disputes.list(**bad)  # type: ignore[arg-type]
    assert caught.value.context["field"] == next(iter(bad))


def test_r11_active_between_names_the_open_disputes_two_agents_share(
    disputes: Disputes, filing: File
) -> None:
    port: ActiveDisputes = disputes
    first, second = disputes.open_many([filing(), filing(respondents=["agent-b", "agent-c"])])
    assert port.active_between("agent-a", "agent-b") == [first.dispute_id, second.dispute_id]
    assert port.active_between("agent-c", "agent-b") == [second.dispute_id]
    disputes.withdraw(first.dispute_id, by="agent-a")
    assert port.active_between("agent-b", "agent-a") == [second.dispute_id]
    assert port.active_between("agent-a", "agent-z") == []
