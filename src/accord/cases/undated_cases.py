"""Settle cases escalated above tier 1 by a version that armed no tier deadline: adopted.

Since ``case_tier`` deadlines exist (:mod:`accord.cases.deadlines`), settle arms one
for every case it leaves above tier 1; a case an older version escalated has none, so no
sweeper ever moves it (R4, R6). :func:`adopt_undated_cases` gives each such case the
deadline settle would have armed — its tier's R3 span counted from when it escalated (the
case's ``decided_at``) — in the caller's one transaction. A deadline already past fires at
the next sweep, as any overdue deadline does.

It is an operator's step (``accord sweep --adopt-undated``, ``Accord.adopt_undated_cases``),
not part of every sweep: an upgraded deployment chooses when its old cases start moving, and
the sweeper does not pay for the scan. Run twice, the second run adopts nothing.

A case is *undated* when it waits above tier 1 (``escalated`` with a DCP status of
``escalated`` / ``arbitrating`` / ``appealing``, a classification, a tier other than
``direct_negotiation``), has no armed ``case_tier`` row, and its approval item (if any) has
no armed §12.4 timeout (that timeout is then the appeal tier's deadline).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Connection, and_, exists, select, tuple_

from accord.approvals.timeout_handler import APPROVAL_TIMEOUT
from accord.cases.case import Case, SettleStatus
from accord.cases.deadlines import CASE_TIER, case_tier_deadline
from accord.cases.lifecycle import CaseStatus
from accord.conflicts import Tier
from accord.deadlines import Deadline, DeadlineState, arm_many
from accord.store.tables import cases, deadlines
from accord.values import revised

_WAITING = (CaseStatus.ESCALATED.value, CaseStatus.ARBITRATING.value, CaseStatus.APPEALING.value)
PAGE = 500
"""Cases read per query."""


def undated_cases(conn: Connection) -> list[Case]:
    """The cases above tier 1 no deadline will ever move (see the module doc), oldest first:
    one query per ``PAGE`` cases, one more per page for their items' timeouts."""
    armed_tier = exists().where(
        and_(
            deadlines.c.kind == CASE_TIER,
            deadlines.c.subject_id == cases.c.case_id,
            deadlines.c.state == DeadlineState.ARMED.value,
        )
    )
    found: list[Case] = []
    after: tuple[str, str] = ("", "")
    while True:
        rows = conn.execute(
            select(cases.c.created_at, cases.c.case_id, cases.c.document)
            .where(cases.c.status == SettleStatus.ESCALATED.value)
            .where(cases.c.dcp_status.in_(_WAITING))
            .where(cases.c.tier != Tier.DIRECT_NEGOTIATION.value)
            .where(~armed_tier)
            .where(tuple_(cases.c.created_at, cases.c.case_id) > tuple_(*after))
            .order_by(cases.c.created_at, cases.c.case_id)
            .limit(PAGE)
        ).all()
        if not rows:
            return found
        page = [Case.model_validate_json(r.document) for r in rows]
        timed = _items_with_timeouts(conn, [c.approval_item_id for c in page if c.approval_item_id])
        found += [
            c for c in page if c.classification is not None and c.approval_item_id not in timed
        ]
        after = (rows[-1].created_at, rows[-1].case_id)


def adopt_undated_cases(conn: Connection, now: datetime) -> list[Deadline]:
    """Arm the ``case_tier`` deadline of every undated case, due its tier's span after the
    case escalated; the deadlines armed (``now``: when they are armed)."""
    armed = []
    for case in undated_cases(conn):
        deadline = case_tier_deadline(case, case.decided_at or case.created_at)
        if deadline is not None:
            armed.append(revised(deadline, armed_at=now))
    arm_many(conn, armed)
    return armed


def _items_with_timeouts(conn: Connection, item_ids: Sequence[str | None]) -> set[str]:
    if not item_ids:
        return set()
    return set(
        conn.execute(
            select(deadlines.c.subject_id)
            .where(deadlines.c.kind == APPROVAL_TIMEOUT)
            .where(deadlines.c.state == DeadlineState.ARMED.value)
            .where(deadlines.c.subject_id.in_([i for i in item_ids if i is not None]))
        ).scalars()
    )
