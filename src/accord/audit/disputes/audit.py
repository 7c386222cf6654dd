"""The dispute tables' audit: fold the signed events once, check the parties', members' and
principals' signatures they carry against the verified key registry, then check each table
with one read (set-based: no query per row)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, select

from accord.audit.disputes.after_rows import signed_after_rows
from accord.audit.disputes.checks import audit_table
from accord.audit.disputes.dispute_rows import signed_dispute_rows
from accord.audit.disputes.negotiation_rows import signed_negotiation_rows
from accord.audit.disputes.party_signatures import party_signature_problem
from accord.audit.disputes.signed import SIGNED_EVENTS, SignedLedger, signed_ledger
from accord.audit.disputes.tables import DISPUTE_TABLES
from accord.audit.disputes.tier_rows import signed_tier_rows
from accord.audit.paths import RowProblem
from accord.ledger import KeyRegistry
from accord.ledger.ledger import records_within
from accord.store.tables import compliance_actions


@dataclass(frozen=True)
class DisputeAudit:
    """Dispute rows checked, and the first problem (None: every table agrees)."""

    disputes: int
    problem: RowProblem | None


def audit_dispute_tables(conn: Connection, registry: KeyRegistry) -> DisputeAudit:
    """Check the signatures inside the signed dispute records against ``registry`` (the
    verified ledger's keys, ``pinned_registry_within``), then every audited dispute table
    against those records, all read through ``conn`` (one snapshot)."""
    ledger = signed_ledger(records_within(conn, SIGNED_EVENTS))
    signatures = party_signature_problem(ledger, registry)
    if signatures is not None:
        return DisputeAudit(0, signatures)
    signed = {
        **signed_dispute_rows(ledger),
        **signed_negotiation_rows(ledger),
        **signed_tier_rows(ledger),
        **signed_after_rows(ledger),
    }
    disputes = 0
    for name, audited in DISPUTE_TABLES.items():
        checked, problem = audit_table(
            conn,
            audited.table,
            audited.columns,
            signed[name],
            key=audited.key,
            required=audited.required,
            not_signed_yet=(
                None if audited.not_signed_yet is None else audited.not_signed_yet(ledger)
            ),
        )
        if name == "dcp_disputes":
            disputes = checked
        if problem is not None:
            return DisputeAudit(disputes, problem)
    return DisputeAudit(disputes, _unmatched_check(conn, ledger))


def _unmatched_check(conn: Connection, ledger: SignedLedger) -> RowProblem | None:
    """A signed compliance check whose action has no row (its row was given another id and
    reset to pending, or deleted): every check names a stored action."""
    stored = set(conn.execute(select(compliance_actions.c.action_id)).scalars())
    for dispute_id, dispute in ledger.disputes.items():
        for action_id, (event_type, step) in dispute.compliance.items():
            if action_id not in stored:
                return RowProblem(
                    code="compliance_actions.missing_row",
                    table="compliance_actions",
                    key=action_id,
                    column="action_id",
                    rule=f"the signed {event_type} at seq {step.seq} (dispute {dispute_id}) "
                    "names this action; no row has its id",
                )
    return None
