"""``accord``'s top-level names are pinned: adding or dropping one is a deliberate change."""

from __future__ import annotations

import pytest

import accord

EXPORTED = [
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


ERROR_NAMES = {
    "AlreadyDecided",
    "AlreadyResumed",
    "ApprovalCancelled",
    "ConflictedDecider",
    "DecisionForbidden",
    "DecisionWaitTimedOut",
    "KeyNotFound",
    "LimitExceeded",
    "NotFound",
    "ProbeFailed",
    "SignatureInvalid",
    "UnconfiguredReviewer",
    "VerificationFailed",
}


def test_the_top_level_exports_are_pinned_and_each_resolves() -> None:
    assert accord.__all__ == EXPORTED
    for name in EXPORTED:
        assert getattr(accord, name) is not None


def test_the_auditors_verify_ledger_is_the_library_equivalent_of_verify_public_keys() -> None:
    from accord.audit.auditor import verify_ledger

    assert accord.verify_ledger is verify_ledger


def test_every_exported_error_is_an_accord_error_with_a_code() -> None:
    errors = [getattr(accord, n) for n in EXPORTED if n.endswith("Error") or n in ERROR_NAMES]
    assert accord.AccordError in errors
    for error in errors:
        assert issubclass(error, accord.AccordError)
        assert isinstance(error.code, str)
        assert error.code


def test_the_exports_are_sorted_classes_first_then_functions() -> None:
    assert sorted(EXPORTED, key=lambda name: (name[0].islower(), name)) == EXPORTED


def test_accord_dispute_still_names_the_strategy_input_but_warns_that_it_is_now_conflict() -> None:
    warning = r"accord\.Dispute is deprecated: use accord\.Conflict"
    with pytest.warns(DeprecationWarning, match=warning):
        old = accord.Dispute  # type: ignore[attr-defined]
    assert old is accord.Conflict


def test_the_old_resolution_module_forwards_to_the_ladder_with_a_warning() -> None:
    import accord.resolution as resolution
    from accord.ladder import Conflict, ResolverBase

    with pytest.warns(DeprecationWarning, match="accord.resolution is deprecated"):
        assert resolution.ResolverBase is ResolverBase
    with pytest.warns(DeprecationWarning, match="import Conflict from accord.ladder"):
        assert resolution.Dispute is Conflict
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = resolution.nothing
