"""Dates and times: absolute, relative to the case's time, in the locale's order."""

from __future__ import annotations

import pytest

from accord.conflicts.prose import FactKind, ProseSettings

from ._reading import compare, of_kind, read


@pytest.mark.parametrize(
    "text",
    ["on May 3, 2024", "on 3 May 2024", "on 2024-05-03", "on the 3rd of May", "this Friday",
     "on Friday, May 3", "in 2 days"],
)
def test_every_way_of_naming_the_3rd_of_may_reads_as_that_day(text: str) -> None:
    [day] = of_kind(read(f"We ship {text}."), FactKind.DATE)
    assert day.value == "2024-05-03"


def test_relative_dates_count_from_the_reference_time_not_the_wall_clock() -> None:
    [tomorrow] = of_kind(read("Tomorrow."), FactKind.DATE)
    assert tomorrow.value == "2024-05-02"
    [unresolved] = of_kind(read("Tomorrow.", reference=None), FactKind.DATE)
    assert (unresolved.key, unresolved.value) == ("relative", "tomorrow")


def test_without_a_reference_a_year_left_out_matches_any_year() -> None:
    assert not compare("Due May 15.", "Due 15 May 2024.", reference=None).has_conflict
    assert compare("Due May 15.", "Due 16 May 2024.", reference=None).has_conflict


def test_the_locale_decides_whether_the_day_or_the_month_comes_first() -> None:
    [us] = of_kind(read("Due 05/03/2024."), FactKind.DATE)
    [uk] = of_kind(read("Due 05/03/2024.", settings=ProseSettings(locale="en_GB")), FactKind.DATE)
    assert (us.value, uk.value) == ("2024-05-03", "2024-03-05")


def test_a_changed_date_in_the_same_sentence_is_a_conflict_that_names_it() -> None:
    detection = compare("The release goes out on May 3.", "The release goes out on May 10.")
    assert detection.prose is not None
    assert detection.prose.differing == ("date: May 3 (2024-05-03) vs May 10 (2024-05-10)",)


@pytest.mark.parametrize(
    ("a", "b", "conflict"),
    [("at 22:00 UTC", "at 10 pm UTC", False), ("at 4 pm", "at 16:00", False),
     ("at 22:00 UTC", "at 22:00 CET", True), ("at 14:00", "at 15:00", True)],
)
def test_times_of_day(a: str, b: str, conflict: bool) -> None:
    assert compare(f"Maintenance starts {a}.", f"Maintenance starts {b}.").has_conflict is conflict


def test_a_quarter_a_month_and_a_year_compare_at_their_own_precision() -> None:
    assert not compare("Done in Q3 2024.", "Finished by Q3 2024.").has_conflict
    assert compare("Done in Q3 2024.", "Done in Q4 2024.").has_conflict
    assert not compare("Prices apply from July 2024.", "From July 1, 2024.").has_conflict
    assert compare("Deprecated since 2022.", "Deprecated in 2021.").has_conflict
