"""Accord: settle disagreements between AI agents, and keep a signed record of every step.

Everything a user needs is importable from here (``from accord import Accord, Position``).
The names load on first use, so ``import accord.ledger`` (e.g. in a verification worker)
does not pay for the whole application (models, plotting, numerics).
"""

from __future__ import annotations

import importlib
import warnings
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from accord.app import Accord
    from accord.approvals import (
        AlreadyDecided,
        AlreadyResumed,
        ApprovalCancelled,
        ApprovalItem,
        ConflictedDecider,
        DecisionForbidden,
        DecisionWaitTimedOut,
        Principal,
        Reviewer,
        TaskHandle,
        UnconfiguredReviewer,
    )
    from accord.audit import verify_ledger
    from accord.boundary import Boundary, Probe, ProbeFailed, ProbeResult, TieBreaker
    from accord.cases import (
        Case,
        CaseStatus,
        Decision,
        DissentRecord,
        SettleRequest,
        SettleStatus,
    )
    from accord.cases.collecting import CollectingCase, CollectingStatus, sign_position
    from accord.clock import Clock, FrozenClock, SystemClock
    from accord.conflicts import Evidence, Position
    from accord.errors import (
        AccordError,
        CanonicalizationError,
        ConfigError,
        CryptoError,
        KeyNotFound,
        LedgerError,
        NotFound,
        SignatureInvalid,
        StoreError,
        ValidationError,
        VerificationFailed,
    )
    from accord.ladder import (
        AgentDecisionPort,
        Conflict,
        ResolverBase,
        SourceFinding,
        SourceVerifier,
        StrategyContext,
        StrategyOutcome,
        StrategyRegistry,
        VerifierRegistry,
    )
    from accord.ledger import Checkpoint, VerificationReport
    from accord.ledger.anchor import read_checkpoint_file
    from accord.limits import LimitExceeded
    from accord.llm import LanguageModel, ModelError, ScriptedModel

_EXPORTS = {
    "Accord": "accord.app",
    "AccordError": "accord.errors",
    "AgentDecisionPort": "accord.ladder",
    "AlreadyDecided": "accord.approvals",
    "AlreadyResumed": "accord.approvals",
    "ApprovalCancelled": "accord.approvals",
    "ApprovalItem": "accord.approvals",
    "Boundary": "accord.boundary",
    "CanonicalizationError": "accord.errors",
    "Case": "accord.cases",
    "CaseStatus": "accord.cases",
    "Checkpoint": "accord.ledger",
    "Clock": "accord.clock",
    "CollectingCase": "accord.cases.collecting",
    "CollectingStatus": "accord.cases.collecting",
    "ConfigError": "accord.errors",
    "Conflict": "accord.ladder",
    "ConflictedDecider": "accord.approvals",
    "CryptoError": "accord.errors",
    "Decision": "accord.cases",
    "DecisionForbidden": "accord.approvals",
    "DecisionWaitTimedOut": "accord.approvals",
    "DissentRecord": "accord.cases",
    "Evidence": "accord.conflicts",
    "FrozenClock": "accord.clock",
    "KeyNotFound": "accord.errors",
    "LanguageModel": "accord.llm",
    "LedgerError": "accord.errors",
    "LimitExceeded": "accord.limits",
    "ModelError": "accord.llm",
    "NotFound": "accord.errors",
    "Position": "accord.conflicts",
    "Principal": "accord.approvals",
    "Probe": "accord.boundary",
    "ProbeFailed": "accord.boundary",
    "ProbeResult": "accord.boundary",
    "ResolverBase": "accord.ladder",
    "Reviewer": "accord.approvals",
    "ScriptedModel": "accord.llm",
    "SettleRequest": "accord.cases",
    "SettleStatus": "accord.cases",
    "SignatureInvalid": "accord.errors",
    "SourceFinding": "accord.ladder",
    "SourceVerifier": "accord.ladder",
    "StoreError": "accord.errors",
    "StrategyContext": "accord.ladder",
    "StrategyOutcome": "accord.ladder",
    "StrategyRegistry": "accord.ladder",
    "SystemClock": "accord.clock",
    "TaskHandle": "accord.approvals",
    "TieBreaker": "accord.boundary",
    "UnconfiguredReviewer": "accord.approvals",
    "ValidationError": "accord.errors",
    "VerificationFailed": "accord.errors",
    "VerificationReport": "accord.ledger",
    "VerifierRegistry": "accord.ladder",
    "read_checkpoint_file": "accord.ledger.anchor",
    "sign_position": "accord.cases.collecting",
    "verify_ledger": "accord.audit",
}

__all__ = [
    "Accord",
    "AccordError",
    "AgentDecisionPort",
    "AlreadyDecided",
    "AlreadyResumed",
    "ApprovalCancelled",
    "ApprovalItem",
    "Boundary",
    "CanonicalizationError",
    "Case",
    "CaseStatus",
    "Checkpoint",
    "Clock",
    "CollectingCase",
    "CollectingStatus",
    "ConfigError",
    "Conflict",
    "ConflictedDecider",
    "CryptoError",
    "Decision",
    "DecisionForbidden",
    "DecisionWaitTimedOut",
    "DissentRecord",
    "Evidence",
    "FrozenClock",
    "KeyNotFound",
    "LanguageModel",
    "LedgerError",
    "LimitExceeded",
    "ModelError",
    "NotFound",
    "Position",
    "Principal",
    "Probe",
    "ProbeFailed",
    "ProbeResult",
    "ResolverBase",
    "Reviewer",
    "ScriptedModel",
    "SettleRequest",
    "SettleStatus",
    "SignatureInvalid",
    "SourceFinding",
    "SourceVerifier",
    "StoreError",
    "StrategyContext",
    "StrategyOutcome",
    "StrategyRegistry",
    "SystemClock",
    "TaskHandle",
    "TieBreaker",
    "UnconfiguredReviewer",
    "ValidationError",
    "VerificationFailed",
    "VerificationReport",
    "VerifierRegistry",
    "read_checkpoint_file",
    "sign_position",
    "verify_ledger",
]
__version__ = "0.1.0"


_DEPRECATED = {"Dispute": "Conflict"}
"""Old public names → their new names (they keep working, with a ``DeprecationWarning``)."""


def __getattr__(name: str) -> Any:
    if name in _DEPRECATED:
        new = _DEPRECATED[name]
        warnings.warn(
            f"accord.{name} is deprecated: use accord.{new} (the same class)",
            DeprecationWarning,
            stacklevel=2,
        )
        name = new
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'accord' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
