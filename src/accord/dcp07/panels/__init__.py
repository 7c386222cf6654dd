"""Tier 2 of DCP-07 (R10–R15, R32, R35): M-of-N arbitration panels as pure, recorded logic.

The arbitrator pool (spanning organisations), the parties' nominations, eligibility checked and
kept per candidate, the verifiable random draw, signed independent votes, the ballot's
refusals and the tally into binding / recommended / split. Arbitrators are agents
(:class:`AgentArbitrator`, through the ``LanguageModel`` port) or people
(:class:`HumanArbitratorPort`). I/O sits behind ports (:class:`ActiveDisputes`, the
interaction log's ``InteractionHistory``); every refusal is a :class:`PanelRefused` naming
its requirement.
"""

from accord.dcp07.panels.ballot import PanelBallot
from accord.dcp07.panels.eligibility import (
    DEFAULT_INTERACTION_WINDOW,
    ActiveDisputes,
    CandidateEligibility,
    EligibilityRules,
    IneligibilityReason,
    check_candidate,
)
from accord.dcp07.panels.formation import (
    PanelFormation,
    PanelMode,
    form_panel,
    verify_formation,
)
from accord.dcp07.panels.nominations import Nomination, check_nominations
from accord.dcp07.panels.pool import MIN_PANEL_SIZE, ArbitratorKind, ArbitratorPool, PoolMember
from accord.dcp07.panels.question import PanelQuestion, PartyPosition, ProposedResolution
from accord.dcp07.panels.refusals import PanelRefused
from accord.dcp07.panels.selection import (
    SELECTION_ALGORITHM,
    PanelSelection,
    panel_seed,
    recompute_selection,
    select_panel,
    verify_selection,
)
from accord.dcp07.panels.tally import MemberVote, PanelDecision, PanelTally, tally
from accord.dcp07.panels.threshold import PanelThreshold
from accord.dcp07.panels.votes import (
    PanelVote,
    VoteChoice,
    cast_vote,
    reasoning_hash,
    verify_vote,
)
from accord.dcp07.parties import Party

__all__ = [
    "DEFAULT_INTERACTION_WINDOW",
    "MIN_PANEL_SIZE",
    "SELECTION_ALGORITHM",
    "ActiveDisputes",
    "ArbitratorKind",
    "ArbitratorPool",
    "CandidateEligibility",
    "EligibilityRules",
    "IneligibilityReason",
    "MemberVote",
    "Nomination",
    "PanelBallot",
    "PanelDecision",
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
]
