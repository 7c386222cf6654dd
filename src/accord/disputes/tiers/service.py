"""The three tiers as one object, built from the shared ports."""

from __future__ import annotations

from datetime import timedelta

from accord.approvals import ApprovalQueue, WaitForever
from accord.clock import Clock
from accord.disputes.arbitrators import QueuedHumanArbitrator
from accord.disputes.tiers.appeal import HumanAppeal
from accord.disputes.tiers.arbitration import Arbitration
from accord.disputes.tiers.dispute_port import DisputeDesk
from accord.disputes.tiers.negotiating import Negotiating
from accord.disputes.tiers.prepared import DEFAULT_TTL, PreparedSteps
from accord.disputes.tiers.resolving import BundleRegistry, Resolver
from accord.disputes.tiers.settings import ArbitratorSettings
from accord.disputes.tiers.tier_context import TierContext
from accord.ledger import Ledger
from accord.org.interactions import InteractionHistory
from accord.store import Database


class DisputeTiers:
    """``negotiation`` (tier 1), ``arbitration`` (tier 2) and ``appeal`` (tier 3); ``prepared``
    is their agent steps signed by the agent's own key (prepare, then sign)."""

    def __init__(
        self,
        *,
        db: Database,
        ledger: Ledger,
        desk: DisputeDesk,
        clock: Clock,
        interactions: InteractionHistory,
        arbitrators: ArbitratorSettings | None = None,
        precedents: BundleRegistry | None = None,
        approvals: ApprovalQueue | None = None,
        prepared_ttl: timedelta = DEFAULT_TTL,
    ) -> None:
        """``precedents`` files each resolution's bundle in the resolving transaction (R23);
        ``approvals`` carries human panel members' ballot papers (each expires at the panel's
        voting deadline); ``prepared_ttl`` is how long a prepared step waits for its
        signatures."""
        context = TierContext(
            db=db, ledger=ledger, desk=desk, clock=clock, resolver=Resolver(desk, precedents)
        )
        human = (
            None
            if approvals is None
            else QueuedHumanArbitrator(approvals, policy_for=lambda _: WaitForever())
        )
        self.negotiation = Negotiating(context)
        self.arbitration = Arbitration(context, arbitrators, interactions, human)
        self.appeal = HumanAppeal(context)

        def services_over(pinned: TierContext) -> tuple[Negotiating, Arbitration]:
            return Negotiating(pinned), Arbitration(
                pinned, arbitrators, interactions, human, listen=False
            )

        self.prepared = PreparedSteps(context, services_over, ttl=prepared_ttl)
