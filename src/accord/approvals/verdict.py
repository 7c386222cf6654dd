"""One word for what was decided, that an agent can branch on (pure).

``ApprovalDecision.outcome`` says ``approved`` for a person's *choice* of any option — also
"reject" — so an agent reading it could act on the opposite of the decision. The verdict says
what was decided instead:

* ``chosen`` — a person chose one of the options (``choice`` names it);
* ``written`` — a person wrote an outcome of their own (``written_outcome``);
* ``denied`` — a person denied every option;
* ``expired`` — nobody decided in time and the §12.4 policy acted (``choice`` is what it applied);
* ``cancelled`` — the item was withdrawn (its case settled or ended another way): no decision.

``outcome`` and the item's ``status`` stay one release, deprecated in favour of ``verdict``.
"""

from __future__ import annotations

from typing import Literal

from accord.approvals.item import ApprovalDecision, ApprovalItem, ApprovalStatus

DecisionVerdict = Literal["chosen", "written", "denied", "expired", "cancelled"]
DECISION_VERDICTS: tuple[DecisionVerdict, ...] = (
    "chosen",
    "written",
    "denied",
    "expired",
    "cancelled",
)


def verdict_of_decision(decision: ApprovalDecision) -> DecisionVerdict:
    """What ``decision`` decided, in the one vocabulary."""
    return verdict_of_outcome(decision.outcome, decision.written_outcome)


def verdict_of_outcome(outcome: str, written_outcome: str | None) -> DecisionVerdict:
    """The verdict from a decision's ``outcome`` and ``written_outcome`` (as signed)."""
    if outcome == "expired":
        return "expired"
    if outcome == "denied":
        return "denied"
    return "written" if written_outcome is not None else "chosen"


def verdict_of(item: ApprovalItem) -> DecisionVerdict | None:
    """What was decided on ``item``; None while it waits."""
    if item.status is ApprovalStatus.PENDING:
        return None
    if item.status is ApprovalStatus.CANCELLED or item.decision is None:
        return "cancelled"
    return verdict_of_decision(item.decision)


def verdict_words(verdict: DecisionVerdict, decision: ApprovalDecision | None) -> str:
    """The verdict as a person reads it: ``chosen 'reject'``, ``written 'refund half'``,
    ``denied``, ``expired (the timeout policy applied 'deny')``, ``cancelled``."""
    if decision is not None and verdict == "chosen" and decision.choice is not None:
        return f"chosen {decision.choice!r}"
    if decision is not None and verdict == "written" and decision.written_outcome is not None:
        return f"written {decision.written_outcome!r}"
    if decision is not None and verdict == "expired" and decision.choice is not None:
        return f"expired (the timeout policy applied {decision.choice!r})"
    return verdict
