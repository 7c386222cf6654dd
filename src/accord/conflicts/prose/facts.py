"""What a prose answer commits to: facts, each of a kind, comparable within its key.

A :class:`Fact` is one claim read out of an answer: an amount (``1,200 EUR``), a quantity
converted to base units (``5 km`` → ``5000 m``), a percentage, a plain number or a count of
something (``3 replicas``), a date or a time of day, a verdict (approve / reject / defer, with
its hedging), a label from a vocabulary, an entity (an identifier such as ``INV-4411``, a name,
the option an answer chooses), a short list, or — for a short answer with nothing else to
read — the answer itself.

Numbers carry the interval of values the statement allows: its stated precision (``1.2
million`` allows 1.15 to 1.25 million, ``1,200`` allows 1,199.5 to 1,200.5), widened for an
approximation (``about 1,200``) and open on one side for a bound (``more than 1,000``). Two
numbers agree when one lies in the other's interval.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class FactKind(StrEnum):
    """The kinds of facts the extractors read."""

    AMOUNT = "amount"
    QUANTITY = "quantity"
    PERCENTAGE = "percentage"
    NUMBER = "number"
    DATE = "date"
    TIME = "time"
    VERDICT = "verdict"
    LABEL = "label"
    ENTITY = "entity"
    LIST = "list"
    ANSWER = "answer"


NUMERIC_KINDS = frozenset(
    {FactKind.AMOUNT, FactKind.QUANTITY, FactKind.PERCENTAGE, FactKind.NUMBER}
)
"""Kinds whose facts carry a number and an interval."""

WEAK_KINDS = frozenset({FactKind.ANSWER})
"""Kinds consulted only when no other kind is shared (a name or a short answer)."""


class Fact(BaseModel):
    """One claim of an answer.

    ``key`` says what the fact is comparable with inside its kind (a currency, a unit's
    dimension, the counted noun, a vocabulary, an identifier's shape); ``value`` is its
    canonical value (a decimal, an ISO date, a polarity, a canonical label). Numbers also
    carry ``number`` (in base units) and the interval ``[low, high]`` the statement allows.
    ``text`` is the fact as written, ``start``/``end`` where it stands in the cleaned answer.
    """

    model_config = ConfigDict(frozen=True)

    kind: FactKind
    key: str
    value: str
    text: str
    start: int
    end: int
    number: float | None = None
    low: float | None = None
    high: float | None = None
    bound: str | None = None
    """``at least`` or ``at most`` for a bound (``more than 1,000``, ``within 4 hours``)."""
    hedged: bool = False
    weak: bool = False

    @property
    def shown(self) -> str:
        """How a record shows the fact: amounts and percentages in one canonical form
        (``1,200 EUR``, ``-4%``), dates with their resolved value (``next Friday
        (2024-05-10)``), verdicts with the words that gave them, the rest as written."""
        text = " ".join(self.text.split())
        bound = f"{self.bound} " if self.bound else ""
        if self.kind is FactKind.AMOUNT:
            return f"{bound}{_grouped(self.value)} {self.key}"
        if self.kind is FactKind.PERCENTAGE:
            return f"{bound}{self.value}%" if self.key == "%" else f"{bound}{self.value} pp"
        if bound:
            return f"{bound}{text}"
        if self.kind is FactKind.NUMBER and self.key:
            return f"{text} ({self.key})"
        if self.kind in (FactKind.DATE, FactKind.TIME) and self.value not in text:
            return f"{text} ({self.value})"
        if self.kind is FactKind.VERDICT:
            hedge = ", hedged" if self.hedged else ""
            return f"{self.value} ({text!r}{hedge})"
        return text

    @property
    def slot(self) -> str:
        """The kind, with the key when it narrows it (``label:priority``, ``number:replica``)."""
        if self.kind in (FactKind.AMOUNT, FactKind.QUANTITY, FactKind.PERCENTAGE):
            return self.kind.value
        return f"{self.kind.value}:{self.key}" if self.key else self.kind.value


def _grouped(value: str) -> str:
    sign, digits = ("-", value[1:]) if value.startswith("-") else ("", value)
    whole, dot, fraction = digits.partition(".")
    return f"{sign}{int(whole):,}{dot}{fraction}" if whole.isdigit() else value


class Reading(BaseModel):
    """The facts read out of one answer, or why none could be read (``refused``)."""

    model_config = ConfigDict(frozen=True)

    facts: tuple[Fact, ...] = ()
    refused: str | None = None
    failures: tuple[str, ...] = ()
    """Extractors that failed on this answer (each logged): their facts are missing."""
    label_only: bool = False
    """The whole answer is one vocabulary label (``Approve.``, ``LGTM``, ``P1``)."""
