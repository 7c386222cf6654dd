"""Tier 1 of DCP-07 (R7, R8): negotiation between a dispute's parties as pure state, the
negotiation strategies (time-sharing, priority, capability) and the commit–reveal coin flip.

Nothing here does I/O or reads a clock: every step takes the time it happens at and returns a
new immutable state, or raises :class:`NegotiationRefused` naming the requirement it breaks.
"""

from accord.disputes.negotiation.capability import by_capability, relevance
from accord.disputes.negotiation.coin_flip import (
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
from accord.disputes.negotiation.order import NegotiatedOrder
from accord.disputes.negotiation.priority import by_priority
from accord.disputes.negotiation.random_draws import DRAW_ALGORITHM, DrawStream, choose
from accord.disputes.negotiation.refusals import NegotiationRefused
from accord.disputes.negotiation.session import (
    Acceptance,
    Agreement,
    CounterEvidence,
    Negotiation,
    NegotiationStatus,
    Proposal,
)
from accord.disputes.negotiation.time_sharing import TimeShare, TimeSlot, time_sharing

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
