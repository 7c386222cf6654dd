"""Verdicts: synonyms agree, negation flips, hedging is kept, a bare yes/no answers the
question."""

from __future__ import annotations

import pytest

from accord.conflicts import ConflictKind, OutputKind, Severity
from accord.conflicts.prose import FactKind

from ._reading import compare, of_kind, read


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("LGTM", "approve"),
        ("Approved — looks good to me.", "approve"),
        ("Not approved: the rollback is missing.", "reject"),
        ("Don't merge it yet.", "reject"),
        ("This isn't a blocker.", "approve"),
        ("I don't see any reason to reject them.", "approve"),
        ("Decline the offer.", "reject"),
        ("Defer the upgrade to next sprint.", "defer"),
        ("The nightly build failed.", "reject"),
        ("All tests passed.", "approve"),
    ],
)
def test_the_verdict_an_answer_gives(text: str, verdict: str) -> None:
    [fact] = of_kind(read(text), FactKind.VERDICT)
    assert fact.value == verdict


def test_a_hedge_is_kept_and_lowers_the_severity_of_the_conflict() -> None:
    [fact] = of_kind(read("Probably not; I'd hold off."), FactKind.VERDICT)
    assert (fact.value, fact.hedged) == ("reject", True)
    assert compare("Probably not; I'd hold off.", "Ship it.").severity is Severity.MEDIUM
    assert compare("Hold off.", "Ship it.").severity is Severity.HIGH


def test_a_bare_no_answers_the_question_it_was_asked() -> None:
    blocking = "Is there any reason to block this PR?"
    assert not compare("No.", "LGTM, merge it.", question=blocking).has_conflict
    assert compare("Yes.", "LGTM, merge it.", question=blocking).kind is (
        ConflictKind.LOGICAL_CONFLICT
    )
    assert compare("No.", "LGTM, merge it.", question="Should we merge PR 812?").has_conflict


def test_words_in_quotation_marks_are_reported_speech() -> None:
    text = 'Approve, even though they said "reject it" last year.'
    [fact] = of_kind(read(text), FactKind.VERDICT)
    assert fact.value == "approve"


def test_an_answer_that_approves_one_thing_and_rejects_another_states_no_single_verdict() -> (
    None
):
    assert not of_kind(read("Approve the refund; reject the fee waiver."), FactKind.VERDICT)


@pytest.mark.parametrize(("a", "b"), [("LGTM", "Approve"), ("Decline", "Reject")])
def test_label_synonyms_are_one_label(a: str, b: str) -> None:
    detection = compare(a, b)
    assert not detection.has_conflict
    assert detection.output_kind is OutputKind.LABEL


def test_opposite_verdicts_in_otherwise_identical_prose_are_a_logical_conflict() -> None:
    detection = compare(
        "Approve the renewal: the terms are unchanged.",
        "Reject the renewal: the terms are unchanged.",
    )
    assert detection.kind is ConflictKind.LOGICAL_CONFLICT
    assert detection.prose is not None
    assert detection.prose.differing == ("verdict: approve ('Approve') vs reject ('Reject')",)
