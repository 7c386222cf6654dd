"""Why the queue refused: errors with stable codes under ``approvals.*``."""

from __future__ import annotations

from accord.errors import AccordError


class AlreadyDecided(AccordError):
    """The item is no longer pending; ``context`` names who closed it and how."""

    code = "approvals.already_decided"


class DecisionForbidden(AccordError):
    """The principal does not hold the role the item is currently offered to."""

    code = "approvals.forbidden"


class ApprovalCancelled(AccordError):
    """The item was withdrawn, so a parked task will never get a decision."""

    code = "approvals.cancelled"


class AlreadyResumed(AccordError):
    """The parked task was resumed before (a task resumes exactly once)."""

    code = "approvals.already_resumed"


class DecisionWaitTimedOut(AccordError):
    """``TaskHandle.decision`` gave up waiting (the item itself stays pending)."""

    code = "approvals.wait_timed_out"


def already_decided(item_id: str, status: str, decided_by: str | None) -> AlreadyDecided:
    who = f" by {decided_by}" if decided_by else ""
    why = (
        " (withdrawn or cancelled: it can no longer be decided)"
        if status == "cancelled"
        else ""
    )
    return AlreadyDecided(
        f"approval {item_id} is already {status}{who}{why}",
        item_id=item_id,
        status=status,
        decided_by=decided_by,
    )


class ConflictedDecider(AccordError):
    """The principal is a party of the case, or owns an agent that is."""

    code = "approvals.conflicted_decider"


class NotAParty(AccordError):
    """An agent acting in a case it is not party to."""

    code = "approvals.not_a_party"


class UnconfiguredReviewer(AccordError):
    """The principal is not configured as a reviewer (``approvals.principals``), or the key
    is not a registered, unrevoked reviewer key."""

    code = "approvals.unconfigured_reviewer"
