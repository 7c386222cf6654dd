"""Resolution: the tier ladder and the strategies that decide a classified conflict.

Tier 1 (``direct_negotiation``) is deterministic and costs no model tokens: source
verification > confidence > authority > vote, in the order of the case's strategy chain.
"""

from accord.resolution.ladder import TIER_ONE_RUNGS, LadderSettings, run_tier_one
from accord.resolution.outcome import RungAttempt, TierOneOutcome
from accord.resolution.rung_context import RungContext
from accord.resolution.source_verification import SourceFinding, SourceVerifier, VerifierRegistry

__all__ = [
    "TIER_ONE_RUNGS",
    "LadderSettings",
    "RungAttempt",
    "RungContext",
    "SourceFinding",
    "SourceVerifier",
    "TierOneOutcome",
    "VerifierRegistry",
    "run_tier_one",
]
