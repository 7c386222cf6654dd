"""Accord: settle disagreements between AI agents, and keep a signed record of every step.

The names below load on first use, so ``import accord.ledger`` (e.g. in a verification worker)
does not pay for the whole application (models, plotting, numerics).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from accord.app import Accord
    from accord.auditor import verify_ledger
    from accord.boundary import Probe, ProbeResult, TieBreaker
    from accord.clock import Clock, FrozenClock, SystemClock
    from accord.conflicts import Evidence, Position
    from accord.disputes import Case, SettleRequest, SettleStatus
    from accord.errors import AccordError
    from accord.resolution import (
        Dispute,
        ResolverBase,
        SourceFinding,
        SourceVerifier,
        StrategyContext,
        StrategyOutcome,
    )

_EXPORTS = {
    "Accord": "accord.app",
    "AccordError": "accord.errors",
    "Case": "accord.disputes",
    "Clock": "accord.clock",
    "Dispute": "accord.resolution",
    "Evidence": "accord.conflicts",
    "FrozenClock": "accord.clock",
    "Position": "accord.conflicts",
    "Probe": "accord.boundary",
    "ProbeResult": "accord.boundary",
    "ResolverBase": "accord.resolution",
    "SettleRequest": "accord.disputes",
    "SettleStatus": "accord.disputes",
    "SourceFinding": "accord.resolution",
    "SourceVerifier": "accord.resolution",
    "StrategyContext": "accord.resolution",
    "StrategyOutcome": "accord.resolution",
    "SystemClock": "accord.clock",
    "verify_ledger": "accord.auditor",
    "TieBreaker": "accord.boundary",
}

__all__ = [
    "Accord",
    "AccordError",
    "Case",
    "Clock",
    "Dispute",
    "Evidence",
    "FrozenClock",
    "Position",
    "Probe",
    "ProbeResult",
    "ResolverBase",
    "SettleRequest",
    "SettleStatus",
    "SourceFinding",
    "SourceVerifier",
    "StrategyContext",
    "StrategyOutcome",
    "SystemClock",
    "TieBreaker",
    "verify_ledger",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'accord' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
