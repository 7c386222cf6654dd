"""Tier 1 of DCP-07 (R7, R8): negotiation between a dispute's parties as pure state, the
negotiation strategies (time-sharing, priority, capability) and the commit–reveal coin flip.

Nothing here does I/O or reads a clock: every step takes the time it happens at and returns a
new immutable state, or raises :class:`NegotiationRefused` naming the requirement it breaks.
"""

from accord.dcp07.negotiation.capability import by_capability, relevance
from accord.dcp07.negotiation.coin_flip import (
    COIN_ALGORITHM,
    MIN_NONCE_BYTES,
    CoinFlip,
    CoinOutcome,
    Commit,
    Reveal,
    RevealedNonce,
    coin_order,
    coin_outcome_from_reveals,
    commitment,
    new_nonce,
)
from accord.dcp07.negotiation.order import NegotiatedOrder
from accord.dcp07.negotiation.priority import by_priority
from accord.dcp07.negotiation.random_draws import DRAW_ALGORITHM, DrawStream, choose
from accord.dcp07.negotiation.refusals import NegotiationRefused
from accord.dcp07.negotiation.session import (
    Acceptance,
    Agreement,
    CounterEvidence,
    Negotiation,
    NegotiationStatus,
    Proposal,
)
from accord.dcp07.negotiation.time_sharing import TimeShare, TimeSlot, time_sharing

__all__ = [
    "COIN_ALGORITHM",
    "DRAW_ALGORITHM",
    "MIN_NONCE_BYTES",
    "Acceptance",
    "Agreement",
    "CoinFlip",
    "CoinOutcome",
    "Commit",
    "CounterEvidence",
    "DrawStream",
    "NegotiatedOrder",
    "Negotiation",
    "NegotiationRefused",
    "NegotiationStatus",
    "Proposal",
    "Reveal",
    "RevealedNonce",
    "TimeShare",
    "TimeSlot",
    "by_capability",
    "by_priority",
    "choose",
    "coin_order",
    "coin_outcome_from_reveals",
    "commitment",
    "new_nonce",
    "relevance",
    "time_sharing",
]
