"""Options people pick from stay short whatever the answers' length, and stay distinct."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from accord.approvals import OPTION_LABEL_MAX_CHARS
from accord.ladder.option_labels import labelled, option_label


def test_a_short_answer_is_its_own_option() -> None:
    assert option_label("approve", 0) == "approve"
    assert option_label("x" * OPTION_LABEL_MAX_CHARS, 3) == "x" * OPTION_LABEL_MAX_CHARS


def test_a_long_answer_is_offered_as_its_number_opening_and_digest() -> None:
    label = option_label("word " * 100, 1)

    assert label.startswith("option 2: word word")
    assert label.endswith("]")
    assert "… [sha256:" in label


@given(st.lists(st.text(min_size=1, max_size=2_000), min_size=2, max_size=5, unique=True))
def test_labels_are_short_and_distinct_for_distinct_texts(texts: list[str]) -> None:
    labels = labelled(texts)

    assert all(len(label) <= OPTION_LABEL_MAX_CHARS for label in labels)
    assert len(set(labels)) == len(labels)
