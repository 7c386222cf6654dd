"""Checking stored cases against what was signed about them (pure: rows and records in).

The ledger is the authority; the ``cases``, ``case_parties`` and ``dissents`` tables are a
queryable copy. After the ledger verifies, every case row must agree with its own document
(the project's row builders rebuild each column from it), every field of the document must
equal the latest signed value of that field (``case_description``: one description of where
each field is signed, or why it is not), anything stored that no signed record states is
reported as unbacked, and every case settle opened must still have its rows.
The first disagreement is reported with the table, row key, column, signed and stored value.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, select, tuple_

from accord.audit.case_description import (
    CASE_COLUMNS,
    DISSENT_DOCUMENT,
    DOCUMENT,
    HANDED_OVER,
    HASHED_PATHS,
    IN_ENTRY,
    PARTY_COLUMNS,
    SIGNED_PATHS,
    stored_view,
)
from accord.audit.paths import RowProblem, compare_views, fold, shown
from accord.cases.case import Case, DissentRecord
from accord.cases.records import (
    CaseHandedOver,
    CaseOpened,
    ConsensusRecorded,
    OutputsMerged,
)
from accord.cases.signable import AnswerHashes
from accord.cases.store import case_columns, dissent_row, party_rows
from accord.store.tables import case_parties, cases, dissents

#: Ledger events written when a case is first recorded.
OPENING_EVENTS = tuple(m.event_type for m in (CaseOpened, ConsensusRecorded, OutputsMerged))
#: Every ledger event that states something about a case.
CASE_EVENTS = tuple(kind for kind in SIGNED_PATHS if kind != HANDED_OVER)


@dataclass(frozen=True)
class AuditResult:
    """How many rows were checked, and the first problem found (None: all agree)."""

    checked: int
    problem: RowProblem | None


@dataclass
class SignedCase:
    """What the ledger says about one case: where settle opened it, the seqs settle wrote, and
    the latest signed value of every path (only those, so a large ledger fits in memory)."""

    opened_at_seq: int | None = None
    view: dict[str, Any] = field(default_factory=dict)
    settle_seqs: list[int] = field(default_factory=list)
    _settling: bool = False

    def add(
        self, seq: int, event_type: str, record: Mapping[str, Any], hashes: AnswerHashes
    ) -> None:
        if self.opened_at_seq is None:
            if event_type not in OPENING_EVENTS or not _settle_wrote(record):
                return  # an application's own event about this id: no case row needs it
            self.opened_at_seq = seq
            self._settling = event_type == CaseOpened.event_type
            self.settle_seqs.append(seq)
        elif self._settling:  # settle's hand-over and outcome follow the opening
            self.settle_seqs.append(seq)
            self._settling = "log" not in record
        kind = event_type
        if event_type == CaseHandedOver.event_type and "log" not in record:
            kind = HANDED_OVER
        paths = SIGNED_PATHS.get(kind)
        if paths is not None:
            fold(self.view, paths, record)
            for path in HASHED_PATHS:
                if path in paths and isinstance(self.view.get(path), list):
                    self.view[path] = [hashes(v) for v in self.view[path]]
        self.view["ledger_seqs"] = self.settle_seqs


def _settle_wrote(record: Mapping[str, Any]) -> bool:
    """Whether an opening record is one settle wrote for a case row (it carries the resolution
    log); events an application appends itself through the ledger API need no case row."""
    log = record.get("log")
    return isinstance(log, Mapping) and log.get("case_id") == record.get("dispute_id")


def signed_cases(
    records: Iterable[tuple[int, str, Mapping[str, Any]]], hashes: AnswerHashes | None = None
) -> dict[str, SignedCase]:
    """Fold ledger records (from ``Ledger.records_within``) into what was signed per case
    (``hashes`` memoizes answer hashes; pass the same one to :func:`audit_cases`)."""
    hashes = hashes or AnswerHashes()
    found: dict[str, SignedCase] = {}
    for seq, event_type, record in records:
        case_id = record.get("dispute_id")
        if isinstance(case_id, str):
            found.setdefault(case_id, SignedCase()).add(seq, event_type, record, hashes)
    return found


def _problem(
    kind: str,
    table: str,
    key: str,
    column: str,
    rule: str,
    expected: Any = None,
    stored: Any = None,
    *,
    case_id: str,
    shown_values: bool = True,
) -> RowProblem:
    return RowProblem(
        code=f"{table}.{kind}",
        table=table,
        key=key,
        column=column,
        rule=rule,
        expected=shown(expected) if shown_values else None,
        stored=shown(stored) if shown_values else None,
        case_id=case_id,
    )


def audit_case(
    row: Mapping[str, Any],
    signed: SignedCase | None,
    dissent_rows: Mapping[str, Mapping[str, Any]],
    party_rows_found: Sequence[Mapping[str, Any]] = (),
    hashes: AnswerHashes | None = None,
) -> RowProblem | None:
    """The first way ``row`` (with its dissent and party rows) disagrees with ``signed``
    (``hashes`` memoizes answer hashes across a batch of cases)."""
    hashes = hashes or AnswerHashes()
    case_id = str(row["case_id"])
    try:
        case = Case.model_validate_json(row["document"])
    except ValueError as exc:
        return _problem(
            "mismatch",
            "cases",
            case_id,
            DOCUMENT,
            f"not a valid case document: {exc}",
            case_id=case_id,
            shown_values=False,
        )
    built = case_columns(case)
    for column, path in CASE_COLUMNS.items():
        if path == DOCUMENT:
            continue
        if row.get(column) != built.get(column):
            return _problem(
                "mismatch",
                "cases",
                case_id,
                column,
                f"the column disagrees with its document field {path}",
                built.get(column),
                row.get(column),
                case_id=case_id,
            )
    if signed is None or signed.opened_at_seq is None:
        return _problem(
            "unbacked",
            "cases",
            case_id,
            "row",
            "no signed record opens this case",
            case_id=case_id,
            shown_values=False,
        )

    def document_problem(kind: str, path: str, expected: Any, stored: Any) -> RowProblem:
        rule = (
            "differs from the latest signed record"
            if kind == "mismatch"
            else "stored, but no signed record states it"
        )
        return _problem(
            kind, "cases", case_id, f"document:{path}", rule, expected, stored, case_id=case_id
        )

    problem = compare_views(signed.view, stored_view(case, hashes), document_problem)
    if problem is not None:
        return problem
    return _party_problem(case, party_rows_found, hashes) or _dissent_problem(case, dissent_rows)


def _party_problem(
    case: Case, found_rows: Sequence[Mapping[str, Any]], hashes: AnswerHashes
) -> RowProblem | None:
    expected = {r["agent_id"]: r for r in party_rows(case, hashes)}
    found = {str(r["agent_id"]): r for r in found_rows}
    for agent in found.keys() - expected.keys():
        return _problem(
            "unbacked",
            "case_parties",
            f"{case.case_id}/{agent}",
            "row",
            "a party row for an agent with no signed position",
            case_id=case.case_id,
            shown_values=False,
        )
    for agent, wanted in expected.items():
        key = f"{case.case_id}/{agent}"
        stored = found.get(agent)
        if stored is None:
            return _problem(
                "missing_row",
                "case_parties",
                key,
                "row",
                "the party row is missing",
                case_id=case.case_id,
                shown_values=False,
            )
        for column, path in PARTY_COLUMNS.items():
            if stored.get(column) != wanted.get(column):
                return _problem(
                    "mismatch",
                    "case_parties",
                    key,
                    column,
                    f"disagrees with the case (document field {path})",
                    wanted.get(column),
                    stored.get(column),
                    case_id=case.case_id,
                )
    return None


def _dissent_problem(
    case: Case, dissent_rows: Mapping[str, Mapping[str, Any]]
) -> RowProblem | None:
    documented = {d.dissent_id: d for d in case.dissent}
    for dissent in case.dissent:
        for name, how in DISSENT_DOCUMENT.items():
            if how == IN_ENTRY or not callable(how):
                continue
            expected, stored = how(dissent, case)
            if expected != stored:
                return _problem(
                    "mismatch",
                    "cases",
                    case.case_id,
                    f"document:dissent.{name}",
                    f"dissent {dissent.dissent_id} disagrees with the case it copies",
                    expected,
                    stored,
                    case_id=case.case_id,
                )
    for dissent_id, stored_row in dissent_rows.items():
        record = documented.get(dissent_id)
        if record is None:
            return _problem(
                "unbacked",
                "dissents",
                dissent_id,
                "row",
                "not a dissent of its case's signed outcome",
                case_id=case.case_id,
                shown_values=False,
            )
        for column, value in dissent_row(record).items():
            if column == DOCUMENT:
                same = _same_dissent(stored_row.get(column), record)
            else:
                same = stored_row.get(column) == value
            if not same:
                return _problem(
                    "mismatch",
                    "dissents",
                    dissent_id,
                    column,
                    "the dissent row disagrees with the case document",
                    value,
                    stored_row.get(column),
                    case_id=case.case_id,
                )
    for dissent_id in documented:
        if dissent_id not in dissent_rows:
            return _problem(
                "missing_row",
                "dissents",
                dissent_id,
                "row",
                "the dissent row is missing",
                case_id=case.case_id,
                shown_values=False,
            )
    return None


def audit_cases(
    conn: Connection,
    signed: Mapping[str, SignedCase],
    batch: int = 500,
    hashes: AnswerHashes | None = None,
) -> AuditResult:
    """Check every case row (with its party and dissent rows) against ``signed``; every case
    settle signed must have a row, and no party or dissent row may lack its case. Read
    ``signed`` and the rows in one snapshot (``conn``), so writers working meanwhile cannot make
    them disagree. Returns the rows checked and the first problem."""
    checked, seen = 0, set[str]()
    last = ("", "")
    hashes = hashes or AnswerHashes()
    while True:
        rows = conn.execute(
            select(cases)
            .where(tuple_(cases.c.created_at, cases.c.case_id) > last)
            .order_by(cases.c.created_at, cases.c.case_id)
            .limit(batch)
        ).all()
        if not rows:
            break
        ids = [r.case_id for r in rows]
        by_case: dict[str, dict[str, Mapping[str, Any]]] = {i: {} for i in ids}
        for d in conn.execute(select(dissents).where(dissents.c.case_id.in_(ids))):
            by_case[d.case_id][d.dissent_id] = dict(d._mapping)
        parties: dict[str, list[Mapping[str, Any]]] = {i: [] for i in ids}
        for party in conn.execute(select(case_parties).where(case_parties.c.case_id.in_(ids))):
            parties[party.case_id].append(dict(party._mapping))
        for row in rows:
            problem = audit_case(
                dict(row._mapping),
                signed.get(row.case_id),
                by_case[row.case_id],
                parties[row.case_id],
                hashes,
            )
            checked += 1
            seen.add(row.case_id)
            if problem is not None:
                return AuditResult(checked, problem)
        last = (rows[-1].created_at, rows[-1].case_id)
    for case_id, record in signed.items():
        if record.opened_at_seq is not None and case_id not in seen:
            problem = _problem(
                "missing_row",
                "cases",
                case_id,
                "row",
                f"signed at seq {record.opened_at_seq} but no case row",
                case_id=case_id,
                shown_values=False,
            )
            return AuditResult(checked, problem)
    return AuditResult(checked, _orphan(conn))


def _orphan(conn: Connection) -> RowProblem | None:
    """A party or dissent row whose case row is gone (or never was)."""
    stray = conn.execute(
        select(dissents.c.case_id, dissents.c.dissent_id)
        .where(dissents.c.case_id.not_in(select(cases.c.case_id)))
        .limit(1)
    ).first()
    if stray is not None:
        return _problem(
            "unbacked",
            "dissents",
            str(stray.dissent_id),
            "row",
            "its case has no row",
            case_id=str(stray.case_id),
            shown_values=False,
        )
    party = conn.execute(
        select(case_parties.c.case_id, case_parties.c.agent_id)
        .where(case_parties.c.case_id.not_in(select(cases.c.case_id)))
        .limit(1)
    ).first()
    if party is not None:
        return _problem(
            "unbacked",
            "case_parties",
            f"{party.case_id}/{party.agent_id}",
            "row",
            "its case has no row",
            case_id=str(party.case_id),
            shown_values=False,
        )
    return None


def _same_dissent(document: object, record: DissentRecord) -> bool:
    """Compare parsed records, not bytes: serialization may change between releases."""
    if not isinstance(document, str | bytes):
        return False
    try:
        return DissentRecord.model_validate_json(document) == record
    except ValueError:
        return False
