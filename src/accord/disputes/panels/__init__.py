"""Tier 2 of DCP-07 (R10–R15, R32, R35): M-of-N arbitration panels as pure, recorded logic.

The arbitrator pool (spanning organisations), the parties' nominations, eligibility checked and
kept per candidate, the verifiable random draw, signed independent votes, the ballot's
refusals and the tally into binding / recommended / split. Arbitrators are agents
(:class:`AgentArbitrator`, through the ``LanguageModel`` port) or people
(:class:`HumanArbitratorPort`). I/O sits behind ports (:class:`ActiveDisputes`, the
interaction log's ``InteractionHistory``); every refusal is a :class:`PanelRefused` naming
its requirement.
"""

from accord.disputes.dcp.parties import Party
from accord.disputes.panels.agent_arbitrator import (
    AgentArbitrator,
    ArbitratorFailure,
    ArbitratorVote,
    PanelDeliberation,
    vote_independently,
)
from accord.disputes.panels.ballot import PanelBallot
from accord.disputes.panels.eligibility import (
    DEFAULT_INTERACTION_WINDOW,
    ActiveDisputes,
    CandidateEligibility,
    EligibilityRules,
    IneligibilityReason,
    check_candidate,
)
from accord.disputes.panels.formation import (
    PanelFormation,
    PanelMode,
    form_panel,
    verify_formation,
)
from accord.disputes.panels.human_arbitrator import HumanArbitratorPort
from accord.disputes.panels.nominations import Nomination, check_nominations
from accord.disputes.panels.pool import MIN_PANEL_SIZE, ArbitratorKind, ArbitratorPool, PoolMember
from accord.disputes.panels.question import PanelQuestion, PartyPosition, ProposedResolution
from accord.disputes.panels.queued_human_arbitrator import QueuedHumanArbitrator, vote_from_decision
from accord.disputes.panels.refusals import PanelRefused
from accord.disputes.panels.selection import (
    SELECTION_ALGORITHM,
    PanelSelection,
    panel_seed,
    recompute_selection,
    select_panel,
    verify_selection,
)
from accord.disputes.panels.tally import MemberVote, PanelDecision, PanelTally, tally
from accord.disputes.panels.threshold import PanelThreshold
from accord.disputes.panels.votes import (
    PanelVote,
    VoteChoice,
    cast_vote,
    reasoning_hash,
    verify_vote,
)

__all__ = [
    "DEFAULT_INTERACTION_WINDOW",
    "MIN_PANEL_SIZE",
    "SELECTION_ALGORITHM",
    "ActiveDisputes",
    "AgentArbitrator",
    "ArbitratorFailure",
    "ArbitratorKind",
    "ArbitratorPool",
    "ArbitratorVote",
    "CandidateEligibility",
    "EligibilityRules",
    "HumanArbitratorPort",
    "IneligibilityReason",
    "MemberVote",
    "Nomination",
    "PanelBallot",
    "PanelDecision",
    "PanelDeliberation",
    "PanelFormation",
    "PanelMode",
    "PanelQuestion",
    "PanelRefused",
    "PanelSelection",
    "PanelTally",
    "PanelThreshold",
    "PanelVote",
    "Party",
    "PartyPosition",
    "PoolMember",
    "ProposedResolution",
    "QueuedHumanArbitrator",
    "VoteChoice",
    "cast_vote",
    "check_candidate",
    "check_nominations",
    "form_panel",
    "panel_seed",
    "reasoning_hash",
    "recompute_selection",
    "select_panel",
    "tally",
    "verify_formation",
    "verify_selection",
    "verify_vote",
    "vote_from_decision",
    "vote_independently",
]
