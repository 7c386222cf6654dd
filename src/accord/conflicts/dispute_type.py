"""DCP-07's dispute types (R1) and tiers, with the tier each type starts at (R2)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType


class DisputeType(StrEnum):
    """The four DCP-07 dispute types (R1)."""

    RESOURCE_CONFLICT = "resource_conflict"
    DIRECTIVE_CONFLICT = "directive_conflict"
    CAPABILITY_CONFLICT = "capability_conflict"
    POLICY_CONFLICT = "policy_conflict"


class Tier(StrEnum):
    """The three tiers a dispute climbs, cheapest first."""

    DIRECT_NEGOTIATION = "direct_negotiation"
    CONTEXTUAL_ARBITRATION = "contextual_arbitration"
    HUMAN_APPEAL = "human_appeal"


TIER_ORDER = (Tier.DIRECT_NEGOTIATION, Tier.CONTEXTUAL_ARBITRATION, Tier.HUMAN_APPEAL)
"""The tiers from lowest to highest."""

STARTING_TIERS: Mapping[DisputeType, Tier] = MappingProxyType(
    {
        DisputeType.RESOURCE_CONFLICT: Tier.DIRECT_NEGOTIATION,
        DisputeType.DIRECTIVE_CONFLICT: Tier.CONTEXTUAL_ARBITRATION,
        DisputeType.CAPABILITY_CONFLICT: Tier.DIRECT_NEGOTIATION,
        DisputeType.POLICY_CONFLICT: Tier.DIRECT_NEGOTIATION,
    }
)
"""R2: ``directive_conflict`` starts at contextual arbitration, the others at negotiation."""
