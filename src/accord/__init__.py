"""Accord: settle disagreements between AI agents, and keep a signed record of every step."""

from accord.app import Accord
from accord.clock import Clock, FrozenClock, SystemClock
from accord.conflicts import Evidence, Position
from accord.disputes import Case, SettleRequest, SettleStatus
from accord.errors import AccordError
from accord.resolution import SourceFinding, SourceVerifier

__all__ = [
    "Accord",
    "AccordError",
    "Case",
    "Clock",
    "Evidence",
    "FrozenClock",
    "Position",
    "SettleRequest",
    "SettleStatus",
    "SourceFinding",
    "SourceVerifier",
    "SystemClock",
]
__version__ = "0.1.0"
