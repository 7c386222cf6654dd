"""Listings people copy from: an id is never cut or folded and a header never breaks inside a
word, at any terminal width; a row too wide for the terminal prints as lines."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from accord.cli.tables import LONGEST_TOKEN, listing

ITEM = "apr:01JQ7ZK3M0A1B2C3D4E5F6G7H8"
CASE = "cas:01JQ7ZK3M0A1B2C3D4E5F6G7H9"


def printed(width: int, *rows: tuple[str, ...], columns: tuple[str, ...]) -> str:
    table = listing(*columns)
    for row in rows:
        table.add_row(*row)
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None).print(table)
    return buffer.getvalue()


APPROVALS = ("item", "case", "risk", "status", "role", "deadline", "options")
ROW = (ITEM, CASE, "high", "pending", "approver", "2026-12-06T06:00:00+00:00", "approve | reject")


def test_a_wide_terminal_gets_a_table_with_each_id_on_one_line() -> None:
    text = printed(200, ROW, columns=APPROVALS)

    assert "┃ item" in text
    (line,) = [line for line in text.splitlines() if ITEM in line]
    assert CASE in line


def test_a_narrow_terminal_gets_each_row_as_lines_with_its_ids_whole() -> None:
    text = printed(80, ROW, ROW, columns=APPROVALS)

    assert "│" not in text
    assert text.count(f"item      {ITEM}") == 2
    assert f"case      {CASE}" in text


def test_free_text_wraps_at_words_while_the_id_stays_whole() -> None:
    answer = "the total is twelve hundred euros as the invoice states " * 2
    text = printed(100, (CASE, "settled", answer), columns=("case", "status", "answer"))

    assert any(CASE in line for line in text.splitlines())
    assert "twelve" in text
    assert "twel\n" not in text


@given(
    width=st.integers(min_value=60, max_value=220),
    ids=st.lists(
        st.text(alphabet="abcdefghjkmnpqrstvwxyz0123456789:", min_size=8, max_size=40),
        min_size=1,
        max_size=4,
    ),
)
def test_every_id_prints_whole_on_one_line_at_any_width(width: int, ids: list[str]) -> None:
    rows = [(value, "pending", "a note with several words in it") for value in ids]
    text = printed(width, *rows, columns=("approval item", "status", "note"))

    lines = text.splitlines()
    for value in ids:
        assert any(value in line for line in lines)
    assert not any(line.rstrip().endswith("approv") for line in lines)  # no header cut


def test_data_is_printed_as_it_is_never_read_as_markup_or_emoji_codes() -> None:
    odd = ("00000:a:", "mcp:agent:smile:key", "[red]not red[/]")
    text = printed(200, odd, columns=("case", "agent", "note"))

    for value in odd:
        assert value in text


def test_a_pasted_document_without_spaces_may_fold_rather_than_widen_the_table() -> None:
    blob = "x" * (LONGEST_TOKEN * 3)
    text = printed(200, (CASE, blob), columns=("case", "document"))

    assert any(CASE in line for line in text.splitlines())
    assert text.count("x") == len(blob)
