from __future__ import annotations

import pytest

from accord.conflicts import normalize_text


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("Approve", "approve"),
        ("  APPROVE. ", "approve"),
        ("«Approve»", "approve"),
        ("(needs   more\treview)!", "needs more review"),
        ("Straße", "strasse"),
        ("ＡＰＰＲＯＶＥ", "approve"),
        ("ﬁle", "file"),
        ("Ça va ?", "ça va"),
        ("$100", "$100"),
        ("50 %", "50 %"),
        ("«50 ٪»", "50 ٪"),
        ("...", ""),
        ("", ""),
    ],
)
def test_normalize_text_folds_case_width_and_spacing_and_strips_edge_punctuation(
    given: str, expected: str
) -> None:
    assert normalize_text(given) == expected


def test_normalizing_twice_changes_nothing() -> None:
    for text in ("  Ça   VA ?! ", "ＡＰＰＲＯＶＥ.", "a - b"):
        once = normalize_text(text)
        assert normalize_text(once) == once
