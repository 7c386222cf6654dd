"""The stored-rows audit ``Accord.verify`` runs after the ledger verifies: ledger rows outside
the chain, then cases (with parties and dissent), then approval items, then the DCP-07
dispute tables, each against the signed records read in the same snapshot."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection

from accord.disputes.approval_audit import SIGNED_PATHS as APPROVAL_EVENTS
from accord.disputes.approval_audit import audit_items, signed_items
from accord.disputes.audit_paths import RowProblem
from accord.disputes.case_audit import CASE_EVENTS, audit_cases, signed_cases
from accord.disputes.dcp_audit import audit_dispute_tables
from accord.disputes.signable import AnswerHashes
from accord.ledger.ledger import records_within
from accord.ledger.outside_chain import row_outside_chain


@dataclass(frozen=True)
class StoredAudit:
    """Rows checked (case rows, approval rows, dispute rows), and the first problem (None:
    all agree)."""

    cases: int
    approval_items: int
    problem: RowProblem | None
    disputes: int = 0


def audit_stored_rows(conn: Connection) -> StoredAudit:
    """Audit every stored row against the signed records, all read through ``conn``."""
    outside = row_outside_chain(conn)
    if outside is not None:
        problem = RowProblem(
            code=f"{outside.table}.outside_chain",
            table=outside.table,
            key=outside.key,
            column=outside.column,
            rule=f"a row outside the chain: {outside.rule}",
            seq=int(outside.key),
        )
        return StoredAudit(0, 0, problem)
    hashes = AnswerHashes()  # answers repeat between records and rows: hash each once
    signed = signed_cases(records_within(conn, CASE_EVENTS), hashes)
    cases = audit_cases(conn, signed, hashes=hashes)
    if cases.problem is not None:
        return StoredAudit(cases.checked, 0, cases.problem)
    views = {case_id: case.view for case_id, case in signed.items()}
    items, found = audit_items(
        conn, signed_items(records_within(conn, APPROVAL_EVENTS)), views
    )
    if found is not None:
        return StoredAudit(cases.checked, items, found)
    disputes = audit_dispute_tables(conn)
    return StoredAudit(cases.checked, items, disputes.problem, disputes.disputes)
