"""Everything a tier-1 rung may look at (read-only)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from accord.conflicts import Classification, Detection, Position
from accord.org import OrgChart


class ManagerAtTierOne(Protocol):
    """Asks an AI manager, synchronously, to pick one of ``options`` for a tier-1 case."""

    def __call__(self, manager: str, subject: str, options: Sequence[str]) -> str | None:
        """The option ``manager`` picked, verbatim; None when it declines or cannot answer."""
        ...


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
    ask_manager: ManagerAtTierOne | None = None
    """How tier 1 asks the parties' lowest common manager at once (None: it cannot be asked at
    tier 1)."""
    manager_port: bool = False
    """Whether the service can ask an AI manager after tier 1 (it has a decision port): then a
    cross-department case whose manager tier 1 cannot ask stops the ladder for that manager;
    without one (and without ``ask_manager``) the vote runs next."""

    def group_of(self, agent: str) -> int | None:
        for index, group in enumerate(self.detection.groups):
            if agent in group.agents:
                return index
        return None
