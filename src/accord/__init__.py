"""Accord: settle disagreements between AI agents, and keep a signed record of every step."""

from accord.clock import Clock, FrozenClock, SystemClock
from accord.errors import AccordError

__all__ = ["AccordError", "Clock", "FrozenClock", "SystemClock"]
__version__ = "0.1.0"
