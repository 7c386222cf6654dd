"""Pure state changes of an approval item: a human decision, a passed deadline, a withdrawal.

Each returns the next version of the item; the queue persists it with compare-and-set.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from accord.approvals.conflict_rule import refuse_party_acting
from accord.approvals.item import (
    MAX_WRITTEN_OUTCOME_CHARS,
    TIMEOUT_DECIDER,
    ApprovalDecision,
    ApprovalItem,
    ApprovalStatus,
    HumanOutcome,
)
from accord.approvals.policies import next_deadline, on_deadline, role_at_step
from accord.approvals.principal import Principal
from accord.approvals.refusals import DecisionForbidden, already_decided
from accord.clock import isoformat
from accord.errors import ValidationError
from accord.printable import prose_problem


def refuse_unless_pending(item: ApprovalItem) -> None:
    if not item.is_pending:
        decided_by = item.decision.decided_by if item.decision else None
        raise already_decided(item.item_id, item.status.value, decided_by)


def refuse_conflicted(item: ApprovalItem, principal_id: str, owners: Mapping[str, str]) -> None:
    """Refuse a decider who is a party of the item, or owns (in the org chart) a party agent."""
    refuse_party_acting(
        principal_id,
        (p.agent for p in item.positions),
        owners,
        act="decide",
        case_id=item.case_id,
        item_id=item.item_id,
    )


def decided_by_human(
    item: ApprovalItem,
    principal: Principal,
    *,
    outcome: HumanOutcome,
    choice: str | None,
    reason: str,
    now: datetime,
    written_outcome: str | None = None,
) -> ApprovalItem:
    """``item`` closed by ``principal``; refuses closed items, unknown choices, a written
    outcome that is not printable prose within bounds (or beside a choice or a denial) and
    wrong roles."""
    refuse_unless_pending(item)
    check_reasoning(reason)
    if outcome not in ("approved", "denied"):
        raise ValidationError(
            f"outcome must be 'approved' or 'denied', not {outcome!r}",
            field="outcome",
            rule="one of approved, denied",
        )
    if written_outcome is not None:
        check_written_outcome(written_outcome)
        if outcome != "approved" or choice is not None:
            raise ValidationError(
                "a written outcome replaces the choice: give it alone, not with a choice or "
                "a denial",
                code="approvals.invalid",
                field="written_outcome",
                rule=ONE_DECISION_RULE,
            )
    if choice is not None and choice not in item.options:
        raise ValidationError(
            f"choice {choice!r} is not one of the options {list(item.options)}",
            code="approvals.unknown_choice",
            field="choice",
            rule="must be one of the item's options",
            options=list(item.options),
        )
    if item.current_role is not None and not principal.holds(item.current_role):
        raise DecisionForbidden(
            f"{principal.principal_id} does not hold role {item.current_role!r}, "
            f"which approval {item.item_id} is offered to",
            item_id=item.item_id,
            principal_id=principal.principal_id,
            required_role=item.current_role,
        )
    decision = ApprovalDecision(
        outcome=outcome,
        choice=choice,
        written_outcome=written_outcome,
        decided_by=principal.principal_id,
        reason=reason,
        decided_at=now,
        via="human",
    )
    return _closed(item, ApprovalStatus(outcome), decision)


ONE_DECISION_RULE = "exactly one of choice, outcome (a written outcome) or deny"


def check_written_outcome(text: str, field: str = "written_outcome") -> None:
    """Refuse a written outcome that is blank, longer than ``MAX_WRITTEN_OUTCOME_CHARS`` or
    not printable prose (newlines and tabs allowed), naming ``field``."""
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_WRITTEN_OUTCOME_CHARS:
        raise ValidationError(
            f"{field} must be 1 to {MAX_WRITTEN_OUTCOME_CHARS:,} characters of text",
            code="approvals.invalid",
            field=field,
            rule=f"non-blank text of at most {MAX_WRITTEN_OUTCOME_CHARS:,} characters",
        )
    problem = prose_problem(text)
    if problem is not None:
        raise ValidationError(
            f"{field}: {problem}", code="approvals.invalid", field=field, rule=problem
        )


def check_reasoning(text: str, field: str = "reasoning") -> None:
    """Refuse a decision's reasoning that is not printable prose (newlines and tabs allowed;
    NUL and every other control character refused, like every other text field)."""
    problem = prose_problem(text)
    if problem is not None:
        raise ValidationError(
            f"{field}: {problem}", code="approvals.invalid", field=field, rule=problem
        )


def refuse_unless_one_decision(
    *, choice: str | None, outcome: str | None, deny: bool, prefix: str = ""
) -> None:
    """Refuse unless exactly one of ``choice``, ``outcome`` (a written outcome) or ``deny`` is
    given, and a written outcome is bounded printable prose; the error names the field
    (``prefix`` + ``outcome`` when an outcome was given beside another, else ``choice``)."""
    given = [choice is not None, outcome is not None, deny]
    if sum(given) != 1:
        field = "outcome" if outcome is not None else "choice"
        raise ValidationError(
            f"give {ONE_DECISION_RULE}",
            code="approvals.invalid",
            field=prefix + field,
            rule=ONE_DECISION_RULE,
        )
    if outcome is not None:
        check_written_outcome(outcome, prefix + "outcome")


def after_deadline(item: ApprovalItem, now: datetime) -> ApprovalItem:
    """Apply ``item``'s policy to its passed deadline: expire, escalate, or wait without one."""
    refuse_unless_pending(item)
    action = on_deadline(item.policy, item.risk, item.escalation_step)
    if action == "escalate":
        step = item.escalation_step + 1
        return _next(
            item,
            escalation_step=step,
            current_role=role_at_step(item.policy, step),
            deadline=next_deadline(item.policy, item.risk, step, now),
        )
    if action == "wait":
        return _next(item, deadline=None)
    decision = ApprovalDecision(
        outcome="expired",
        choice=action,
        decided_by=TIMEOUT_DECIDER,
        reason=f"no decision by {isoformat(item.deadline) if item.deadline else 'the deadline'}; "
        f"the {item.policy.kind} policy applied {action!r}",
        decided_at=now,
        via="timeout",
    )
    return _closed(item, ApprovalStatus.EXPIRED, decision)


def withdrawn(item: ApprovalItem) -> ApprovalItem:
    """``item`` cancelled (its case was settled some other way)."""
    refuse_unless_pending(item)
    return _next(item, status=ApprovalStatus.CANCELLED, deadline=None)


def _closed(item: ApprovalItem, status: ApprovalStatus, decision: ApprovalDecision) -> ApprovalItem:
    return _next(item, status=status, decision=decision, deadline=None)


def _next(item: ApprovalItem, **changes: Any) -> ApprovalItem:
    """The next version of ``item``, re-validated so every invariant still holds."""
    fields = {name: getattr(item, name) for name in type(item).model_fields}
    return ApprovalItem.model_validate({**fields, **changes, "version": item.version + 1})
