"""Checking stored cases against what was signed about them (pure: rows and records in).

The ledger is the authority; the ``cases``, ``case_parties`` and ``dissents`` tables are a
queryable copy. After the ledger verifies, every case row must agree with its own document,
with the subject and positions its opening record signed, with the case's latest signed
outcome, and with its party and dissent rows; every case settle opened must still have a row.
The first disagreement is reported with the case and field.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select, tuple_

from accord.crypto import content_hash
from accord.disputes.case import Case, CaseStatus, DissentRecord, SettleStatus
from accord.disputes.case_store import case_columns, dissent_row, party_rows
from accord.disputes.signable import answer_hash, signable
from accord.store.tables import case_parties, cases, dissents

#: Ledger events that carry a case's outcome, and the record key holding the answer's hash.
OUTCOME_EVENTS = {
    "dispute_resolved": "answer_hash",
    "consensus_recorded": "answer_hash",
    "outputs_merged": "merged_hash",
    "dispute_escalated": None,
    "dispute_abandoned": None,
}
#: Ledger events written when a case is first recorded.
OPENING_EVENTS = ("dispute_opened", "consensus_recorded", "outputs_merged")


@dataclass(frozen=True)
class CaseProblem:
    """Why a stored case does not match what was signed."""

    case_id: str
    field: str
    rule: str


@dataclass(frozen=True)
class AuditResult:
    """How many case rows were checked, and the first problem found (None: all agree)."""

    checked: int
    problem: CaseProblem | None


_KEPT = ("winner", "answer_hash", "merged_hash", "dissent")


@dataclass
class SignedCase:
    """What the ledger says about one case: where it was opened and its latest outcome
    (only the fields the audit compares, so a large ledger fits in memory)."""

    opened_at_seq: int | None = None
    opened_with: str | None = None
    """Hash of the subject and the positions (agent, answer) the opening record signed."""
    latest: tuple[int, str, dict[str, Any]] | None = None

    def add(self, seq: int, event_type: str, record: Mapping[str, Any]) -> None:
        if event_type in OPENING_EVENTS and self.opened_at_seq is None and _settle_wrote(record):
            self.opened_at_seq = seq
            subject = record.get("subject")
            description = subject.get("description") if isinstance(subject, Mapping) else None
            positions = [
                [p.get("agent_id"), p.get("answer")]
                for p in record.get("positions") or ()
                if isinstance(p, Mapping)
            ]
            self.opened_with = content_hash([description, positions])
        if event_type in OUTCOME_EVENTS and (self.latest is None or seq > self.latest[0]):
            self.latest = (seq, event_type, {k: record[k] for k in _KEPT if k in record})


def _settle_wrote(record: Mapping[str, Any]) -> bool:
    """Whether an opening record is one settle wrote for a case row (it carries the resolution
    log); events an application appends itself through the ledger API need no case row."""
    log = record.get("log")
    return isinstance(log, Mapping) and log.get("case_id") == record.get("dispute_id")


def signed_cases(records: Iterable[tuple[int, str, Mapping[str, Any]]]) -> dict[str, SignedCase]:
    """Fold ledger records (from ``Ledger.records``) into what was signed per case."""
    found: dict[str, SignedCase] = {}
    for seq, event_type, record in records:
        case_id = record.get("dispute_id")
        if isinstance(case_id, str):
            found.setdefault(case_id, SignedCase()).add(seq, event_type, record)
    return found


def _opened_with(case: Case) -> str:
    positions = [[p.agent, signable(p.output)] for p in case.positions]
    return content_hash([case.subject, positions])


def audit_case(
    row: Mapping[str, Any],
    signed: SignedCase | None,
    dissent_rows: Mapping[str, Mapping[str, Any]],
    party_rows_found: Sequence[Mapping[str, Any]] = (),
) -> CaseProblem | None:
    """The first way ``row`` (with its dissent and party rows) disagrees with ``signed``."""
    case_id = str(row["case_id"])
    try:
        case = Case.model_validate_json(row["document"])
    except ValueError as exc:
        return CaseProblem(case_id, "document", f"not a valid case document: {exc}")
    for column, value in case_columns(case).items():
        if row.get(column) != value:
            return CaseProblem(case_id, column, "the column disagrees with the case document")
    if signed is None or signed.opened_at_seq is None:
        return CaseProblem(case_id, "ledger", "no signed record opens this case")
    if signed.opened_with != _opened_with(case):
        return CaseProblem(
            case_id, "subject/positions", "the subject or positions differ from the signed ones"
        )
    expected_parties = {r["agent_id"]: r for r in party_rows(case)}
    found_parties = {str(r["agent_id"]): r for r in party_rows_found}
    if set(found_parties) != set(expected_parties):
        return CaseProblem(case_id, "parties", "the party rows are not the case's agents")
    for agent, wanted in expected_parties.items():
        for column, value in wanted.items():
            if found_parties[agent].get(column) != value:
                return CaseProblem(
                    case_id, f"party {agent}.{column}", "the party row disagrees with the case"
                )
    problem = _outcome_problem(case, signed)
    if problem is not None:
        return CaseProblem(case_id, *problem)
    return _dissent_problem(case, dissent_rows)


def _outcome_problem(case: Case, signed: SignedCase) -> tuple[str, str] | None:
    if signed.latest is None:
        return "ledger", "no signed outcome for this case"
    _, event_type, record = signed.latest
    closed = case.dcp_status is CaseStatus.ABANDONED
    if case.status in (SettleStatus.DENIED, SettleStatus.EXPIRED) or (
        case.status is SettleStatus.ESCALATED and closed  # denied before 'denied' existed
    ):
        if event_type != "dispute_abandoned":
            return "status", f"the latest signed outcome is {event_type}, not dispute_abandoned"
        return None
    if case.status is SettleStatus.ESCALATED:
        if event_type != "dispute_escalated":
            return "status", f"the latest signed outcome is {event_type}, not an escalation"
        return None
    decision = case.decision
    if decision is None:
        return "decision", "a case that is not escalated has no decision"
    wanted = {
        SettleStatus.SETTLED: "dispute_resolved",
        SettleStatus.NO_CONFLICT: "consensus_recorded",
        SettleStatus.MERGED: "outputs_merged",
    }[case.status]
    if event_type != wanted:
        return "status", f"the latest signed outcome is {event_type}, not {wanted}"
    hash_key = OUTCOME_EVENTS[event_type]
    if hash_key is not None and record.get(hash_key) != answer_hash(decision.answer):
        return "decision.answer", "the answer differs from the signed answer"
    if event_type == "dispute_resolved":
        if record.get("winner") != decision.winner:
            return "decision.winner", "the winner differs from the signed winner"
        signed_dissent = {
            str(d.get("dissent_id")): d.get("agent_id") for d in record.get("dissent") or ()
        }
        if signed_dissent != {d.dissent_id: d.agent_id for d in case.dissent}:
            return "dissent", "the dissent differs from the signed dissent"
    return None


def _dissent_problem(
    case: Case, dissent_rows: Mapping[str, Mapping[str, Any]]
) -> CaseProblem | None:
    documented = {d.dissent_id: d for d in case.dissent}
    for dissent_id, stored in dissent_rows.items():
        record = documented.get(dissent_id)
        if record is None:
            return CaseProblem(case.case_id, f"dissent {dissent_id}", "not in the case document")
        for column, value in dissent_row(record).items():
            if column == "document":
                same = _same_dissent(stored.get(column), record)
            else:
                same = stored.get(column) == value
            if not same:
                return CaseProblem(
                    case.case_id,
                    f"dissent {dissent_id}.{column}",
                    "the dissent row disagrees with the case document",
                )
    for dissent_id in documented:
        if dissent_id not in dissent_rows:
            return CaseProblem(case.case_id, f"dissent {dissent_id}", "the dissent row is missing")
    return None


def audit_cases(
    conn: Connection, signed: Mapping[str, SignedCase], batch: int = 500
) -> AuditResult:
    """Check every case row (and its dissent rows) against ``signed``; also every case settle
    signed must have a row. Read ``signed`` and the rows in one snapshot (``conn``), so writers
    working meanwhile cannot make them disagree. Returns the rows checked and the first problem.
    """
    checked, seen = 0, set[str]()
    last = ("", "")
    while True:
        rows = conn.execute(
            select(cases)
            .where(tuple_(cases.c.created_at, cases.c.case_id) > last)
            .order_by(cases.c.created_at, cases.c.case_id)
            .limit(batch)
        ).all()
        ids = [r.case_id for r in rows]
        by_case: dict[str, dict[str, Mapping[str, Any]]] = {i: {} for i in ids}
        for d in conn.execute(select(dissents).where(dissents.c.case_id.in_(ids))):
            by_case[d.case_id][d.dissent_id] = dict(d._mapping)
        parties: dict[str, list[Mapping[str, Any]]] = {i: [] for i in ids}
        for party in conn.execute(select(case_parties).where(case_parties.c.case_id.in_(ids))):
            parties[party.case_id].append(dict(party._mapping))
        if not rows:
            break
        for row in rows:
            problem = audit_case(
                dict(row._mapping),
                signed.get(row.case_id),
                by_case[row.case_id],
                parties[row.case_id],
            )
            checked += 1
            seen.add(row.case_id)
            if problem is not None:
                return AuditResult(checked, problem)
        last = (rows[-1].created_at, rows[-1].case_id)
    for case_id, record in signed.items():
        if record.opened_at_seq is not None and case_id not in seen:
            problem = CaseProblem(
                case_id, "row", f"signed at seq {record.opened_at_seq} but no case row"
            )
            return AuditResult(checked, problem)
    stray = conn.execute(
        select(dissents.c.case_id, dissents.c.dissent_id)
        .where(dissents.c.case_id.not_in(select(cases.c.case_id)))
        .limit(1)
    ).first()
    if stray is not None:
        problem = CaseProblem(str(stray.case_id), f"dissent {stray.dissent_id}", "no case row")
        return AuditResult(checked, problem)
    return AuditResult(checked, None)


def _same_dissent(document: object, record: DissentRecord) -> bool:
    """Compare parsed records, not bytes: serialization may change between releases."""
    if not isinstance(document, str | bytes):
        return False
    try:
        return DissentRecord.model_validate_json(document) == record
    except ValueError:
        return False
