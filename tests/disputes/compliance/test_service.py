"""Compliance with a binding resolution (R20), non-compliance as a new dispute at human
appeal (R21), repeated non-compliance flagged (R22) — through ``Disputes``, on SQLite and
PostgreSQL, with a frozen clock."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accord.clock import FrozenClock
from accord.deadlines import DeadlineSweep, armed_for
from accord.disputes import Disputes
from accord.disputes.compliance import (
    DISPUTE_COMPLIANCE,
    ActionState,
    ComplianceRefused,
    NoPendingAction,
)
from accord.errors import AccordError
from accord.ledger import Ledger
from accord.store import Database
from tests.disputes._rules import COMPLAINANT, RESPONDENT, resolve


def proof(ledger: Ledger, agent: str = RESPONDENT) -> int:
    """An entry by ``agent`` showing it acted (as an agent's own audit entry would)."""
    return ledger.append(
        "agent_action_reported", {"actor": agent, "action": "released the GPU"}
    ).seq


def test_r20_a_binding_resolutions_required_actions_are_tracked_with_deadline_rows(
    disputes: Disputes, db: Database, frozen_clock: FrozenClock
) -> None:
    stored, resolution = resolve(
        disputes, frozen_clock, actions=[(RESPONDENT, "Release the GPU"), (COMPLAINANT, "Log it")]
    )
    actions = disputes.compliance.actions(dispute_id=stored.dispute_id)
    assert [(a.agent_id, a.state) for a in actions] == [
        (RESPONDENT, ActionState.PENDING),
        (COMPLAINANT, ActionState.PENDING),
    ]
    assert {a.resolution_id for a in actions} == {resolution.resolution_id}
    assert actions[0].resolution_seq == stored.ledger_seqs[-1]
    with db.read() as conn:
        armed = armed_for(conn, DISPUTE_COMPLIANCE, actions[0].action_id)
    assert armed is not None
    assert armed.due_at == frozen_clock.now() + timedelta(hours=6)


def test_r20_a_report_of_signed_entries_by_the_agent_after_the_resolution_verifies_it(
    disputes: Disputes, ledger: Ledger, db: Database, frozen_clock: FrozenClock
) -> None:
    stored, _ = resolve(disputes, frozen_clock)
    seq = proof(ledger)
    outcome = disputes.comply(stored.dispute_id, RESPONDENT, {"entries": [seq], "note": "done"})
    assert outcome.complied
    (verified,) = outcome.verified
    assert verified.state is ActionState.VERIFIED
    event = ledger.get(verified.ledger_seq or 0)
    assert event.event_type == "dispute_compliance_verified"
    assert event.record["details"]["entries"] == [seq]
    assert disputes.show(stored.dispute_id).record.timeline[-1].event == (
        "dispute_compliance_verified"
    )
    with db.read() as conn:
        assert armed_for(conn, DISPUTE_COMPLIANCE, verified.action_id) is None
    with pytest.raises(NoPendingAction):
        disputes.comply(stored.dispute_id, RESPONDENT, {"entries": [seq]})


@pytest.mark.parametrize("case", ["before_resolution", "another_agent", "missing", "late"])
def test_r20_r21_a_report_that_does_not_show_compliance_fails_and_opens_a_policy_conflict(
    disputes: Disputes, ledger: Ledger, frozen_clock: FrozenClock, case: str
) -> None:
    early = proof(ledger)
    stored, resolution = resolve(disputes, frozen_clock)
    seqs = {
        "before_resolution": early,
        "another_agent": proof(ledger, COMPLAINANT),
        "missing": 10_000,
        "late": proof(ledger),
    }
    if case == "late":
        frozen_clock.advance(timedelta(hours=7))
    outcome = disputes.comply(stored.dispute_id, RESPONDENT, {"entries": [seqs[case]]})
    assert not outcome.complied
    (failed,) = outcome.failed
    assert failed.state is ActionState.FAILED
    assert failed.failure
    assert ledger.get(failed.ledger_seq or 0).event_type == "dispute_compliance_failed"
    assert failed.followup_dispute_id is not None
    followup = disputes.show(failed.followup_dispute_id).record
    assert followup.dispute_type.value == "policy_conflict"
    assert (followup.status.value, followup.current_escalation_level.value) == (
        "appealing",
        "human_appeal",
    )
    assert followup.complainant.agent_id == COMPLAINANT
    assert [r.agent_id for r in followup.respondents] == [RESPONDENT]
    assert resolution.resolution_id in followup.subject.description


def test_r21_a_missed_deadline_fails_the_action_and_opens_a_dispute_straight_at_human_appeal(
    disputes: Disputes, ledger: Ledger, frozen_clock: FrozenClock, sweep: DeadlineSweep
) -> None:
    stored, _ = resolve(disputes, frozen_clock, due_in=timedelta(hours=1))
    frozen_clock.advance(timedelta(minutes=59))
    assert not [f for f in sweep.run().fired if f.deadline.kind == DISPUTE_COMPLIANCE]
    frozen_clock.advance(timedelta(minutes=2))
    fired = [f for f in sweep.run().fired if f.deadline.kind == DISPUTE_COMPLIANCE]
    assert [f.handled.outcome for f in fired] == ["failed"]
    (failed,) = disputes.compliance.actions(dispute_id=stored.dispute_id)
    assert failed.state is ActionState.FAILED
    event = ledger.get(failed.ledger_seq or 0)
    assert event.event_type == "dispute_compliance_failed"
    assert event.record["actor"] == "accord:deadline"
    assert event.record["details"]["missed_deadline"] is True
    followup = disputes.show(failed.followup_dispute_id or "")
    assert (followup.record.dispute_type.value, followup.tier, followup.status) == (
        "policy_conflict",
        "human_appeal",
        "appealing",
    )
    assert not [f for f in sweep.run().fired if f.deadline.kind == DISPUTE_COMPLIANCE]


def test_r22_repeated_non_compliance_is_flagged_signed_and_queryable(
    disputes: Disputes, ledger: Ledger, frozen_clock: FrozenClock, sweep: DeadlineSweep
) -> None:
    resolve(disputes, frozen_clock, due_in=timedelta(hours=1))
    frozen_clock.advance(timedelta(hours=2))
    sweep.run()
    assert disputes.compliance.flags(RESPONDENT) == []
    assert not disputes.compliance.flagged(RESPONDENT)
    resolve(disputes, frozen_clock, due_in=timedelta(hours=1))
    frozen_clock.advance(timedelta(hours=2))
    sweep.run()
    (flag,) = disputes.compliance.flags(RESPONDENT)
    assert (flag.failures, flag.threshold) == (2, 2)
    assert disputes.compliance.flagged(RESPONDENT)
    assert not disputes.compliance.flagged(COMPLAINANT)
    entry = ledger.get(flag.ledger_seq)
    assert entry.event_type == "agent_noncompliance_flagged"
    assert entry.record["requirement"] == "R22"
    assert entry.record["recommendation"] == "review_termination_for_cause"


def test_r22_the_flag_threshold_is_configurable(ledger: Ledger, frozen_clock: FrozenClock) -> None:
    disputes = Disputes(ledger, frozen_clock, flag_after=1)
    stored, _ = resolve(disputes, frozen_clock)
    outcome = disputes.comply(stored.dispute_id, RESPONDENT, {"entries": [10_000]})
    assert [f.failures for f in outcome.flags] == [1]
    with pytest.raises(AccordError) as caught:
        Disputes(ledger, frozen_clock, flag_after=0)
    assert caught.value.code == "compliance.bad_setting"


def test_r20_only_a_binding_resolution_is_tracked(
    disputes: Disputes, frozen_clock: FrozenClock
) -> None:
    stored, _ = resolve(disputes, frozen_clock, resolution_type="recommended_resolution")
    assert disputes.compliance.actions(dispute_id=stored.dispute_id) == []


def test_r20_an_unsupported_verification_method_is_refused_and_nothing_is_written(
    disputes: Disputes, frozen_clock: FrozenClock
) -> None:
    dispute_id = disputes.open(
        {
            "dispute_type": "resource_conflict",
            "severity": "medium",
            "complainant": COMPLAINANT,
            "respondents": [RESPONDENT],
            "subject": "who keeps the GPU",
        }
    ).dispute_id
    with pytest.raises(ComplianceRefused) as caught:
        resolve(disputes, frozen_clock, dispute_id=dispute_id, method="self_attestation")
    assert caught.value.code == "compliance.method_unsupported"
    assert caught.value.context["requirement"] == "R20"
    assert disputes.show(dispute_id).status == "open"
    assert disputes.compliance.actions(dispute_id=dispute_id) == []


def test_r20_a_malformed_report_is_refused_naming_the_field_and_writes_nothing(
    disputes: Disputes, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    stored, _ = resolve(disputes, frozen_clock)
    size = ledger.size()
    for report, field in [
        ({"entries": []}, "report.entries"),
        ({"entries": [1, 1]}, "report.entries"),
        ({"entries": ["1"]}, "report.entries.0"),
        ({"entries": [1], "extra": True}, "report.extra"),
    ]:
        with pytest.raises(ComplianceRefused) as caught:
            disputes.comply(stored.dispute_id, RESPONDENT, report)
        assert caught.value.context["field"] == field
    assert ledger.size() == size
    with pytest.raises(NoPendingAction):
        disputes.comply(stored.dispute_id, COMPLAINANT, {"entries": [1]})
