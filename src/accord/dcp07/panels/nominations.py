"""R10: each party nominates candidates from the pre-approved pool.

A nomination by someone who is not a party, or of someone not in the pool, is refused (R10).
The candidates a panel is drawn from are the union of every party's nominees, each once.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pydantic import BaseModel, ConfigDict

from accord.dcp07.panels.pool import ArbitratorPool
from accord.dcp07.panels.refusals import PanelRefused
from accord.dcp07.parties import Party


class Nomination(BaseModel):
    """Party ``nominated_by`` puts ``agent_id`` forward."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    nominated_by: str
    agent_id: str
    nominated_at: datetime


def check_nominations(
    nominations: Sequence[Nomination], *, parties: Sequence[Party], pool: ArbitratorPool
) -> tuple[str, ...]:
    """The nominees, sorted and each once, after checking every nomination."""
    party_ids = {p.agent_id for p in parties}
    for nomination in nominations:
        if nomination.nominated_by not in party_ids:
            raise PanelRefused(
                f"{nomination.nominated_by} is not a party and cannot nominate arbitrators",
                code="panels.nominator_not_a_party",
                requirement="R10",
                field="nominated_by",
                rule="each party nominates candidates",
                agent_id=nomination.nominated_by,
            )
        pool.member(nomination.agent_id)
    return tuple(sorted({n.agent_id for n in nominations}))
