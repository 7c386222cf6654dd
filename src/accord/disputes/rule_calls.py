"""``Accord.disputes``' calls for the rules after a resolution: compliance (R20–R22),
objections and stays (R27–R29), cross-chain consistency (R31).

A mixin of :class:`~accord.disputes.service.Disputes`: each call delegates to the
part that owns the rule (``disputes.compliance``, ``disputes.objections``,
:func:`~accord.dcp07.cross_chain.cross_check`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from accord.approvals import Reviewer
from accord.dcp07.cross_chain import CrossChainReport, ExportedEntry, cross_check
from accord.dcp07.vocabulary import ObjectionType
from accord.disputes.compliance import Compliance, ComplianceOutcome, ComplianceReport
from accord.disputes.objections import Objections, StoredObjection, StoredStay


class RuleCalls:
    """The compliance, objection and cross-chain calls of ``Accord.disputes``."""

    compliance: Compliance
    """Required actions, reports and non-compliance flags (R20–R22)."""
    objections: Objections
    """Objections to resolutions and the stays people order (R27–R29)."""

    def comply(
        self, dispute_id: str, agent_id: str, report: ComplianceReport | Mapping[str, Any]
    ) -> ComplianceOutcome:
        """Check ``agent_id``'s compliance report by the resolution's method (R20); a failure
        opens a ``policy_conflict`` dispute at human appeal (R21) and may flag the agent (R22)."""
        return self.compliance.comply(dispute_id, agent_id, report)

    def object(
        self,
        dispute_id: str,
        resolution_id: str,
        objecting_party: str,
        objection_type: ObjectionType | str,
        grounds: Mapping[str, Any],
        remedy: Mapping[str, Any],
    ) -> StoredObjection:
        """File a party's signed objection to the dispute's resolution (R27); a ``rights``
        objection is routed to human appeal (R29); the resolution stays in force (R28)."""
        return self.objections.object(
            dispute_id, resolution_id, objecting_party, objection_type, grounds, remedy
        )

    def order_stay(self, objection_id: str, reviewer: Reviewer, reason: str = "") -> StoredStay:
        """A human principal stays the resolution an objection answers (R28)."""
        return self.objections.order_stay(objection_id, reviewer, reason)

    def cross_check(
        self, chains: Mapping[str, Sequence[ExportedEntry]], dispute_id: str | None = None
    ) -> CrossChainReport:
        """Check that the parties' exported chains agree about one dispute (R31)."""
        return cross_check(chains, dispute_id)
