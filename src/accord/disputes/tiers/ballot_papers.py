"""How long a human panel member's ballot paper (its approval item) stays open."""

from __future__ import annotations

import math

from accord.approvals import DenyAfter
from accord.dcp07.panels import PanelFormation

MAX_PAPER_MINUTES = 525_600
"""The approval queue's longest timeout (a year); a longer vote leaves its paper to the tally."""


def until_vote_deadline(formation: PanelFormation) -> DenyAfter:
    """A ballot paper's policy: it expires (no vote) once the voting deadline has passed — at
    the first whole minute strictly after it (votes are taken up to the deadline itself) — so
    the approval sweep closes papers nobody decided."""
    seconds = (formation.vote_deadline - formation.formed_at).total_seconds()
    return DenyAfter(timeout_minutes=min(MAX_PAPER_MINUTES, math.floor(seconds / 60) + 1))
