"""Collecting cases: a question put to named agents, each of which submits its own position
with its own credential; settled through the one settle path when the last arrives, or at
the deadline on what arrived (at least two), else abandoned. A party may sign its position
with its own registered agent key (``sign_position``); the service verifies it before
storing the position."""

from accord.cases.collecting.deadline import (
    COLLECTING_DEADLINE,
    CloseOnDeadline,
    CollectingDeadlineHandler,
)
from accord.cases.collecting.party_signature import (
    UnknownPositionSigner,
    position_to_sign,
    sign_position,
    verify_position_signature,
)
from accord.cases.collecting.service import MAX_PAGE, Collecting
from accord.cases.collecting_case import MAX_COLLECT_FOR, MIN_COLLECT_FOR, CollectingCase
from accord.cases.statuses import CollectingStatus

__all__ = [
    "COLLECTING_DEADLINE",
    "MAX_COLLECT_FOR",
    "MAX_PAGE",
    "MIN_COLLECT_FOR",
    "CloseOnDeadline",
    "Collecting",
    "CollectingCase",
    "CollectingDeadlineHandler",
    "CollectingStatus",
    "UnknownPositionSigner",
    "position_to_sign",
    "sign_position",
    "verify_position_signature",
]
