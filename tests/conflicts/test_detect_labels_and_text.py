from __future__ import annotations

import pytest

from accord.conflicts import (
    ConflictKind,
    DetectionSettings,
    OutputKind,
    Severity,
    detect,
)

from ._builders import pos, positions

LONG_A = "The invoice total is wrong because the second line was counted twice."
LONG_B = "The total is correct: every line was counted exactly once, as the audit shows."


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("accept", "reject"),
        ("Approve", "deny."),
        ("approve", "REJECT"),
        ("merge", "block"),
        ("yes", "no"),
        ("ship", "hold"),
    ],
)
def test_labels_from_an_incompatible_set_are_a_high_logical_conflict(a: str, b: str) -> None:
    detection = detect([pos("a", a), pos("b", b)])
    assert detection.output_kind is OutputKind.LABEL
    assert detection.kind is ConflictKind.LOGICAL_CONFLICT
    assert detection.severity is Severity.HIGH


def test_incompatible_labels_stay_a_logical_conflict_among_other_answers() -> None:
    detection = detect(positions("accept", "defer", "reject", "accept"))
    assert detection.kind is ConflictKind.LOGICAL_CONFLICT
    assert [group.answer for group in detection.groups] == ["accept", "defer", "reject"]


def test_other_label_disagreements_are_a_medium_direct_contradiction() -> None:
    detection = detect(positions("invoice", "receipt"))
    assert detection.kind is ConflictKind.DIRECT_CONTRADICTION
    assert detection.severity is Severity.MEDIUM


def test_a_single_dissent_against_three_agreeing_agents_is_low() -> None:
    detection = detect(positions("invoice", "invoice", "receipt", "Invoice."))
    assert detection.severity is Severity.LOW
    assert detection.majority is not None
    assert detection.majority.agents == ("a0", "a1", "a3")
    assert detection.majority.answer == "invoice"


@pytest.mark.parametrize(
    "outputs",
    [
        ("invoice", "invoice", "receipt"),  # majority of only two
        ("invoice", "invoice", "invoice", "receipt", "memo"),  # two dissenters
        ("invoice", "invoice", "invoice", "receipt", "receipt"),
    ],
)
def test_anything_but_one_dissent_against_three_or_more_stays_medium(
    outputs: tuple[str, ...],
) -> None:
    assert detect(positions(*outputs)).severity is Severity.MEDIUM


def test_a_single_dissent_on_incompatible_labels_stays_high() -> None:
    assert detect(positions("yes", "yes", "yes", "no")).severity is Severity.HIGH


def test_labels_are_compared_normalized() -> None:
    detection = detect(positions("Approve", " approve.", "APPROVE\n"))
    assert not detection.has_conflict
    assert detection.groups[0].answer == "Approve"


def test_custom_incompatible_sets_are_used() -> None:
    settings = DetectionSettings(incompatible_sets=(frozenset({"go", "no go"}),))
    assert detect(positions("Go", "No-Go".replace("-", " ")), settings).kind is (
        ConflictKind.LOGICAL_CONFLICT
    )
    assert detect(positions("accept", "reject"), settings).kind is (
        ConflictKind.DIRECT_CONTRADICTION
    )


def test_different_texts_are_a_medium_direct_contradiction() -> None:
    detection = detect([pos("a", LONG_A), pos("b", LONG_B)])
    assert detection.output_kind is OutputKind.TEXT
    assert detection.kind is ConflictKind.DIRECT_CONTRADICTION
    assert detection.severity is Severity.MEDIUM


def test_texts_differing_only_in_case_spacing_and_edge_punctuation_agree() -> None:
    detection = detect([pos("a", LONG_A), pos("b", "  " + LONG_A.upper().replace(" ", "   "))])
    assert not detection.has_conflict
    assert detection.output_kind is OutputKind.TEXT


def test_exact_text_mode_compares_texts_as_written() -> None:
    settings = DetectionSettings(text_mode="exact")
    detection = detect([pos("a", LONG_A), pos("b", LONG_A.upper())], settings)
    assert detection.has_conflict
    assert not detect([pos("a", LONG_A), pos("b", LONG_A)], settings).has_conflict


def test_a_label_against_a_text_is_compared_as_text() -> None:
    detection = detect([pos("a", "approve"), pos("b", LONG_B)])
    assert detection.output_kind is OutputKind.TEXT
    assert detection.severity is Severity.MEDIUM


class FakeComparator:
    """Treats texts as equivalent when they share their first word (case-blind)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def equivalent(self, a: str, b: str) -> bool:
        self.calls.append((a, b))
        return a.split()[0].lower() == b.split()[0].lower()


def test_the_semantic_comparator_decides_when_given() -> None:
    comparator = FakeComparator()
    texts = [LONG_A, "THE answer differs in words but not in meaning, says the comparator.", LONG_B]
    detection = detect([pos(f"a{i}", text) for i, text in enumerate(texts)], semantic=comparator)
    assert not detection.has_conflict
    assert comparator.calls


def test_the_semantic_comparator_can_find_a_conflict() -> None:
    comparator = FakeComparator()
    texts = [LONG_A, "Nothing is wrong with the invoice; it adds up line by line.", LONG_A]
    detection = detect([pos(f"a{i}", text) for i, text in enumerate(texts)], semantic=comparator)
    assert detection.has_conflict
    assert [group.agents for group in detection.groups] == [("a0", "a2"), ("a1",)]
    assert (LONG_A, texts[1]) in comparator.calls


def test_the_semantic_comparator_is_not_asked_about_texts_already_equal() -> None:
    comparator = FakeComparator()
    detect([pos("a", LONG_A), pos("b", LONG_A + " ")], semantic=comparator)
    assert comparator.calls == []


def test_the_semantic_comparator_is_not_used_for_labels() -> None:
    comparator = FakeComparator()
    detection = detect(positions("approve", "approved"), semantic=comparator)
    assert detection.has_conflict
    assert comparator.calls == []


def test_label_values_make_long_answers_labels() -> None:
    long_label = "Escalate To The Finance Committee For A Second Review Of This Expense Claim"
    settings = DetectionSettings(
        label_values=frozenset({long_label}), incompatible_sets=(frozenset({long_label, "pay"}),)
    )
    detection = detect(positions(long_label, "pay"), settings)
    assert detection.output_kind is OutputKind.LABEL
    assert detection.kind is ConflictKind.LOGICAL_CONFLICT
