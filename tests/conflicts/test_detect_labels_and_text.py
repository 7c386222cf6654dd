from __future__ import annotations

import pytest

from accord.conflicts import (
    ConflictKind,
    DetectionSettings,
    OutputKind,
    Severity,
    detect,
)
from accord.conflicts.prose import ProseSettings

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


def test_custom_incompatible_sets_replace_the_default_ones() -> None:
    settings = DetectionSettings(
        incompatible_sets=(frozenset({"go", "no go"}),),
        prose=ProseSettings(builtin_vocabularies=False),
    )
    assert detect(positions("Go", "No-Go".replace("-", " ")), settings).kind is (
        ConflictKind.LOGICAL_CONFLICT
    )
    assert detect(positions("accept", "reject"), settings).kind is (
        ConflictKind.DIRECT_CONTRADICTION
    )


def test_built_in_verdicts_stay_opposite_whatever_sets_are_configured() -> None:
    settings = DetectionSettings(incompatible_sets=(frozenset({"red", "green"}),))
    assert detect(positions("accept", "reject"), settings).kind is ConflictKind.LOGICAL_CONFLICT
    assert detect(positions("Red", "green."), settings).kind is ConflictKind.LOGICAL_CONFLICT


@pytest.mark.parametrize(
    ("a", "b"),
    [("LGTM", "Approve"), ("Decline", "Reject"), ("Approved.", "accept"), ("no-go", "hold")],
)
def test_synonyms_of_one_verdict_agree(a: str, b: str) -> None:
    detection = detect(positions(a, b))
    assert not detection.has_conflict
    assert detection.output_kind is OutputKind.LABEL


def test_texts_with_opposite_assessments_are_a_logical_conflict_naming_them() -> None:
    detection = detect([pos("a", LONG_A), pos("b", LONG_B)])
    assert detection.output_kind is OutputKind.TEXT
    assert detection.kind is ConflictKind.LOGICAL_CONFLICT
    assert detection.prose is not None
    assert detection.prose.differing == ("verdict: reject ('wrong') vs approve ('correct')",)


def test_normalized_text_mode_compares_different_texts_as_before() -> None:
    settings = DetectionSettings(text_mode="normalized")
    detection = detect([pos("a", LONG_A), pos("b", LONG_B)], settings)
    assert detection.kind is ConflictKind.DIRECT_CONTRADICTION
    assert detection.severity is Severity.MEDIUM
    assert detection.prose is None
    assert detect(positions("invoice", "receipt"), settings).output_kind is OutputKind.LABEL


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
    detection = detect([pos("a", "approve"), pos("b", LONG_A)])
    assert detection.output_kind is OutputKind.TEXT
    assert detection.kind is ConflictKind.LOGICAL_CONFLICT
    assert not detect([pos("a", "approve"), pos("b", LONG_B)]).has_conflict


CAUSE_A = "The slowdown comes from a cold cache after every deploy."
CAUSE_B = "THE cache starts cold after each deploy, which slows everything down."
CAUSE_C = "A lock held by the nightly export stalls the queue."


class FakeComparator:
    """Treats texts as equivalent when they share their first word (case-blind)."""

    name = "fake"

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, str | None]] = []

    def equivalent(self, a: str, b: str, *, question: str | None = None) -> bool | None:
        self.calls.append((a, b, question))
        return a.split()[0].lower() == b.split()[0].lower()


def test_the_semantic_comparator_decides_texts_that_share_no_fact() -> None:
    comparator = FakeComparator()
    detection = detect(
        [pos("a", CAUSE_A), pos("b", CAUSE_B)], semantic=comparator, question="Why is it slow?"
    )
    assert not detection.has_conflict
    assert detection.prose is not None
    assert detection.prose.decided_by == "semantic"
    assert comparator.calls == [(CAUSE_A, CAUSE_B, "Why is it slow?")]


def test_the_semantic_comparator_can_find_a_conflict() -> None:
    comparator = FakeComparator()
    texts = [CAUSE_A, CAUSE_C, CAUSE_B]
    detection = detect([pos(f"a{i}", text) for i, text in enumerate(texts)], semantic=comparator)
    assert detection.has_conflict
    assert detection.comparable
    assert [group.agents for group in detection.groups] == [("a0", "a2"), ("a1",)]
    assert (CAUSE_A, CAUSE_C, None) in comparator.calls


def test_without_a_comparator_texts_sharing_no_fact_are_not_comparable() -> None:
    detection = detect([pos("a", CAUSE_A), pos("b", CAUSE_C)])
    assert detection.has_conflict
    assert not detection.comparable
    assert detection.prose is not None
    assert detection.prose.reason is not None
    assert detection.prose.reason.startswith("not comparable: no fact stated by both")
    assert detection.description.startswith("not comparable")


def test_the_semantic_comparator_is_not_asked_about_texts_already_equal() -> None:
    comparator = FakeComparator()
    detect([pos("a", LONG_A), pos("b", LONG_A + " ")], semantic=comparator)
    assert comparator.calls == []


def test_the_semantic_comparator_is_not_asked_when_facts_decide() -> None:
    comparator = FakeComparator()
    detection = detect(positions("approve", "approved"), semantic=comparator)
    assert not detection.has_conflict
    assert detect(positions("approve", "Reject."), semantic=comparator).has_conflict
    assert comparator.calls == []


def test_label_values_make_long_answers_labels() -> None:
    long_label = "Escalate To The Finance Committee For A Second Review Of This Expense Claim"
    settings = DetectionSettings(
        label_values=frozenset({long_label}), incompatible_sets=(frozenset({long_label, "pay"}),)
    )
    detection = detect(positions(long_label, "pay"), settings)
    assert detection.output_kind is OutputKind.LABEL
    assert detection.kind is ConflictKind.LOGICAL_CONFLICT
