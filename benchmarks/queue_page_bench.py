"""Queue page benchmark (issue 13): with 10,000 pending approval items, the server time of the
reviewer's queue page (``GET /queue``) and of ``GET /api/v1/approvals``, first page and a
deep one (by cursor), against the same pages of a queue of 50 measured in the same run: a
page costs the page, not the queue. The server time is the ``Server-Timing`` header (up to
the response's first byte); the query plan shows whether the page is read from an index in
order (no sort of every pending item).
"""

from __future__ import annotations

import re
import statistics
import tempfile
import time
from pathlib import Path

import httpx
from common import Result
from service_common import REFUND, Instance, percentile, prepare, server_ms, serving
from sqlalchemy import text

from accord.cases import SettleRequest

ROUNDS = 30


def _fill(instance: Instance, pending: int) -> None:
    accord = instance.open()
    try:
        for start in range(0, pending, 500):
            accord.settle_many(
                [
                    SettleRequest(f"refund {i}", REFUND, task_type="refunds")
                    for i in range(start, min(pending, start + 500))
                ]
            )
    finally:
        accord.close()


def _plan(instance: Instance) -> str:
    """SQLite's plan for the queue's first page (as ``queue_page`` asks for it)."""
    accord = instance.open()
    try:
        with accord.db.read() as conn:
            rows = conn.execute(
                text(
                    "EXPLAIN QUERY PLAN SELECT a.document FROM approval_items a LEFT JOIN cases c"
                    " ON c.case_id = a.case_id WHERE a.status = 'pending'"
                    " ORDER BY a.created_at, a.item_id LIMIT 51"
                )
            ).all()
    finally:
        accord.close()
    return "; ".join(str(r[-1]) for r in rows)


_PAGE_SQL = (
    "SELECT a.document FROM approval_items a {hint} LEFT JOIN cases c ON c.case_id = a.case_id"
    " WHERE a.status = 'pending' ORDER BY a.created_at, a.item_id LIMIT 51"
)


def _query_ms(instance: Instance) -> tuple[float, float]:
    """The first page's query alone (median ms): through the page index, and through a
    status-only index as before migration 0012 (made here, on this copy, and forced)."""
    accord = instance.open()
    try:
        with accord.db.write() as conn:
            conn.execute(text("CREATE INDEX bench_status_only ON approval_items (status)"))
        out = []
        for hint in ("INDEXED BY ix_approval_items_status_page", "INDEXED BY bench_status_only"):
            times = []
            for _ in range(ROUNDS):
                began = time.perf_counter()
                with accord.db.read() as conn:
                    conn.execute(text(_PAGE_SQL.format(hint=hint))).all()
                times.append((time.perf_counter() - began) * 1000)
            out.append(statistics.median(times))
    finally:
        accord.close()
    return out[0], out[1]


def _signed_in(client: httpx.Client, token: str) -> None:
    form = client.get("/signin").text
    found = re.search(r'name="_csrf_token" value="([^"]+)"', form)
    assert found is not None, "the sign-in form carries a CSRF token"
    answer = client.post("/signin", data={"key": token, "_csrf_token": found.group(1)})
    assert answer.status_code in (200, 303), answer.text


def _times(client: httpx.Client, path: str, **params: object) -> list[float]:
    out = []
    for _ in range(ROUNDS):
        answer = client.get(path, params=params)
        assert answer.status_code == 200, (path, answer.status_code, answer.text[:200])
        out.append(server_ms(answer))
    return out


def _measure(pending: int) -> tuple[dict[str, list[float]], str, tuple[float, float]]:
    with tempfile.TemporaryDirectory() as tmp:
        instance = prepare(Path(tmp), f"sqlite:///{Path(tmp) / 'queue.db'}")
        _fill(instance, pending)
        plan = _plan(instance)
        with serving(instance) as (base, _pid):
            auth = {"Authorization": f"Bearer {instance.admin}"}
            with httpx.Client(base_url=base, timeout=30) as api:
                api.headers.update(auth)
                first = api.get("/api/v1/approvals", params={"limit": 50}).json()
                cursor = first["next_cursor"]
                for _ in range(min(pending // 50 - 2, 100)):  # walk deep into the queue
                    cursor = api.get(
                        "/api/v1/approvals", params={"limit": 50, "cursor": cursor}
                    ).json()["next_cursor"]
                times = {
                    "api first": _times(api, "/api/v1/approvals", limit=50),
                    "api deep": _times(api, "/api/v1/approvals", limit=50, cursor=cursor),
                }
            with httpx.Client(base_url=base, timeout=30, follow_redirects=True) as page:
                _signed_in(page, instance.reviewers[0])
                times["page"] = _times(page, "/queue")
        queries = _query_ms(instance)
    return times, plan, queries


def run(quick: bool) -> list[Result]:
    pending = 2_000 if quick else 10_000
    small, _, _ = _measure(50 * 3)
    big, plan, (by_page_index, by_status_only) = _measure(pending)
    sorted_all = "TEMP B-TREE" in plan
    results = []
    for key, label in (
        ("page", "GET /queue (reviewer page, first 100)"),
        ("api first", "GET /api/v1/approvals?limit=50, first page"),
        ("api deep", "GET /api/v1/approvals?limit=50, page ~100 by cursor"),
    ):
        median = statistics.median(big[key])
        worst = percentile(big[key], 0.95)
        baseline = statistics.median(small[key])
        results.append(
            Result(
                f"queue of {pending:,} pending: {label}",
                round(median, 2),
                "ms server",
                baseline=f"same page, queue of 150: {baseline:.2f} ms",
                ratio=round(median / baseline, 2) if baseline else None,
                target="< 200 ms",
                passed=worst < 200 and not sorted_all,
                notes=f"p95 {worst:.1f} ms; {ROUNDS} requests",
            )
        )
    results.append(
        Result(
            f"queue of {pending:,}: the first page's query alone",
            round(by_page_index, 2),
            "ms",
            baseline=f"status-only index (before 0012): {by_status_only:.2f} ms",
            ratio=round(by_status_only / by_page_index, 1) if by_page_index else None,
            notes="ratio: how many times faster the page index reads the page",
        )
    )
    results.append(
        Result(
            "queue page query plan (SQLite)",
            0.0 if sorted_all else 1.0,
            "in index order",
            target="no sort of every pending item",
            passed=not sorted_all,
            notes=plan[:150],
        )
    )
    return results
