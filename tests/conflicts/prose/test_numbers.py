"""Numbers in prose keep their currency, sign, unit and precision."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord.conflicts.prose import FactKind, ProseSettings

from ._reading import compare, of_kind, read


@pytest.mark.parametrize(
    "text",
    [
        "The total is 1,200 EUR.",
        "1200 euros in total",
        "It comes to €1,200.00.",
        "Total: EUR 1,200",
        "twelve hundred euros",
        "Gesamt: 1.200,00 €",
    ],
)
def test_every_way_of_writing_twelve_hundred_euros_reads_as_one_amount(text: str) -> None:
    [amount] = of_kind(read(text), FactKind.AMOUNT)
    assert (amount.key, amount.number, amount.shown) == ("EUR", 1200.0, "1,200 EUR")


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("Net result: (1,200) EUR.", -1200.0),
        ("Net result: -1,200 EUR.", -1200.0),
        ("The loss was ($45.99).", -45.99),
        ("Revenue fell 4.0% on the quarter.", -4.0),
        ("Quarter-over-quarter change: -4.0%.", -4.0),
        ("Revenue grew 4% on the quarter.", 4.0),
        ("p95 is 12% lower after the upgrade.", -12.0),
    ],
)
def test_signs_accounting_negatives_and_direction_words_survive(text: str, number: float) -> None:
    [fact] = [f for f in read(text) if f.number is not None]
    assert fact.number == pytest.approx(number)


@pytest.mark.parametrize(
    "text",
    ["Deposit: 3,600 euros (30 percent).", "Each worker needs half a GiB (512 MiB)."],
)
def test_an_aside_in_parentheses_is_not_an_accounting_negative(text: str) -> None:
    assert all((f.number or 0) > 0 for f in read(text) if f.number is not None)


@pytest.mark.parametrize(
    ("text", "number"),
    [("Q2 revenue was $3.2 million.", 3_200_000.0), ("We booked $3.2M.", 3_200_000.0),
     ("The budget is 25k EUR.", 25_000.0), ("Damage: £1.1m.", 1_100_000.0)],
)
def test_multipliers_scale_the_amount(text: str, number: float) -> None:
    [amount] = of_kind(read(text), FactKind.AMOUNT)
    assert amount.number == pytest.approx(number)


def test_the_locale_decides_an_ambiguous_separator_but_money_keeps_two_decimals() -> None:
    german = ProseSettings(locale="de_DE")
    assert of_kind(read("Der Faktor ist 1,250.", settings=german), FactKind.NUMBER)[0].number == (
        pytest.approx(1.25)
    )
    assert of_kind(read("The factor is 1,250."), FactKind.NUMBER)[0].number == 1250.0
    [amount] = of_kind(read("Total: EUR 12,450.", settings=german), FactKind.AMOUNT)
    assert amount.number == 12450.0


@pytest.mark.parametrize(
    ("a", "b"),
    [("Give each worker 2 GiB.", "Each worker needs 2048 MiB."),
     ("Resolve P1 incidents within 4 hours.", "Resolve P1 incidents within 240 minutes."),
     ("It's 12 km away.", "It is 12,000 m away.")],
)
def test_quantities_are_compared_in_base_units(a: str, b: str) -> None:
    assert not compare(a, b).has_conflict


def test_a_changed_quantity_is_a_conflict_naming_both_sides() -> None:
    detection = compare("Request 512 MiB per pod.", "Request 256 MiB per pod.")
    assert detection.prose is not None
    assert detection.prose.differing == ("quantity: 512 MiB vs 256 MiB",)


def test_numbers_inside_identifiers_versions_and_dates_are_not_numbers() -> None:
    facts = read("INV-4411 (v2.3.1) is on EC2 since 2024-05-03; see #812.")
    assert not [f for f in facts if f.kind in (FactKind.NUMBER, FactKind.AMOUNT)]


def test_an_approximation_agrees_within_its_room_and_a_precise_figure_within_its_precision() -> (
    None
):
    assert not compare("Revenue was about $3.2 million.", "Revenue was $3,214,560.").has_conflict
    assert not compare("Churn is 4%.", "Churn is 4.3%.").has_conflict
    assert compare("Churn is 4.0%.", "Churn is 4.3%.").has_conflict


def test_a_bound_agrees_with_values_it_allows_and_only_with_the_same_bound() -> None:
    assert not compare(
        "Under 10k EUR: 8,750 EUR.", "8,750 EUR, below the 10,000 EUR limit."
    ).has_conflict
    assert compare("Resolve within 4 hours.", "Resolve within 8 hours.").has_conflict
    assert not compare("More than 1,000 users.", "1,200 users signed up.").has_conflict


AMOUNTS = st.decimals(min_value=Decimal("0.01"), max_value=Decimal("9999999.99"), places=2)
STYLES = {
    "en": lambda v: f"The total is {v:,.2f} EUR.",
    "symbol": lambda v: f"It comes to €{v:,.2f}.",
    "de": lambda v: f"Gesamtbetrag: {v:,.2f} €".replace(",", "_").replace(".", ",").replace(
        "_", "."
    ),
    "plain": lambda v: f"{v:.2f} euros in total",
}


@given(AMOUNTS, st.sampled_from(sorted(STYLES)), st.sampled_from(sorted(STYLES)))
def test_any_amount_written_two_ways_agrees(value: Decimal, first: str, second: str) -> None:
    detection = compare(STYLES[first](value), STYLES[second](value))
    assert not detection.has_conflict, detection.description


@given(AMOUNTS, AMOUNTS, st.sampled_from(sorted(STYLES)))
def test_two_different_amounts_in_the_same_sentence_conflict(
    value: Decimal, other: Decimal, style: str
) -> None:
    if value == other:
        return
    detection = compare(STYLES[style](value), STYLES[style](other))
    assert detection.has_conflict
    assert detection.prose is not None
    assert detection.prose.differing[0].startswith("amount: ")


@given(st.decimals(min_value=Decimal("0.1"), max_value=Decimal("99.9"), places=1))
def test_a_percentage_and_its_negative_never_agree(value: Decimal) -> None:
    assert compare(f"Change: {value}%.", f"Change: -{value}%.").has_conflict
