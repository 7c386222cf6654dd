"""Labels from vocabularies (with their cues), identifiers, choices and names."""

from __future__ import annotations

from accord.conflicts import ConflictKind, DetectionSettings
from accord.conflicts.prose import ProseSettings

from ._reading import compare


def test_a_level_word_counts_only_beside_its_cue() -> None:
    assert compare("Risk is high.", "Low risk.").kind is ConflictKind.DIRECT_CONTRADICTION
    assert not compare("Risk is high.", "High risk, no SOC 2 report.").has_conflict
    assert not compare("A high-quality report.", "A detailed report.").has_conflict or (
        not compare("A high-quality report.", "A detailed report.").comparable
    )


def test_configured_vocabularies_have_synonyms_and_incompatible_labels() -> None:
    settings = DetectionSettings(
        prose=ProseSettings(vocabularies={"route": {"expedite": ("rush", "fast track")}}),
        label_values=frozenset({"manual review", "auto approve"}),
        incompatible_sets=(frozenset({"manual review", "auto approve"}),),
    )
    assert not compare("Expedite", "Rush", settings=settings).has_conflict
    assert compare("Send it to manual review.", "Auto approve it.", settings=settings).kind is (
        ConflictKind.LOGICAL_CONFLICT
    )


def test_identifiers_conflict_when_they_have_the_same_shape_and_differ() -> None:
    detection = compare("OPS-231 tracks it.", "It lives in OPS-213.")
    assert detection.prose is not None
    assert detection.prose.differing == ("identifier OPS: OPS-231 vs OPS-213",)
    assert not compare("Fixed in v2.3.1.", "Version 2.3.1 has the fix.").has_conflict


def test_the_option_an_answer_chooses_is_compared() -> None:
    assert compare("Go with Acme Movers.", "Pick Globex; Acme Movers is too slow.").has_conflict
    assert not compare("Use PostgreSQL.", "Postgres is the right choice here.").has_conflict


def test_a_short_answer_is_its_own_claim() -> None:
    assert compare("invoice", "receipt").kind is ConflictKind.DIRECT_CONTRADICTION
    assert not compare("Alice.", "Alice should own the review.").has_conflict
    assert compare("Alice should own the review.", "Bob should own it.").has_conflict


def test_lists_with_the_same_items_in_another_order_are_a_priority_conflict() -> None:
    ordered = compare("1. auth\n2. billing\n3. search", "1. billing\n2. auth\n3. search")
    assert ordered.kind is ConflictKind.PRIORITY_CONFLICT
    assert not compare("- Lyon\n- Lille", "- Lille\n- Lyon").has_conflict
