"""An ``ApprovalGateway`` for the settle path: approval requests wait to be written with the
case, in the case's own transaction, so a case is never queued without its item or vice versa."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from accord.ids import new_id
from accord.ladder import Conflict


@dataclass(frozen=True)
class StagedRequest:
    item_id: str
    dispute: Conflict
    summary: str
    analysis: str
    options: tuple[str, ...]


class StagedApprovals:
    """Promises an item id now; :meth:`take` hands the request to the writer later."""

    def __init__(self, now: Callable[[], datetime]) -> None:
        self._now = now
        self._staged: dict[str, list[StagedRequest]] = {}

    async def request_approval(
        self, dispute: Conflict, *, summary: str, analysis: str, options: Sequence[str]
    ) -> str:
        item_id = new_id("apr", self._now())
        self._staged.setdefault(dispute.case_id, []).append(
            StagedRequest(item_id, dispute, summary, analysis, tuple(options))
        )
        return item_id

    def take(self, case_id: str) -> list[StagedRequest]:
        return self._staged.pop(case_id, [])
