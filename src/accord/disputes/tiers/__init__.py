"""DCP-07 tiers 1–3 on a persisted dispute: negotiation and the coin flip (R7–R9), arbitration
panels (R10–R15, R32, R35, R39), human appeal (R16), each step a signed ledger event written
with its rows, resolution handed to the dispute store (``dispute_resolved``) and filed as a
precedent (R23). :class:`DisputeTiers` bundles the three services."""

from __future__ import annotations

from accord.disputes.tiers.appeal import HumanAppeal
from accord.disputes.tiers.appeal_proposal import AppealProposal
from accord.disputes.tiers.arbitration import Arbitration
from accord.disputes.tiers.credentials import UnknownActor, acting_agent
from accord.disputes.tiers.dispute_port import DisputeDesk, TierDispute
from accord.disputes.tiers.negotiating import Negotiating, NegotiationStep
from accord.disputes.tiers.panel_rows import SeatedPanel
from accord.disputes.tiers.resolving import Resolver
from accord.disputes.tiers.service import DisputeTiers
from accord.disputes.tiers.settings import ArbitratorSettings, PoolMemberSettings
from accord.disputes.tiers.tier_context import TierContext

__all__ = [
    "AppealProposal",
    "Arbitration",
    "ArbitratorSettings",
    "DisputeDesk",
    "DisputeTiers",
    "HumanAppeal",
    "Negotiating",
    "NegotiationStep",
    "PoolMemberSettings",
    "Resolver",
    "SeatedPanel",
    "TierContext",
    "TierDispute",
    "UnknownActor",
    "acting_agent",
]
