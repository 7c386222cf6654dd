"""Filings racing each other: the writer lock serializes them, so R34's rate limit holds."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from accord.disputes import Disputes
from accord.errors import ValidationError
from tests.disputes.conftest import File


def test_r34_twelve_racing_filings_by_one_agent_admit_exactly_ten(
    disputes: Disputes, filing: File
) -> None:
    def file_one(_: int) -> str:
        try:
            return disputes.open(filing()).dispute_id
        except ValidationError as exc:
            return exc.code

    with ThreadPoolExecutor(max_workers=6) as pool:
        outcomes = list(pool.map(file_one, range(12)))
    assert sorted(o for o in outcomes if not o.startswith("disp:")) == ["dcp.rate_limited"] * 2
    assert len(disputes.list().items) == 10
