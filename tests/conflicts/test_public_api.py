from __future__ import annotations

import accord.conflicts


def test_the_conflicts_room_exports_exactly_its_public_names_in_sorted_order() -> None:
    assert accord.conflicts.__all__ == [
        "CHAIN_STEPS",
        "CRITICAL_CHAIN",
        "DEFAULT_CHAIN",
        "DEFAULT_DISPUTE_TYPES",
        "DEFAULT_INCOMPATIBLE_SETS",
        "MAX_LABEL_LENGTH",
        "STARTING_TIERS",
        "TIER_ORDER",
        "AnswerGroup",
        "ChainOverrides",
        "Classification",
        "ConflictKind",
        "CorpusCase",
        "DecisionTable",
        "Detection",
        "DetectionSettings",
        "DisputeType",
        "EmbeddingComparator",
        "Evidence",
        "FieldConflict",
        "MergeResult",
        "NumericThresholds",
        "OutputKind",
        "Position",
        "ProseDetail",
        "ProseEvaluation",
        "ProseSettings",
        "SemanticComparator",
        "SemanticExtraMissing",
        "SemanticLayers",
        "Severity",
        "Tier",
        "classify",
        "declared_confidence",
        "detect",
        "evaluate_prose",
        "merge_complementary",
        "normalize_text",
        "output_kind",
        "read_corpus",
        "validate_positions",
    ]


def test_every_exported_name_exists_and_callables_have_a_docstring() -> None:
    for name in accord.conflicts.__all__:
        value = getattr(accord.conflicts, name)
        if callable(value):
            assert value.__doc__, name


def test_the_room_imports_only_the_rooms_it_may_use() -> None:
    import ast
    from pathlib import Path

    allowed = {
        "accord.conflicts",
        "accord.org",
        "accord.crypto",
        "accord.errors",
        "accord.config_errors",
        "accord.log",  # structlog to logging, never stdout (extractor failures are logged)
        "accord.printable",
        "accord.values",
    }
    room = Path(accord.conflicts.__file__).parent
    for source in room.rglob("*.py"):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("accord")
            ):
                assert any(
                    node.module == name or node.module.startswith(f"{name}.") for name in allowed
                ), f"{source.name} imports {node.module}"
