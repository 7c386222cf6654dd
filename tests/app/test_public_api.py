"""``accord``'s top-level names are pinned: adding or dropping one is a deliberate change."""

from __future__ import annotations

import accord

EXPORTED = [
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


def test_the_top_level_exports_are_pinned_and_each_resolves() -> None:
    assert accord.__all__ == EXPORTED
    for name in EXPORTED:
        assert getattr(accord, name) is not None


def test_the_auditors_verify_ledger_is_the_library_equivalent_of_verify_public_keys() -> None:
    from accord.auditor import verify_ledger

    assert accord.verify_ledger is verify_ledger
