"""What the queue page shows for the reviewer's filters and sort (one read of the queue)."""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import urlencode

from accord.api.queries.case_pages import QUEUE_SORTS, QueueFilter, queue_page
from accord.api.ui.reasons import PRESET_REASONS
from accord.app import Accord
from accord.conflicts import ConflictKind, Severity, Tier
from accord.errors import ValidationError

QUEUE_PAGE = 100
KINDS = tuple(k.value for k in ConflictKind)
SEVERITIES = tuple(s.value for s in Severity)
TIERS = tuple(t.value for t in Tier)


@dataclass(frozen=True)
class QueueChoice:
    """The reviewer's filters and sort as the query string gave them (empty: any)."""

    kind: str | None = None
    severity: str | None = None
    tier: str | None = None
    department: str | None = None
    agent: str | None = None
    sort: str | None = None

    def query(self) -> str:
        """The same choice as a query string (for the rows' polling)."""
        return urlencode({k: v for k, v in asdict(self).items() if v})


def _department_agents(accord: Accord, department: str | None) -> tuple[str, ...] | None:
    if not department:
        return None
    org = accord.org
    if org is None:
        raise ValidationError(
            "no org chart is configured: the queue cannot filter by department",
            code="paging.bad_filter",
            field="department",
            rule="an org chart in the config",
        )
    org.department(department)  # NotFound (org.unknown_department) for an unknown name
    return tuple(a.agent_id for a in org if a.department == department)


def _token(filters: QueueFilter, rows: list[tuple[str, int]]) -> str:
    """Changes whenever an item enters, leaves or changes in the filtered queue."""
    digest = hashlib.sha256(repr((filters, rows)).encode()).hexdigest()
    return digest[:32]


def queue_view(accord: Accord, choice: QueueChoice) -> dict[str, Any]:
    """The template context: rows, the change token, and every filter's choices."""
    filters = QueueFilter(
        kind=choice.kind or None,
        severity=choice.severity or None,
        tier=choice.tier or None,
        agent=choice.agent or None,
        party_in=_department_agents(accord, choice.department),
        sort=choice.sort or "oldest",
    )
    page = queue_page(accord.db, filters, limit=QUEUE_PAGE)
    entries = list(page.rows)
    options = list(dict.fromkeys(o for e in entries for o in e.item.options))
    org = accord.org
    return {
        "entries": entries,
        "more": page.next_cursor is not None,
        "token": _token(filters, [(e.item.item_id, e.item.version) for e in entries]),
        "query": choice.query(),
        "filters": {k: v or "" for k, v in asdict(choice).items()},
        "filtered": any(v for k, v in asdict(choice).items() if k != "sort"),
        "kinds": KINDS,
        "severities": SEVERITIES,
        "tiers": TIERS,
        "departments": tuple(d.name for d in org.departments()) if org is not None else (),
        "sorts": QUEUE_SORTS,
        "options": options,
        "presets": PRESET_REASONS,
    }
