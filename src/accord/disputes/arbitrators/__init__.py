"""The panel's members that act: an agent arbitrator deliberating through the
``LanguageModel`` port, and people voting through the approval queue (tier 2, R10-R15)."""

from accord.disputes.arbitrators.agent import (
    AgentArbitrator,
    ArbitratorFailure,
    ArbitratorVote,
    PanelDeliberation,
    vote_independently,
)
from accord.disputes.arbitrators.human import HumanArbitratorPort
from accord.disputes.arbitrators.queued_human import QueuedHumanArbitrator, vote_from_decision

__all__ = [
    "AgentArbitrator",
    "ArbitratorFailure",
    "ArbitratorVote",
    "HumanArbitratorPort",
    "PanelDeliberation",
    "QueuedHumanArbitrator",
    "vote_from_decision",
    "vote_independently",
]
