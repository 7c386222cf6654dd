"""Precedents (DCP-07 §7, R23–R26): signed jurisprudence bundles, search and supersession.

A resolved dispute becomes a :class:`JurisprudenceBundle` (built from a :class:`BundleDraft`
by :func:`build_bundle`, signed by the panel lead); :class:`PrecedentStore` keeps the
registry, :class:`PrecedentSearch` finds the bundles that apply to a dispute, ranked by
authority then recency, superseded ones last with their derived ``superseded_by``;
:func:`verify_registry` checks every stored bundle, link and index row.
"""

from accord.precedents.authority import AUTHORITY_RANKS, authority_rank
from accord.precedents.bundle import (
    GENESIS_LINK,
    Applicability,
    BundleDraft,
    ChainLink,
    Classification,
    Condition,
    JurisprudenceBundle,
    ObjectionReference,
    Summary,
    build_bundle,
    condition_key,
    verify_bundle,
)
from accord.precedents.draft_file import read_draft_file
from accord.precedents.precedent import Precedent
from accord.precedents.precedents import Precedents
from accord.precedents.query import DEFAULT_LIMIT, MAX_LIMIT, PrecedentQuery
from accord.precedents.refusals import PrecedentNotFound, PrecedentRefused
from accord.precedents.registry_check import verify_registry
from accord.precedents.search import PrecedentSearch
from accord.precedents.store import PrecedentStore

SCHEMA_MODELS = (JurisprudenceBundle,)
"""The record models whose JSON Schemas are published under ``schemas/``."""

__all__ = [
    "AUTHORITY_RANKS",
    "DEFAULT_LIMIT",
    "GENESIS_LINK",
    "MAX_LIMIT",
    "SCHEMA_MODELS",
    "Applicability",
    "BundleDraft",
    "ChainLink",
    "Classification",
    "Condition",
    "JurisprudenceBundle",
    "ObjectionReference",
    "Precedent",
    "PrecedentNotFound",
    "PrecedentQuery",
    "PrecedentRefused",
    "PrecedentSearch",
    "PrecedentStore",
    "Precedents",
    "Summary",
    "authority_rank",
    "build_bundle",
    "condition_key",
    "read_draft_file",
    "verify_bundle",
    "verify_registry",
]
