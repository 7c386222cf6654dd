"""The stored-rows audit ``Accord.verify`` runs after the ledger verifies: ledger rows outside
the chain, then cases (with parties and dissent), approval items, the DCP-07 dispute tables,
boundaries and probe attempts, stays, API keys, and the precedent registry (its signers pinned
by the ledger's key registry), each against the signed records read in the same snapshot."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import Connection

from accord.audit.api_keys import audit_api_keys, signed_api_keys
from accord.audit.approvals import SIGNED_PATHS as APPROVAL_EVENTS
from accord.audit.approvals import audit_items, signed_items, unproved_shown
from accord.audit.boundaries import BOUNDARY_EVENTS, audit_boundaries, signed_boundaries
from accord.audit.cases import CASE_EVENTS, audit_cases, signed_cases
from accord.audit.disputes import audit_dispute_tables
from accord.audit.paths import RowProblem
from accord.audit.precedents import audit_precedents, ledger_signers
from accord.audit.stays import STAY_EVENTS, audit_stays, signed_stays
from accord.cases.signable import AnswerHashes
from accord.ledger.api_key_events import API_KEY_EVENTS
from accord.ledger.key_registry import KeyRegistry
from accord.ledger.ledger import pinned_registry_within, records_within
from accord.ledger.outside_chain import row_outside_chain
from accord.ledger.trust import TrustRoot


@dataclass(frozen=True)
class StoredAudit:
    """Rows checked (case rows, approval rows, dispute rows), and the first problem (None:
    all agree)."""

    cases: int
    approval_items: int
    problem: RowProblem | None
    disputes: int = 0
    unproved_shown: int = 0
    """Approval items requested before what people see was signed (older ledgers)."""


def audit_stored_rows(conn: Connection, root: TrustRoot, head: int) -> StoredAudit:
    """Audit every stored row against the signed records, all read through ``conn``; ``root``
    and the verified ledger's entries up to ``head`` pin who may sign a precedent bundle and
    the parties', members' and principals' signatures inside dispute records."""
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
    approvals = signed_items(records_within(conn, APPROVAL_EVENTS))
    items, found = audit_items(conn, approvals, views)
    if found is not None:
        return StoredAudit(cases.checked, items, found)
    registry, times = pinned_registry_within(conn, root, head)
    disputes = audit_dispute_tables(conn, registry)
    found = disputes.problem
    if found is None:
        found = _other_tables(conn, registry, times)
    return StoredAudit(cases.checked, items, found, disputes.disputes, unproved_shown(approvals))


def _other_tables(
    conn: Connection, registry: KeyRegistry, times: Mapping[int, str]
) -> RowProblem | None:
    """Boundaries and attempts, stays, API keys, then the precedent registry."""
    signed, attempts = signed_boundaries(records_within(conn, BOUNDARY_EVENTS))
    _, problem = audit_boundaries(conn, signed, attempts)
    if problem is None:
        _, problem = audit_stays(conn, signed_stays(records_within(conn, STAY_EVENTS)))
    if problem is None:
        _, problem = audit_api_keys(conn, signed_api_keys(records_within(conn, API_KEY_EVENTS)))
    if problem is None:
        _, problem = audit_precedents(conn, ledger_signers(registry, times))
    return problem
