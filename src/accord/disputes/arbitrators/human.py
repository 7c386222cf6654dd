"""Arbitrators that are people: the port through which a panel asks a human member to vote.

:class:`accord.disputes.arbitrators.queued_human.QueuedHumanArbitrator` implements it
over the approval queue (the composition root chooses how each member's item is routed). The
person's answer comes back as a :class:`PanelVote` signed with
the member's reviewer key, and is counted by :meth:`PanelBallot.cast` like any other vote —
with the same refusals (non-member, second vote, after the deadline).
"""

from __future__ import annotations

from typing import Protocol

from sqlalchemy import Connection

from accord.approvals.policies import TimeoutPolicy
from accord.dcp07.panels.formation import PanelFormation
from accord.dcp07.panels.pool import PoolMember
from accord.dcp07.panels.question import PanelQuestion


class HumanArbitratorPort(Protocol):
    """Asks a human panel member for a vote; returns the id of the queued request."""

    def request_vote(
        self, member: PoolMember, question: PanelQuestion, formation: PanelFormation
    ) -> str: ...

    def request_vote_within(
        self,
        conn: Connection,
        member: PoolMember,
        question: PanelQuestion,
        formation: PanelFormation,
        *,
        policy: TimeoutPolicy | None = None,
    ) -> str:
        """:meth:`request_vote` inside the caller's write transaction (``policy``: the item's
        timeout policy instead of the port's own choice)."""
        ...
