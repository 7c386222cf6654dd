"""How much weight a precedent carries: the tier that decided it (R24)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from accord.conflicts.dispute_type import Tier

AUTHORITY_RANKS: Mapping[Tier, int] = MappingProxyType(
    {
        Tier.HUMAN_APPEAL: 3,
        Tier.CONTEXTUAL_ARBITRATION: 2,
        Tier.DIRECT_NEGOTIATION: 1,
    }
)
"""R24: human_appeal > contextual_arbitration > direct_negotiation (higher ranks first)."""


def authority_rank(tier: Tier) -> int:
    """The rank search orders by (3 for human appeal ... 1 for direct negotiation)."""
    return AUTHORITY_RANKS[tier]
