"""Strategy 3: every genuine conflict goes to the human approval queue."""

from __future__ import annotations

import pytest

from accord.ladder import HumanStrategy

from ._builders import FakeApprovals, context, two_sides

pytestmark = pytest.mark.anyio

HUMAN = HumanStrategy()


async def test_a_conflict_is_queued_with_positions_analysis_and_options() -> None:
    approvals = FakeApprovals()
    tried = ["confidence: gap 0.20 under the 0.25 margin", "vote: one against one"]
    ctx = context(approvals=approvals, settings={"analysis": tried})

    outcome = await HUMAN.resolve(two_sides(), ctx)

    assert outcome.status == "queued"
    assert outcome.approval_item_id == "item-1"
    assert outcome.decided_by is None
    item = approvals.items[0]
    assert item["case_id"] == "case-1"
    assert item["options"] == ("1200", "1450")
    assert "- agent:dev-1 (confidence 0.90) — sum of the lines" in item["summary"]
    assert "- agent:dev-2 (confidence 0.70) — includes shipping" in item["summary"]
    assert "Detection: numerical_inconsistency" in item["analysis"]
    assert "Classification: numerical_inconsistency" in item["analysis"]
    assert "- vote: one against one" in item["analysis"]


async def test_a_single_analysis_string_is_shown_too() -> None:
    approvals = FakeApprovals()

    await HUMAN.resolve(
        two_sides(), context(approvals=approvals, settings={"analysis": "tier 1 gave up"})
    )

    assert "- tier 1 gave up" in approvals.items[0]["analysis"]


async def test_without_an_approval_queue_the_case_escalates_and_is_never_called_queued() -> None:
    outcome = await HUMAN.resolve(two_sides(), context())

    assert outcome.status == "escalated"
    assert outcome.approval_item_id is None
    assert (outcome.escalation_reason or "").startswith("no approval queue configured")


async def test_a_failing_approval_queue_escalates_with_the_error() -> None:
    outcome = await HUMAN.resolve(
        two_sides(), context(approvals=FakeApprovals(error=OSError("database is locked")))
    )

    assert outcome.escalation_reason == "approval queue failed: OSError: database is locked"


async def test_a_queued_case_drafts_no_dissent_yet() -> None:
    case = two_sides()
    outcome = await HUMAN.resolve(case, context(approvals=FakeApprovals()))

    assert HUMAN.log_dissent(case, outcome) == ()
