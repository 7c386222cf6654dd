"""Every dispute table ``verify`` checks: its description, how its rows are keyed, and which
signed rows must exist (a deleted row is caught)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table

from accord.audit.disputes.after_rows import (
    COMPLIANCE_ACTION_COLUMNS,
    FLAG_COLUMNS,
    OBJECTION_COLUMNS,
)
from accord.audit.disputes.checks import Description, Key, Signed
from accord.audit.disputes.dispute_rows import (
    CONTENT_COLUMNS,
    DISPUTE_COLUMNS,
    EVENT_COLUMNS,
    EVIDENCE_COLUMNS,
    PARTY_COLUMNS,
)
from accord.audit.disputes.negotiation_rows import (
    COIN_FLIP_COLUMNS,
    COIN_STEP_COLUMNS,
    NEGOTIATION_COLUMNS,
    NOMINATION_COLUMNS,
    unseated_nomination,
)
from accord.audit.disputes.signed import SignedLedger
from accord.audit.disputes.tier_rows import APPEAL_COLUMNS, PANEL_COLUMNS, VOTE_COLUMNS
from accord.audit.paths import Unsigned
from accord.store import tables


@dataclass(frozen=True)
class DisputeTable:
    """One audited table: its description, the columns its signed rows are keyed by (its
    primary key when empty) and which signed rows must be stored."""

    table: Table
    columns: Description
    key: tuple[str, ...] = ()
    required: Callable[[Key, Any], bool] = lambda _key, _about: True
    not_signed_yet: Callable[[SignedLedger], Callable[[Mapping[str, Any]], bool]] | None = None
    """Rows the design leaves unsigned for now (given the signed ledger): counted, not compared."""


#: In the order verify checks them (the dispute first: later tables lean on it).
DISPUTE_TABLES: Mapping[str, DisputeTable] = {
    t.table.name: t
    for t in (
        DisputeTable(tables.dcp_disputes, DISPUTE_COLUMNS),
        DisputeTable(tables.dcp_dispute_parties, PARTY_COLUMNS),
        DisputeTable(tables.dcp_dispute_events, EVENT_COLUMNS),
        DisputeTable(tables.dcp_dispute_evidence, EVIDENCE_COLUMNS),
        DisputeTable(tables.dcp_evidence_contents, CONTENT_COLUMNS),
        DisputeTable(tables.dispute_negotiation_steps, NEGOTIATION_COLUMNS),
        DisputeTable(tables.dispute_coin_flips, COIN_FLIP_COLUMNS),
        DisputeTable(tables.dispute_coin_steps, COIN_STEP_COLUMNS),
        DisputeTable(
            tables.dispute_nominations, NOMINATION_COLUMNS, not_signed_yet=unseated_nomination
        ),
        DisputeTable(tables.dispute_panels, PANEL_COLUMNS),
        DisputeTable(tables.dispute_panel_votes, VOTE_COLUMNS),
        DisputeTable(tables.dispute_appeal_decisions, APPEAL_COLUMNS),
        DisputeTable(tables.dispute_objections, OBJECTION_COLUMNS),
        DisputeTable(
            tables.compliance_actions, COMPLIANCE_ACTION_COLUMNS, key=("resolution_id", "position")
        ),
        DisputeTable(tables.compliance_flags, FLAG_COLUMNS),
    )
}


def described(name: str) -> dict[str, str | Unsigned]:
    """Table ``name``'s columns as ``AUDITED_COLUMNS`` lists them: where each is signed, or
    why it is not."""
    return {
        column: how.says if isinstance(how, Signed) else how
        for column, how in DISPUTE_TABLES[name].columns.items()
    }
