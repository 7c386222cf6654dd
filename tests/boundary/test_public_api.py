"""The boundary room's public names are pinned: adding or removing one is a deliberate act."""

from __future__ import annotations

import accord.boundary as boundary

EXPECTED = {
    "AMBIGUITY_UNRESOLVED",
    "BOUNDARY_STATUSES",
    "OPEN_STATUSES",
    "AttemptOutcome",
    "Boundary",
    "BoundaryDraft",
    "BoundaryInputs",
    "BoundaryService",
    "BoundaryStatus",
    "BoundaryStore",
    "BudgetLine",
    "CaseView",
    "CloseReport",
    "Crux",
    "CruxKind",
    "LedgerAppend",
    "ModelTextCrux",
    "OnResolved",
    "PositionEntry",
    "Probe",
    "ProbeAttempt",
    "ProbeFailed",
    "ProbeRegistry",
    "ProbeResult",
    "ProbeResultRecord",
    "ResolutionReceipt",
    "Side",
    "TextCrux",
    "TieBreaker",
    "agreed_sub_conclusions",
    "crux_sides",
    "decide_boundary",
    "differing_assumptions",
    "digest_of",
    "evidence_receipt",
    "extract_crux",
    "find_hint",
    "hint_keys",
    "is_stylistic",
    "propose_tie_breaker",
    "restates_crux",
    "run_probe",
    "shared_assumptions",
    "style_key",
    "transcript_bytes_of",
    "validate_tie_breaker",
    "winner_by_answer",
}


def test_exports_are_pinned_and_sorted() -> None:
    assert set(boundary.__all__) == EXPECTED
    assert boundary.__all__ == sorted(
        boundary.__all__, key=lambda n: (not n.isupper(), n[0].islower(), n)
    )
    for name in boundary.__all__:
        assert getattr(boundary, name) is not None


def test_the_room_does_not_import_disputes_or_upper_rooms() -> None:
    import ast
    from pathlib import Path

    room = Path(boundary.__file__).parent
    allowed = (
        "accord.boundary",
        "accord.conflicts",
        "accord.crypto",
        "accord.clock",
        "accord.ids",
        "accord.errors",
        "accord.store",
        "accord.llm",
        "accord.values",
    )
    for source in room.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("accord")
            ):
                assert node.module.startswith(allowed), (source.name, node.module)
