"""What comes after tier 1: the case's tier-1 rungs, the tier it escalates to, and who decides.

One policy choice per case (:meth:`ResolutionPolicy.choose`) feeds all three: its ``tier1``
replaces the chain's tier-1 rungs (:func:`with_tier_one_rungs`), the chain's first later step
names the tier an unsettled case escalates to (:func:`escalation_target`, never below the
tier its dispute type starts at — R2, R18), and a critical conflict that source verification
did not settle goes to people unless its conflict type opted in (:func:`after_tier_one`).
"""

from __future__ import annotations

from types import MappingProxyType

from accord.conflicts import TIER_ORDER, Classification, Severity, Tier
from accord.ladder.policy import CRITICAL_KEY, StrategyChoice
from accord.ladder.tier_one import TIER_ONE_RUNGS
from accord.values import revised

NEXT_TIER = MappingProxyType(
    {
        "arbitration": Tier.CONTEXTUAL_ARBITRATION,
        "debate": Tier.CONTEXTUAL_ARBITRATION,
        "hybrid": Tier.CONTEXTUAL_ARBITRATION,
    }
)
"""The tier each later chain step runs at; any other step (``human``, or none) is human appeal."""

def escalation_target(classification: Classification, next_step: str | None) -> Tier:
    """The tier of the chain's next step, never below the tier the dispute starts at (R2, R18)."""
    target = NEXT_TIER.get(next_step or "", Tier.HUMAN_APPEAL)
    return max(target, classification.starting_tier, key=TIER_ORDER.index)


def with_tier_one_rungs(
    classification: Classification, rungs: tuple[str, ...] | None
) -> Classification:
    """The classification whose chain runs ``rungs`` at tier 1 (None: the chain's own), keeping
    the chain's later steps in order."""
    if rungs is None:
        return classification
    later = tuple(s for s in classification.strategy_chain if s not in TIER_ONE_RUNGS)
    return revised(classification, strategy_chain=(*rungs, *later))


#: Why a critical conflict tier 1 could not verify goes to people (playbook §7).
CRITICAL_TO_PEOPLE = (
    "critical conflict without source verification: people decide (seed 002 §7; a conflict "
    "type may opt in with conflict_resolution.conflict_types.<type>.critical_without_source)"
)


def after_tier_one(choice: StrategyChoice, severity: Severity) -> StrategyChoice:
    """The strategy that runs once tier 1 escalated: the policy's ``choice``, except that a
    critical conflict goes to people (the human strategy) unless its conflict type opted in
    (the case then records :data:`CRITICAL_TO_PEOPLE`)."""
    if severity is not Severity.CRITICAL or choice.critical_opt_in is not None:
        return choice
    return StrategyChoice(
        strategy="human",
        settings={},
        tier1=choice.tier1,
        chosen_by=CRITICAL_KEY,
        department=choice.department,
    )


__all__ = [
    "CRITICAL_TO_PEOPLE",
    "NEXT_TIER",
    "after_tier_one",
    "escalation_target",
    "with_tier_one_rungs",
]
