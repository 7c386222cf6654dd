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

from accord.ladder._strategy_support import option_texts_of, options_of
from accord.ladder.authority import AuthoritySettings, AuthorityStrategy
from accord.ladder.builtin import BUILTIN_STRATEGIES, builtin_resolvers
from accord.ladder.debate import DebateSettings, DebateStrategy
from accord.ladder.escalation import (
    CRITICAL_TO_PEOPLE,
    NEXT_TIER,
    after_tier_one,
    escalation_target,
    with_tier_one_rungs,
)
from accord.ladder.human import HumanSettings, HumanStrategy
from accord.ladder.hybrid import HybridSettings, HybridStrategy
from accord.ladder.outcome import RungAttempt, TierOneOutcome
from accord.ladder.policy import CRITICAL_KEY, ResolutionPolicy, StrategyChoice
from accord.ladder.ports import AgentDecisionPort, ApprovalGateway
from accord.ladder.protocol import ConflictResolver, ResolverBase, draft_dissent
from accord.ladder.registry import (
    ENTRY_POINT_GROUP,
    PluginError,
    StrategyRegistry,
    run_isolated,
)
from accord.ladder.rung_context import RungContext
from accord.ladder.source_verification import SourceFinding, SourceVerifier, VerifierRegistry
from accord.ladder.strategy_context import StrategyContext
from accord.ladder.strategy_types import Conflict, DissentDraft, StrategyOutcome
from accord.ladder.tier_one import TIER_ONE_RUNGS, LadderSettings, run_tier_one

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
    "Conflict",
    "ConflictResolver",
    "DebateSettings",
    "DebateStrategy",
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
