"""Tier 3 on a persisted dispute (R16): the responsible principals' final decision.

The responsible principals are the parties' principals. They decide together: each is a
:class:`~accord.approvals.Reviewer` authenticated by its registered reviewer key (the approval
queue's credential), and each signs the §6 resolution (``resolution_level`` ``human_appeal``,
``binding_resolution``) under ``DCP-DISPUTE-SIG-v2``. The decision is final: the dispute is
resolved and no tier acts on it again. Principals who cannot agree decide nothing here —
organisational procedure applies, outside the protocol (R16).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from accord.approvals import Reviewer
from accord.clock import isoformat
from accord.conflicts import Tier
from accord.disputes.dcp.refusal import refused
from accord.disputes.dcp.resolution_record import ResolutionRecord
from accord.disputes.dcp.signing import cosigned
from accord.disputes.dcp.vocabulary import ResolutionType
from accord.disputes.tiers.resolutions import tier_resolution
from accord.disputes.tiers.tier_context import TierContext, check_text
from accord.store.tables import dispute_appeal_decisions

_TIER3 = (Tier.HUMAN_APPEAL,)


class HumanAppeal:
    """Tier-3 decisions on persisted disputes."""

    def __init__(self, context: TierContext) -> None:
        self._c = context

    def decide_appeal(
        self, dispute_id: str, reviewers: Sequence[Reviewer], *, outcome: str, reasoning: str
    ) -> ResolutionRecord:
        """The responsible principals' final, binding decision (R16)."""
        check_text(outcome, "outcome", "R16")
        check_text(reasoning, "reasoning", "R16")
        for reviewer in reviewers:
            if not isinstance(reviewer, Reviewer) or reviewer.signer is None:
                raise refused(
                    "R16",
                    "reviewers",
                    "each principal signs with a registered reviewer key",
                    code="appeal.unsigned",
                )
        deciders = [r.principal_id for r in reviewers]
        if len(set(deciders)) != len(deciders):
            raise refused(
                "R16", "reviewers", "each principal decides once", code="appeal.duplicate"
            )
        now = self._c.clock.now()
        with self._c.desk.transaction() as conn:
            dispute = self._c.at_tier(conn, dispute_id, _TIER3, "R16")
            responsible = sorted({p.principal_id for p in dispute.parties})
            if sorted(deciders) != responsible:
                raise refused(
                    "R16",
                    "reviewers",
                    "the responsible principals of all parties decide, and only they",
                    code="appeal.wrong_principals",
                    responsible=responsible,
                    deciding=sorted(deciders),
                )
            record = tier_resolution(
                conn,
                dispute_id=dispute_id,
                level=Tier.HUMAN_APPEAL,
                resolution_type=ResolutionType.BINDING_RESOLUTION,
                description=outcome,
                reasoning=reasoning,
                at=now,
            )
            for reviewer in sorted(reviewers, key=lambda r: r.principal_id):
                assert reviewer.signer is not None
                record = cosigned(record, reviewer.principal_id, reviewer.signer)
            conn.execute(
                dispute_appeal_decisions.insert().values(
                    dispute_id=dispute_id,
                    resolution_id=record.resolution_id,
                    principals=json.dumps(responsible),
                    decided_at=isoformat(now),
                )
            )
            self._c.resolver.resolve_within(conn, dispute, record, actor=deciders_id(responsible))
        return record


def deciders_id(principals: Sequence[str]) -> str:
    """The actor of a joint decision: the principals' ids joined by ``+``."""
    return "+".join(principals)
