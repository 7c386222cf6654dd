"""Huge or adversarial prose is bounded and refused with a reason; a failing extractor only
costs its own facts."""

from __future__ import annotations

import logging
from collections.abc import Iterable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord.conflicts.prose import (
    Fact,
    FactKind,
    LabelIndex,
    PreparedText,
    ProseReader,
    ProseSettings,
    ReadContext,
    default_extractors,
)

from ._reading import compare, of_kind, read

CONTEXT = ReadContext(ProseSettings(), LabelIndex())


def test_an_answer_longer_than_max_chars_is_not_read_and_says_why() -> None:
    reading = ProseReader().read("The total is 1,200 EUR. " * 1000, CONTEXT)
    assert reading.facts == ()
    assert reading.refused == "24,000 characters, above prose.max_chars = 20,000"


def test_a_hundred_thousand_numbers_are_refused_before_any_extractor_runs() -> None:
    text = " ".join(str(n) for n in range(100_000))
    settings = ProseSettings(max_chars=1_000_000)
    reading = ProseReader().read(text, ReadContext(settings, LabelIndex()))
    assert reading.refused == "100,000 numbers, above twice prose.max_facts = 200"


def test_answers_that_cannot_be_read_are_not_comparable_never_a_contradiction() -> None:
    detection = compare("1 " * 30_000, "The total is 1,200 EUR.")
    assert detection.has_conflict
    assert not detection.comparable
    assert detection.prose is not None
    assert detection.prose.reason is not None
    assert "prose.max_chars" in detection.prose.reason


def test_invisible_characters_do_not_hide_a_number_or_a_sign() -> None:
    [amount] = of_kind(read("The total is 1,\u200b200\u00a0EUR."), FactKind.AMOUNT)
    assert amount.number == 1200.0
    [change] = of_kind(read("Change: \u2212\u200d4.0%"), FactKind.PERCENTAGE)
    assert change.number == -4.0


def test_digits_of_other_scripts_are_read_as_digits() -> None:
    [amount] = of_kind(read("The total is ١٬٢٠٠ EUR"), FactKind.AMOUNT)
    assert amount.number == 1200.0


def test_deeply_nested_and_unclosed_quotes_are_read_in_one_pass() -> None:
    nested = "Approve. " + '"' * 5000 + "reject" + "“" * 5000
    assert [f.value for f in of_kind(read(nested), FactKind.VERDICT)] == ["approve"]


@given(st.text(max_size=400))
def test_any_text_reads_without_raising(text: str) -> None:
    reading = ProseReader().read(text, CONTEXT)
    assert reading.refused is None
    assert len(reading.facts) <= CONTEXT.settings.max_facts


class Exploding:
    """An extractor whose library fails on every input."""

    name = "exploding"

    def extract(self, text: PreparedText, context: ReadContext) -> Iterable[Fact]:
        raise RuntimeError("the library fell over")


def test_a_failing_extractor_is_logged_and_the_other_facts_still_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    reader = ProseReader((Exploding(), *default_extractors()))
    with caplog.at_level(logging.WARNING, logger="accord.prose"):
        reading = reader.read("The total is 1,200 EUR.", CONTEXT)
    assert reading.failures == ("exploding",)
    assert [f.shown for f in reading.facts] == ["1,200 EUR"]
    assert "prose.extractor_failed" in caplog.text
    assert "exploding" in caplog.text


def test_when_the_only_extractor_fails_the_answers_are_not_comparable() -> None:
    reader = ProseReader((Exploding(),))
    first = reader.read("The total is 1,200 EUR.", CONTEXT)
    assert first.facts == ()
    assert first.failures == ("exploding",)


def test_a_detection_read_back_without_its_prose_detail_equals_the_one_decided() -> None:
    from accord.conflicts import Detection

    decided = compare("Total: 1,200 EUR.", "Total: 1,450 EUR.")
    stored = Detection.model_validate(decided.model_dump())
    assert decided.prose is not None
    assert stored.prose is None
    assert stored == decided
