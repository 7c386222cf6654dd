"""Withdrawing the ballot papers of a tier a dispute has left (R4, R6, R15, R17).

Human panel members vote through approval items (``dispute_ballot_papers``); once the dispute
is no longer deciding at ``contextual_arbitration`` — escalated by a party or by the deadline,
split, resolved, withdrawn or abandoned — or once its panel has decided, a paper still pending
would be a vote nobody may cast. :func:`withdraw_ballot_papers` is the one way they are
withdrawn: the panel's tally calls it, and :class:`BallotWithdrawal` (the dispute recorder's
``on_tier_exit`` hook) calls it for every recorded step that takes a dispute off the tier,
in that step's transaction. A withdrawn paper is ``cancelled`` in the queue, its timeout
disarmed, and a decision on it is refused (``approvals.already_decided``, status
``cancelled``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, select

from accord.approvals import ApprovalItem, ApprovalQueue, ApprovalStatus
from accord.conflicts import Tier
from accord.store.tables import approval_items, dispute_ballot_papers

PAPER_TIER = Tier.CONTEXTUAL_ARBITRATION
"""The only tier whose panels have ballot papers."""
MAX_IDS_PER_QUERY = 500
"""Dispute ids per ``IN (...)`` (the sweeper's batches are 100)."""


@dataclass(frozen=True, slots=True)
class TierExit:
    """A recorded step (``event_type`` by ``actor``) took dispute ``dispute_id`` off
    ``tier``; it is now ``status``."""

    dispute_id: str
    tier: Tier
    event_type: str
    actor: str
    status: str


def withdraw_ballot_papers(
    conn: Connection,
    queue: ApprovalQueue,
    dispute_ids: Sequence[str],
    *,
    cancelled_by: str,
    reason: str,
) -> list[ApprovalItem]:
    """Withdraw every pending ballot paper of ``dispute_ids`` in the caller's transaction:
    found with one query per ``MAX_IDS_PER_QUERY`` disputes, cancelled together (one
    ``approval_cancelled`` event each, appended at once); the papers withdrawn."""
    ids = sorted(set(dispute_ids))
    pending: list[str] = []
    for start in range(0, len(ids), MAX_IDS_PER_QUERY):
        chunk = ids[start : start + MAX_IDS_PER_QUERY]
        pending += conn.execute(
            select(dispute_ballot_papers.c.item_id)
            .join(approval_items, approval_items.c.item_id == dispute_ballot_papers.c.item_id)
            .where(dispute_ballot_papers.c.dispute_id.in_(chunk))
            .where(approval_items.c.status == ApprovalStatus.PENDING.value)
        ).scalars()
    return queue.cancel_pending_within(conn, pending, cancelled_by=cancelled_by, reason=reason)


class BallotWithdrawal:
    """The recorder's ``on_tier_exit`` hook: the papers of disputes leaving tier 2."""

    def __init__(self, queue: ApprovalQueue) -> None:
        self._queue = queue

    def __call__(self, conn: Connection, exits: Sequence[TierExit]) -> None:
        left = [e for e in exits if e.tier is PAPER_TIER]
        if not left:  # tier-1 escalations (the sweeper's bulk) cost no query
            return
        groups: dict[tuple[str, str, str], list[str]] = {}
        for e in left:  # one query per kind of exit (a sweeper batch is one kind)
            groups.setdefault((e.actor, e.event_type, e.status), []).append(e.dispute_id)
        for (actor, event_type, status), dispute_ids in sorted(groups.items()):
            withdraw_ballot_papers(
                conn,
                self._queue,
                dispute_ids,
                cancelled_by=actor,
                reason=f"the dispute left {PAPER_TIER.value} ({event_type}, now {status}): "
                "this vote can no longer be cast",
            )
