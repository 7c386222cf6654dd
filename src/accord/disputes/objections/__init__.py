"""Objections to a resolution (R27–R29): signed §8 records, stays ordered by people, rights
objections routed to human appeal."""

from accord.disputes.objections.builder import build_objection
from accord.disputes.objections.filing import ObjectionFiling
from accord.disputes.objections.rows import StoredObjection, StoredStay
from accord.disputes.objections.service import ObjectionNotFound, Objections
from accord.disputes.objections.stay import STAY_EVENT, StayOrder

__all__ = [
    "STAY_EVENT",
    "ObjectionFiling",
    "ObjectionNotFound",
    "Objections",
    "StayOrder",
    "StoredObjection",
    "StoredStay",
    "build_objection",
]
