"""The signed ledger records a case writes (pure: a case in, event records out).

Every case writes one entry, or two when it is a real conflict: ``dispute_opened`` and then
``dispute_resolved`` or ``dispute_escalated`` (DCP R30 names). Agreement and complementary
work write ``consensus_recorded`` / ``outputs_merged``. Each carries the playbook's
resolution-log fields: case id, time, agents, kind, severity, strategy, winner, confidence,
escalated, duration_ms. The records are the typed models of :mod:`accord.cases.records`.
"""

from __future__ import annotations

from typing import Any

from accord.cases.case import Case, SettleStatus
from accord.cases.records import (
    CaseEscalated,
    CaseHandedOver,
    CaseOpened,
    ConsensusRecorded,
    OnTheLadder,
    OutputsMerged,
    SignedRecord,
    dispute_resolved,
)
from accord.cases.signable import AnswerHashes
from accord.org import OrgChart


def case_records(
    case: Case, org: OrgChart | None, answer_hash: AnswerHashes | None = None
) -> list[SignedRecord]:
    """The records to append for ``case`` as ``settle`` leaves it, in order."""
    answer_hash = answer_hash or AnswerHashes()
    if case.status is SettleStatus.NO_CONFLICT:
        return [ConsensusRecorded.of(case, answer_hash)]
    if case.status is SettleStatus.MERGED:
        return [OutputsMerged.of(case, answer_hash)]
    records: list[SignedRecord] = [CaseOpened.of(case, org)]
    if case.strategy is not None:
        # tier 1 could not settle it: record that hand-over before what the strategy did
        records.append(CaseHandedOver.of(case))
    if case.status is SettleStatus.SETTLED:
        records.append(dispute_resolved(case, OnTheLadder(org), answer_hash))
    else:
        records.append(CaseEscalated.of(case))
    return records


def case_events(
    case: Case, org: OrgChart | None, answer_hash: AnswerHashes | None = None
) -> list[tuple[str, dict[str, Any]]]:
    """The (event type, record) pairs to append for ``case``, in order."""
    return [r.event() for r in case_records(case, org, answer_hash)]
