"""Checking stored stays against the reviewer-signed ``dispute_stay_ordered`` entries.

Each stay row copies the order a human principal signed with their reviewer key (the trust
pass of verification checks that signature against the reviewer key the ledger registered for
``ordered_by``) and names the entry that carries it (``ledger_seq``). Every row must equal its
entry's record, every entry must have its row.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Connection, select

from accord.audit.paths import RowProblem, shown
from accord.disputes.objections.stay import STAY_EVENT
from accord.store.tables import dispute_stays

STAY_EVENTS = (STAY_EVENT,)
_SIGNED = "the reviewer-signed order's field of the same name"
#: Each column of ``dispute_stays``: the field of the signed order it copies.
STAY_COLUMNS: Mapping[str, str] = {
    "objection_id": _SIGNED,
    "dispute_id": _SIGNED,
    "resolution_id": _SIGNED,
    "ordered_by": _SIGNED + "; the reviewer key's registered principal (trust pass)",
    "ordered_at": _SIGNED,
    "reason": _SIGNED,
    "ledger_seq": "the seq of the dispute_stay_ordered entry carrying the order",
}


def signed_stays(
    records: Iterable[tuple[int, str, Mapping[str, Any]]],
) -> dict[str, dict[str, Any]]:
    """Objection id → the row each signed order gives (``records_within(conn, STAY_EVENTS)``)."""
    found: dict[str, dict[str, Any]] = {}
    for seq, _event_type, record in records:
        objection_id = record.get("objection_id")
        if isinstance(objection_id, str):
            row = {c: record.get(c) for c in STAY_COLUMNS if c != "ledger_seq"}
            found[objection_id] = {**row, "ledger_seq": seq}
    return found


def audit_stays(
    conn: Connection, signed: Mapping[str, Mapping[str, Any]]
) -> tuple[int, RowProblem | None]:
    """Check every stay row against its signed order; returns the rows checked and the first
    problem (stays are few: one per objection, read at once)."""
    checked, seen = 0, set[str]()
    for row in conn.execute(select(dispute_stays).order_by(dispute_stays.c.objection_id)):
        stored = dict(row._mapping)
        key = str(stored["objection_id"])
        checked += 1
        seen.add(key)
        expected = signed.get(key)
        if expected is None:
            return checked, _problem(
                "unbacked", key, "row", "no signed dispute_stay_ordered entry orders this stay"
            )
        for column in STAY_COLUMNS:
            if stored[column] != expected[column]:
                return checked, _problem(
                    "mismatch",
                    key,
                    column,
                    "differs from the signed order",
                    shown(expected[column]),
                    shown(stored[column]),
                )
    for missing in sorted(signed.keys() - seen):
        return checked, _problem(
            "missing_row",
            missing,
            "row",
            f"ordered at seq {signed[missing]['ledger_seq']}, but no stay row",
        )
    return checked, None


def _problem(
    kind: str,
    key: str,
    column: str,
    rule: str,
    expected: str | None = None,
    stored: str | None = None,
) -> RowProblem:
    return RowProblem(
        code=f"dispute_stays.{kind}",
        table="dispute_stays",
        key=key,
        column=column,
        rule=rule,
        expected=expected,
        stored=stored,
    )
