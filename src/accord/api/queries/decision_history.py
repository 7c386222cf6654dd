"""Who decided what, when, and how long it took: closed approval items, newest first, each
with the seq of the ledger entry that signed its closing (for an inclusion proof)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from accord.approvals import (
    APPROVAL_DECIDED,
    APPROVAL_EXPIRED,
    ApprovalItem,
    verdict_of,
)
from accord.ledger import Ledger
from accord.store import Database
from accord.store.tables import approval_items

MAX_HISTORY = 500


@dataclass(frozen=True)
class HistoryEntry:
    item: ApprovalItem
    ledger_seq: int | None
    """The signed ``approval_decided`` / ``approval_expired`` entry (None: not found)."""

    @property
    def verdict(self) -> str:
        """What was decided, in the one vocabulary (chosen, written, denied, expired)."""
        return verdict_of(self.item) or "-"

    @property
    def seconds_to_decide(self) -> float | None:
        decision = self.item.decision
        if decision is None:
            return None
        return (decision.decided_at - self.item.created_at).total_seconds()


def decision_history(db: Database, ledger: Ledger, *, limit: int = 100) -> list[HistoryEntry]:
    """The newest ``limit`` closed items (decided, denied or expired).

    Finding each closing's ledger entry reads every closing entry of the ledger once per
    call (the ledger has no index by item): fine for thousands of decisions, not millions.
    """
    limit = max(1, min(limit, MAX_HISTORY))
    query = (
        select(approval_items.c.document)
        .where(approval_items.c.decided_at.is_not(None))
        .order_by(approval_items.c.decided_at.desc(), approval_items.c.item_id.desc())
        .limit(limit)
    )
    with db.read() as conn:
        items = [ApprovalItem.model_validate_json(d) for d in conn.execute(query).scalars()]
        wanted = {item.item_id for item in items}
        seqs: dict[str, int] = {}
        for seq, _, record in ledger.records_within(conn, (APPROVAL_DECIDED, APPROVAL_EXPIRED)):
            item_id = record.get("item_id")
            if isinstance(item_id, str) and item_id in wanted:
                seqs[item_id] = seq  # the last closing entry wins (there is one)
    return [HistoryEntry(item=item, ledger_seq=seqs.get(item.item_id)) for item in items]
