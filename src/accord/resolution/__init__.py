"""Resolution: the tier ladder and the strategies that decide a classified conflict.

Tier 1 (``direct_negotiation``) is deterministic and costs no model tokens: source
verification > confidence > authority > vote, in the order of the case's strategy chain.
The :class:`ResolutionPolicy` (``conflict_resolution`` in YAML, the ladder's one source) is
chosen once per case (:class:`StrategyChoice`): its tier-1 rungs, the escalation target
(:func:`escalation_target`) and the strategy after tier 1 (:func:`after_tier_one`).

Tiers 2 and 3 are ``ConflictResolver`` strategies chosen by name from a
:class:`StrategyRegistry` (built-ins: authority, debate, human, hybrid; plugins through the
``accord.strategies`` entry-point group), each given a :class:`StrategyContext`.
"""

from accord.resolution._strategy_support import option_texts_of, options_of
from accord.resolution.authority import AuthoritySettings, AuthorityStrategy
from accord.resolution.builtin import BUILTIN_STRATEGIES, builtin_resolvers
from accord.resolution.debate import DebateSettings, DebateStrategy
from accord.resolution.escalation import (
    CRITICAL_TO_PEOPLE,
    NEXT_TIER,
    after_tier_one,
    escalation_target,
    with_tier_one_rungs,
)
from accord.resolution.human import HumanSettings, HumanStrategy
from accord.resolution.hybrid import HybridSettings, HybridStrategy
from accord.resolution.ladder import TIER_ONE_RUNGS, LadderSettings, run_tier_one
from accord.resolution.outcome import RungAttempt, TierOneOutcome
from accord.resolution.policy import CRITICAL_KEY, ResolutionPolicy, StrategyChoice
from accord.resolution.ports import AgentDecisionPort, ApprovalGateway
from accord.resolution.protocol import ConflictResolver, ResolverBase, draft_dissent
from accord.resolution.registry import (
    ENTRY_POINT_GROUP,
    PluginError,
    StrategyRegistry,
    run_isolated,
)
from accord.resolution.rung_context import RungContext
from accord.resolution.source_verification import SourceFinding, SourceVerifier, VerifierRegistry
from accord.resolution.strategy_context import StrategyContext
from accord.resolution.strategy_types import Dispute, DissentDraft, StrategyOutcome

__all__ = [
    "BUILTIN_STRATEGIES",
    "CRITICAL_KEY",
    "CRITICAL_TO_PEOPLE",
    "ENTRY_POINT_GROUP",
    "NEXT_TIER",
    "TIER_ONE_RUNGS",
    "AgentDecisionPort",
    "ApprovalGateway",
    "AuthoritySettings",
    "AuthorityStrategy",
    "ConflictResolver",
    "DebateSettings",
    "DebateStrategy",
    "Dispute",
    "DissentDraft",
    "HumanSettings",
    "HumanStrategy",
    "HybridSettings",
    "HybridStrategy",
    "LadderSettings",
    "PluginError",
    "ResolutionPolicy",
    "ResolverBase",
    "RungAttempt",
    "RungContext",
    "SourceFinding",
    "SourceVerifier",
    "StrategyChoice",
    "StrategyContext",
    "StrategyOutcome",
    "StrategyRegistry",
    "TierOneOutcome",
    "VerifierRegistry",
    "after_tier_one",
    "builtin_resolvers",
    "draft_dissent",
    "escalation_target",
    "option_texts_of",
    "options_of",
    "run_isolated",
    "run_tier_one",
    "with_tier_one_rungs",
]
