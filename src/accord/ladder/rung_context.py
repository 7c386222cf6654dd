"""Everything a tier-1 rung may look at (read-only)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from accord.conflicts import Classification, Detection, Position
from accord.org import OrgChart


@dataclass(frozen=True, slots=True)
class RungContext:
    """The conflict, its parties' positions, and the facts rungs decide from.

    ``weights`` are learned reliability weights per agent (log-odds; missing agents weigh 1).
    """

    subject: str
    task_type: str
    positions: tuple[Position, ...]
    detection: Detection
    classification: Classification
    org: OrgChart | None = None
    weights: Mapping[str, float] = field(default_factory=dict)

    def group_of(self, agent: str) -> int | None:
        for index, group in enumerate(self.detection.groups):
            if agent in group.agents:
                return index
        return None
