"""Compliance with binding resolutions (R20–R22): track, check, fail, flag.

When a dispute is resolved with a ``binding_resolution``, :meth:`Compliance.track_within`
stores each ``actions_required`` entry with its deadline as a ``dispute_compliance``
deadline row (refused when the resolution names a verification method Accord cannot check).
:meth:`Compliance.comply` checks an agent's report by the stated method: every pending
action of the agent passes (``dispute_compliance_verified``) or fails
(``dispute_compliance_failed``). A failure — or a deadline the sweeper finds passed — opens a
``policy_conflict`` dispute straight at human appeal (R21) and, once the agent has failed
``flag_after`` actions, signs a non-compliance flag (R22). A stay ordered on an objection
(R28) sets the resolution's pending actions aside. Each call is one transaction.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict
from sqlalchemy import Connection

from accord.clock import Clock
from accord.dcp07.vocabulary import ResolutionType
from accord.deadlines import DeadlineHandler, arm, cancel
from accord.disputes.compliance.actions import (
    ActionState,
    TrackedAction,
    actions_where,
    failures_of,
    insert_actions,
    load_action,
    settle_action,
)
from accord.disputes.compliance.deadline import (
    DEADLINE_ACTOR,
    DISPUTE_COMPLIANCE,
    ComplianceDeadlineHandler,
)
from accord.disputes.compliance.flags import (
    DEFAULT_FLAG_AFTER,
    StoredFlag,
    flag_record,
    flags_where,
    insert_flag,
)
from accord.disputes.compliance.methods import SUPPORTED_METHODS, audit_chain_problems
from accord.disputes.compliance.noncompliance import open_noncompliance_dispute
from accord.disputes.compliance.refusals import NoPendingAction, refused
from accord.disputes.compliance.report import ComplianceReport
from accord.disputes.rule_ports import DisputeHooks, DisputeView
from accord.errors import ValidationError
from accord.ids import new_id
from accord.ledger import Ledger
from accord.store.tables import compliance_actions
from accord.values import revised

_c = compliance_actions.c


class ComplianceOutcome(BaseModel):
    """What one report did: the actions it verified and those that failed (with the R21
    dispute each failure opened), and the flags it raised (R22)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dispute_id: str
    agent_id: str
    verified: tuple[TrackedAction, ...] = ()
    failed: tuple[TrackedAction, ...] = ()
    flags: tuple[StoredFlag, ...] = ()

    @property
    def complied(self) -> bool:
        return not self.failed

    def to_json_dict(self) -> dict[str, Any]:
        return {**self.model_dump(mode="json"), "complied": self.complied}


class Compliance:
    """``Accord.disputes.compliance``: required actions, compliance reports, flags."""

    def __init__(
        self,
        ledger: Ledger,
        clock: Clock,
        disputes: DisputeHooks,
        *,
        flag_after: int = DEFAULT_FLAG_AFTER,
    ) -> None:
        if flag_after < 1:
            raise ValidationError(
                "flag_after must be a positive number of failed actions",
                code="compliance.bad_setting",
                field="flag_after",
                rule=">= 1 (R22)",
            )
        self._ledger = ledger
        self._db = ledger.db
        self._clock = clock
        self._disputes = disputes
        self.flag_after = flag_after

    # --- tracking (called by the store when a dispute resolves) ------------------------

    def track_within(
        self, conn: Connection, dispute: DisputeView, resolution_seq: int
    ) -> builtins.list[TrackedAction]:
        """Store a binding resolution's required actions and arm their deadlines (R20);
        nothing for other resolutions. Refused: an unsupported verification method, an
        action owed by someone who is not a party."""
        resolution = dispute.resolution
        if (
            resolution is None
            or resolution.resolution_type is not ResolutionType.BINDING_RESOLUTION
        ):
            return []
        outcome = resolution.outcome
        if not outcome.actions_required:
            return []
        method = outcome.compliance_verification_method
        if method not in SUPPORTED_METHODS:
            raise refused(
                "R20",
                "outcome.compliance_verification_method",
                f"Accord checks compliance by {', '.join(sorted(SUPPORTED_METHODS))}",
                code="compliance.method_unsupported",
                found=method,
                resolution_id=resolution.resolution_id,
            )
        parties = {party.agent_id for party in dispute.record.parties}
        now = self._clock.now()
        tracked = []
        for position, required in enumerate(outcome.actions_required):
            if required.agent_id not in parties:
                raise refused(
                    "R20",
                    f"outcome.actions_required[{position}].agent_id",
                    "every party complies: actions are owed by parties of the dispute",
                    code="compliance.not_a_party",
                    agent_id=required.agent_id,
                    dispute_id=dispute.record.dispute_id,
                )
            due = datetime.fromisoformat(required.deadline.replace("Z", "+00:00"))
            tracked.append(
                TrackedAction(
                    action_id=new_id("cact", now),
                    dispute_id=dispute.record.dispute_id,
                    resolution_id=resolution.resolution_id,
                    position=position,
                    agent_id=required.agent_id,
                    action=required.action,
                    method=method,
                    due_at=due,
                    resolution_seq=resolution_seq,
                )
            )
        insert_actions(conn, tracked)
        for action in tracked:
            arm(
                conn,
                kind=DISPUTE_COMPLIANCE,
                subject_id=action.action_id,
                due_at=action.due_at,
                now=now,
            )
        return tracked

    # --- a party's call ----------------------------------------------------------------

    def comply(
        self, dispute_id: str, agent_id: str, report: ComplianceReport | Mapping[str, Any]
    ) -> ComplianceOutcome:
        """Check ``agent_id``'s report against every action it still owes under the
        dispute's binding resolution, by the resolution's method (R20). A failed check is
        recorded, not raised: the failure event, the R21 dispute and any R22 flag commit.
        Refused (nothing written): a malformed report, no pending action."""
        checked = ComplianceReport.read(report)
        with self._disputes.transaction() as conn:
            view = self._disputes.show_within(conn, dispute_id)
            pending = actions_where(
                conn,
                _c.dispute_id == dispute_id,
                _c.agent_id == agent_id,
                _c.state == ActionState.PENDING.value,
            )
            if not pending:
                raise NoPendingAction(
                    f"{agent_id} owes no pending action under {dispute_id}'s binding resolution",
                    dispute_id=dispute_id,
                    agent_id=agent_id,
                    field="agent_id",
                    rule="a report answers a pending required action",
                    requirement="R20",
                )
            now = self._clock.now()
            verified, failed, flags = [], [], []
            for action in pending:
                problems = self._problems(conn, action, checked, now)
                if problems:
                    done, flag = self._fail(conn, view, action, problems, now, actor=agent_id)
                    failed.append(done)
                    flags.extend(flag)
                else:
                    verified.append(self._verify(conn, action, checked, now))
        return ComplianceOutcome(
            dispute_id=dispute_id,
            agent_id=agent_id,
            verified=tuple(verified),
            failed=tuple(failed),
            flags=tuple(flags),
        )

    # --- reading -----------------------------------------------------------------------

    def actions(
        self,
        *,
        dispute_id: str | None = None,
        agent_id: str | None = None,
        state: ActionState | str | None = None,
    ) -> builtins.list[TrackedAction]:
        """Tracked actions, every given filter holding."""
        conditions: builtins.list[Any] = []
        if dispute_id is not None:
            conditions.append(_c.dispute_id == dispute_id)
        if agent_id is not None:
            conditions.append(_c.agent_id == agent_id)
        if state is not None:
            conditions.append(_c.state == ActionState(state).value)
        with self._db.read() as conn:
            return actions_where(conn, *conditions)

    def flags(self, agent_id: str | None = None) -> builtins.list[StoredFlag]:
        """The non-compliance flags raised (R22), oldest first; only ``agent_id``'s if given."""
        with self._db.read() as conn:
            return builtins.list(flags_where(conn, agent_id))

    def flagged(self, agent_id: str) -> bool:
        """Whether ``agent_id`` has been flagged for repeated non-compliance (R22)."""
        return bool(self.flags(agent_id))

    # --- the deadline and the stay -----------------------------------------------------

    def deadline_handler(self) -> DeadlineHandler:
        """The ``dispute_compliance`` handler the one sweep registers."""
        return ComplianceDeadlineHandler(self)

    def fail_at_deadline(self, conn: Connection, action_id: str, now: datetime) -> bool:
        action = load_action(conn, action_id)
        if action is None or action.state is not ActionState.PENDING:
            return False
        view = self._disputes.show_within(conn, action.dispute_id)
        problems = [f"no compliance shown by the deadline {action.due_at.isoformat()}"]
        self._fail(conn, view, action, problems, now, actor=DEADLINE_ACTOR, at_deadline=True)
        return True

    def stay_within(
        self, conn: Connection, resolution_id: str, now: datetime
    ) -> builtins.list[TrackedAction]:
        """A stay was ordered (R28): the resolution's pending actions are set aside and their
        deadlines cancelled."""
        stayed = []
        for action in actions_where(
            conn, _c.resolution_id == resolution_id, _c.state == ActionState.PENDING.value
        ):
            done = revised(action, state=ActionState.STAYED, settled_at=now)
            settle_action(conn, done)
            cancel(conn, kind=DISPUTE_COMPLIANCE, subject_id=action.action_id, now=now)
            stayed.append(done)
        return stayed

    # --- steps -------------------------------------------------------------------------

    def _problems(
        self, conn: Connection, action: TrackedAction, report: ComplianceReport, now: datetime
    ) -> builtins.list[str]:
        if now > action.due_at:
            return [
                f"reported at {now.isoformat()}, after the deadline {action.due_at.isoformat()}"
            ]
        if action.method not in SUPPORTED_METHODS:  # refused when tracked; kept as a guard
            return [f"verification method {action.method!r} is not supported"]
        return audit_chain_problems(
            conn,
            agent_id=action.agent_id,
            seqs=report.entries,
            after_seq=action.resolution_seq,
            due_at=action.due_at,
            service=self._ledger.signer,
        )

    def _verify(
        self, conn: Connection, action: TrackedAction, report: ComplianceReport, now: datetime
    ) -> TrackedAction:
        view = self._disputes.record_event_within(
            conn,
            action.dispute_id,
            "dispute_compliance_verified",
            actor=action.agent_id,
            details={
                "requirement": "R20",
                "action_id": action.action_id,
                "resolution_id": action.resolution_id,
                "agent_id": action.agent_id,
                "method": action.method,
                "entries": list(report.entries),
                "note": report.note,
            },
        )
        done = revised(
            action, state=ActionState.VERIFIED, settled_at=now, ledger_seq=view.ledger_seqs[-1]
        )
        settle_action(conn, done)
        cancel(conn, kind=DISPUTE_COMPLIANCE, subject_id=action.action_id, now=now)
        return done

    def _fail(
        self,
        conn: Connection,
        view: DisputeView,
        action: TrackedAction,
        problems: Sequence[str],
        now: datetime,
        *,
        actor: str,
        at_deadline: bool = False,
    ) -> tuple[TrackedAction, builtins.list[StoredFlag]]:
        after = self._disputes.record_event_within(
            conn,
            action.dispute_id,
            "dispute_compliance_failed",
            actor=actor,
            details={
                "requirement": "R20",
                "action_id": action.action_id,
                "resolution_id": action.resolution_id,
                "agent_id": action.agent_id,
                "method": action.method,
                "problems": builtins.list(problems)[:64],
                "missed_deadline": at_deadline,
            },
        )
        failed_seq = after.ledger_seqs[-1]
        followup = open_noncompliance_dispute(
            conn, self._disputes, view.record, action, failed_seq=failed_seq, problems=problems
        )
        done = revised(
            action,
            state=ActionState.FAILED,
            settled_at=now,
            ledger_seq=failed_seq,
            failure="; ".join(problems)[:4000],
            followup_dispute_id=followup,
        )
        settle_action(conn, done)
        if not at_deadline:  # the sweeper fires (and closes) its own row
            cancel(conn, kind=DISPUTE_COMPLIANCE, subject_id=action.action_id, now=now)
        return done, self._flag_if_repeated(conn, done, now)

    def _flag_if_repeated(
        self, conn: Connection, failed: TrackedAction, now: datetime
    ) -> builtins.list[StoredFlag]:
        failures = failures_of(conn, failed.agent_id)
        if failures < self.flag_after:
            return []
        flag = flag_record(
            agent_id=failed.agent_id,
            failures=failures,
            threshold=self.flag_after,
            dispute_id=failed.dispute_id,
            action_id=failed.action_id,
            at=now,
        )
        sealed = self._ledger.append_within(conn, [flag.event()])
        return [insert_flag(conn, flag, sealed[0].seq)]


__all__ = ["Compliance", "ComplianceOutcome"]
