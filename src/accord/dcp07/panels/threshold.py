"""M-of-N (R10, R39): how many of the panel's N members must approve for a decision.

Rules (refused with ``panels.bad_threshold``, R10): ``n >= 3``; ``1 <= m <= n``; and ``m > n/2``.
The last one is Accord's: members vote approve or dissent on one proposed resolution, and with
``m <= n/2`` both sides could reach M at once (2-of-4: two approve, two dissent), so "M-of-N
agreement" would name no single outcome. Default 2-of-3.
"""

from __future__ import annotations

from typing import Self

from pydantic import BaseModel, ConfigDict, model_validator

from accord.dcp07.panels.pool import MIN_PANEL_SIZE
from accord.dcp07.panels.refusals import PanelRefused


class PanelThreshold(BaseModel):
    """``m`` approvals out of ``n`` members; build with :meth:`of` to get a clear refusal."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    m: int = 2
    n: int = 3

    @model_validator(mode="after")
    def _valid(self) -> Self:
        problem = threshold_problem(self.m, self.n)
        if problem is not None:
            raise ValueError(problem)
        return self

    @classmethod
    def of(cls, m: int, n: int) -> PanelThreshold:
        """``m``-of-``n``, or ``PanelRefused`` naming the broken rule."""
        problem = threshold_problem(m, n)
        if problem is not None:
            raise PanelRefused(
                f"{m}-of-{n} is not a panel threshold: {problem}",
                code="panels.bad_threshold",
                requirement="R10",
                field="threshold",
                rule=problem,
                m=m,
                n=n,
            )
        return cls(m=m, n=n)


def threshold_problem(m: int, n: int) -> str | None:
    """Why ``m``-of-``n`` is not allowed, or None."""
    if (
        isinstance(m, bool)
        or isinstance(n, bool)
        or not isinstance(m, int)
        or not isinstance(n, int)
    ):
        return "m and n are integers"
    if n < MIN_PANEL_SIZE:
        return f"a panel has at least {MIN_PANEL_SIZE} members (n >= {MIN_PANEL_SIZE})"
    if not 1 <= m <= n:
        return "m is between 1 and n"
    if 2 * m <= n:
        return "m is a strict majority of n (m > n/2), so only one outcome can reach m"
    return None
