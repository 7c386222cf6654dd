"""Numbers in prose: amounts with their currency, quantities in base units, percentages, counts.

Each number is read with what stands around it: a sign or accounting parentheses (``-4.0%``,
``(1,200)`` are negative), a currency before or after (``€1.200,50``, ``1,450 USD``, ``twelve
hundred euros`` — number words become digits through text2num first), a multiplier
(``3.2m``, ``1.5 million``, ``10k``), a percent sign or word, a unit pint knows (converted to
base units: ``5 km`` and ``5000 m`` agree), or the noun it counts (``3 replicas``). Direction
words give a change its sign (``fell 4%`` is -4 %). Approximations (``about``, ``~``) and bounds
(``more than``, ``up to``) widen the interval the fact allows; ranges (``10-15%``) give it.

Separators follow the locale when a number is ambiguous (``1.200`` is 1.2 in en_US and 1200
in de_DE, from babel's CLDR data); ``1,200.50`` and ``1.200,50`` need no locale. A number glued
to letters (``EC2``, ``4411a``, ``3rd``), inside an identifier (``INV-4411``, ``v2.3.1``) or in a
span an earlier extractor read (a date) is not a number here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from accord.conflicts.prose._currencies import SYMBOLS, currency_names, is_code
from accord.conflicts.prose._text import Prepared, Word
from accord.conflicts.prose._units import Unit, Units
from accord.conflicts.prose.extractor import ReadContext
from accord.conflicts.prose.facts import Fact, FactKind
from accord.conflicts.prose.vocabularies import APPROXIMATORS, LOWER_BOUNDS, UPPER_BOUNDS

_CORE = re.compile(r"\d+(?:[.,'’\u00a0\u202f]\d+)*")
_SPACED_CORE = re.compile(r"\d{1,3}(?: \d{3})+(?:,\d+)?(?!\d)|\d+(?:[.,'’\u00a0\u202f]\d+)*")
_GLUED = re.compile(r"[A-Za-zµ°²³]+(?:/[A-Za-z]+)?")
_MULTIPLIERS = {
    "thousand": 1_000, "k": 1_000, "K": 1_000, "grand": 1_000, "million": 1_000_000,
    "millions": 1_000_000, "m": 1_000_000, "b": 1_000_000_000, "mn": 1_000_000,
    "mm": 1_000_000, "MM": 1_000_000, "M": 1_000_000,
    "mio": 1_000_000, "billion": 1_000_000_000, "billions": 1_000_000_000, "bn": 1_000_000_000,
    "B": 1_000_000_000, "trillion": 1_000_000_000_000, "1000": 1_000, "1000000": 1_000_000,
    "1000000000": 1_000_000_000,
}
_MONEY_ONLY = frozenset({"m", "M", "b", "B", "MM", "mm"})
"""Multipliers read as such only beside a currency (``5m`` alone is five metres)."""
_PERCENT_WORDS = {"percent": "%", "pct": "%", "percentage": "%", "pp": "pp", "bps": "bp",
                  "bp": "bp"}
_UP = frozenset(
    {"up", "rose", "rise", "rises", "risen", "grew", "grow", "grows", "growth", "increase",
     "increased", "increases", "gain", "gained", "gains", "jump", "jumped", "climbed",
     "climb", "higher", "improved", "improvement", "uplift", "raise", "raised", "plus"}
)
_DOWN = frozenset(
    {"down", "fell", "fall", "falls", "fallen", "drop", "dropped", "drops", "decline",
     "declined", "declines", "decrease", "decreased", "decreases", "lost", "lower", "shrank",
     "shrink", "shrunk", "contraction", "dip", "dipped", "slid", "slipped", "cut", "reduction",
     "reduced", "minus", "loss", "negative", "cost", "costs", "costing", "lose", "losing"}
)
_ADJECTIVES = frozenset(
    {"new", "more", "additional", "extra", "other", "separate", "open", "active", "total",
     "distinct", "unique", "full", "further", "remaining", "outstanding", "of", "the"}
)
_NOT_NOUNS = frozenset(
    {"and", "or", "to", "in", "on", "at", "by", "for", "from", "with", "is", "are", "was",
     "were", "be", "will", "would", "per", "than", "as", "a", "an", "it", "this", "that",
     "we", "i", "you", "they", "which", "if", "so", "but", "times", "x", "vs", "versus",
     "each", "out", "days", "weeks", "months", "years", "hours", "minutes", "ago", "later"}
)
_NON_NUMBER_BEFORE = frozenset("#/_\\@")


@dataclass(frozen=True)
class _Read:
    value: Decimal
    decimals: int


class NumberExtractor:
    """Amounts, quantities, percentages and counts (see the module doc)."""

    name = "numbers"

    def __init__(self, units: Units | None = None) -> None:
        self.units = units or _UNITS

    def extract(self, text: Prepared, context: ReadContext) -> Iterable[Fact]:
        locale = context.settings.locale
        decimal_mark, group_mark = _marks(locale)
        pattern = _SPACED_CORE if group_mark.isspace() else _CORE
        source = text.text
        facts: list[Fact] = []
        skip_until = -1
        for match in pattern.finditer(source):
            start, end = match.span()
            if start < skip_until or text.is_claimed(start, end):
                continue
            fact, consumed = self._number(text, match, context, decimal_mark)
            if fact is not None:
                facts.append(fact)
                skip_until = consumed
        return facts

    def _number(
        self, text: Prepared, match: re.Match[str], context: ReadContext, decimal_mark: str
    ) -> tuple[Fact | None, int]:
        source = text.text
        start, end = match.span()
        before = source[start - 1] if start else " "
        if before.isalnum() or before in _NON_NUMBER_BEFORE:
            return None, end
        if before == "." and start > 1 and source[start - 2].isdigit():
            return None, end
        negative = False
        span_start = start
        cursor = start
        if before == "-":
            if start > 1 and (source[start - 2].isalnum() or source[start - 2] in "-_"):
                return None, end  # INV-4411, a range's second half, gpt-4
            negative, span_start, cursor = True, start - 1, start - 1
        elif before == "+":
            span_start = cursor = start - 1
        read = _parse(match.group(), decimal_mark)
        if read is None:
            return None, end
        written = match.group()
        # what is written before: a currency, a sign before it, accounting parentheses
        currency, cursor = _currency_before(source, cursor, context.settings.locale)
        if currency is not None:
            span_start = cursor
            if cursor > 0 and source[cursor - 1] == "-":
                negative, span_start, cursor = True, cursor - 1, cursor - 1
        opening = cursor > 0 and source[cursor - 1] == "("
        # what is glued after: a multiplier, a unit, a percent sign, an ordinal
        position = end
        glued = _GLUED.match(source, position)
        multiplier = 1
        unit: Unit | None = None
        percent: str | None = None
        if glued is not None:
            word = glued.group()
            if word.lower() in ("st", "nd", "rd", "th", "x", "h1", "h2"):
                return None, glued.end()
            if word in _MULTIPLIERS and (word not in _MONEY_ONLY or currency is not None):
                multiplier = _MULTIPLIERS[word]
            elif (code := _currency_word(word, context.settings.locale)) is not None:
                currency = currency or code
            else:
                unit = self.units.lookup(word)
                if unit is None:
                    return None, glued.end()  # 4411a, 2fa, EC2-like tokens
            position = glued.end()
        # accounting negative: "(1,200)", "($1,200)", "(1.2m)" — the parentheses hold the
        # number alone; "(1,200 EUR)", "(30 percent)" or "(512 MiB)" are asides
        accounting = (
            opening and unit is None and position < len(source) and source[position] == ")"
        )
        if position < len(source) and source[position] == "%":
            percent, position = "%", position + 1
        # what follows as words: multiplier, percent, currency, unit, counted noun
        after = text.words_after(position, 4)
        used = 0
        if percent is None and unit is None and multiplier == 1 and after:
            following = after[0]
            raw = source[following.start : following.end]
            if raw in _MULTIPLIERS and (raw not in _MONEY_ONLY or currency is not None):
                multiplier = _MULTIPLIERS[raw]
                used = 1
        rest = after[used:]
        if percent is None and unit is None and rest:
            percent, taken = _percent_words(rest)
            used += taken
        if percent is None and unit is None and currency is None and after[used:]:
            currency, taken = _currency_after(source, after[used:], context.settings.locale)
            used += taken
        if percent is None and unit is None and currency is None and after[used:]:
            unit, taken = self._unit_after(source, after[used:])
            used += taken
        noun = ""
        if percent is None and unit is None and currency is None:
            noun = _counted_noun(after[used:])
        if used:
            position = max(position, after[used - 1].end)
        if accounting and not negative and not used:
            negative = True
            span_start -= 1
            position += 1
        if currency is not None and _three_after_one_mark(written):
            grouped = _parse(written, "-")  # money has at most two decimals: 12,450 is grouped
            read = grouped if grouped is not None else read
        value = read.value * multiplier
        direction = 0
        if percent is not None and not (percent == "%" and _share(text, position)):
            direction = _direction(text, span_start, position)
        if negative or direction < 0:
            value = -value
        half = Decimal(1).scaleb(-read.decimals) * multiplier / 2
        number = float(value)
        low, high = number - float(half), number + float(half)
        kind, key = FactKind.NUMBER, noun
        shown_value = _plain(value)
        if percent is not None:
            kind, key = FactKind.PERCENTAGE, "pp" if percent in ("pp", "bp") else "%"
            if percent == "bp":
                number, low, high = number / 100, low / 100, high / 100
                shown_value = _plain(value / 100)
        elif currency is not None:
            kind, key = FactKind.AMOUNT, currency
        elif unit is not None:
            kind, key = FactKind.QUANTITY, unit.dimension
            number = self.units.to_base(number, unit)
            low, high = sorted((self.units.to_base(low, unit), self.units.to_base(high, unit)))
            shown_value = f"{number:.12g}"
        low, high, bound = _widen(text, span_start, number, low, high, context)
        span_text = source[span_start:position].strip()
        text.claim(span_start, position)
        fact = Fact(
            kind=kind,
            key=key,
            value=shown_value,
            text=span_text,
            start=span_start,
            end=position,
            number=number,
            low=low,
            high=high,
            bound=bound,
        )
        return fact, position

    def _unit_after(self, source: str, words: list[Word]) -> tuple[Unit | None, int]:
        first = words[0]
        raw = source[first.start : first.end]
        tail = source[first.end : first.end + 12]
        slash = re.match(r"/[A-Za-z]+", tail)
        if slash is not None:
            unit = self.units.lookup(raw + slash.group())
            if unit is not None:
                return unit, 2 if len(words) > 1 else 1
        if len(words) > 2 and words[1].text == "per":
            combined = f"{raw}/{source[words[2].start : words[2].end]}"
            unit = self.units.lookup(combined)
            if unit is not None:
                return unit, 3
        unit = self.units.lookup(raw)
        return (unit, 1) if unit is not None else (None, 0)


_UNITS = Units()


@lru_cache(maxsize=16)
def _marks(locale: str) -> tuple[str, str]:
    from babel.numbers import get_decimal_symbol, get_group_symbol

    return get_decimal_symbol(locale), get_group_symbol(locale)


def _parse(core: str, decimal_mark: str) -> _Read | None:
    """The number ``core`` writes: the last of two different separators is the decimal mark;
    a separator repeated is grouping; a single one before exactly three digits is the
    locale's call; any other single one is the decimal mark."""
    seps = [c for c in core if not c.isdigit()]
    digits_after_last = len(core) - max(core.rfind(c) for c in seps) - 1 if seps else 0
    decimal: str | None = None
    if seps:
        kinds = set(seps)
        last = seps[-1]
        if len(kinds) > 1:
            decimal = last if seps.count(last) == 1 and last in ".," else None
            if decimal is None:
                return None
        elif len(seps) > 1:
            decimal = None  # 1,250,000 or 1.250.000
        elif digits_after_last == 3 and last in ".,":
            decimal = last if last == decimal_mark else None
        elif last in ".,":
            decimal = last
    integer, fraction = core, ""
    if decimal is not None:
        integer, _, fraction = core.rpartition(decimal)
    integer = "".join(c for c in integer if c.isdigit())
    if decimal is None and seps:
        groups = re.split(r"[^\d]", core)
        if any(len(g) != 3 for g in groups[1:]) or not 1 <= len(groups[0]) <= 3:
            return None  # 12,34,5 is no number we can read safely
    try:
        value = Decimal(f"{integer}.{fraction}" if fraction else integer)
    except InvalidOperation:
        return None
    return _Read(value, len(fraction))


def _currency_word(word: str, locale: str) -> str | None:
    if is_code(word):
        return word
    return currency_names(locale).get(word.lower()) if len(word) > 1 else None


def _currency_before(source: str, cursor: int, locale: str) -> tuple[str | None, int]:
    index = cursor
    while index > 0 and source[index - 1] in " \u00a0":
        index -= 1
        if cursor - index > 1:
            break
    if index > 0 and source[index - 1] in SYMBOLS:
        symbol_end = index
        symbol_start = index - 1
        while symbol_start > 0 and source[symbol_start - 1].isalpha():
            symbol_start -= 1
        prefixed = source[symbol_start:symbol_end].lower()
        code = currency_names(locale).get(prefixed) if symbol_start < symbol_end - 1 else None
        if code is None:
            code = currency_names(locale).get(source[index - 1])
            symbol_start = index - 1
        return code, symbol_start
    word_start = index
    while word_start > 0 and source[word_start - 1].isalpha():
        word_start -= 1
    word = source[word_start:index]
    if word and (word_start == 0 or not source[word_start - 1].isalnum()):
        if is_code(word):
            return word, word_start
        if word.lower() in ("chf", "usd", "eur", "gbp") and word.isupper():
            return word.upper(), word_start
    return None, cursor


def _currency_after(source: str, words: list[Word], locale: str) -> tuple[str | None, int]:
    names = currency_names(locale)
    if len(words) > 1:
        pair = f"{words[0].text} {words[1].text}"
        if pair in names:
            return names[pair], 2
    raw = source[words[0].start : words[0].end]
    if is_code(raw):
        return raw, 1
    code = names.get(words[0].text)
    if code is not None and (len(words[0].text) > 1 or words[0].text in "$€£¥₹"):
        return code, 1
    return None, 0


def _percent_words(words: list[Word]) -> tuple[str | None, int]:
    first = words[0].text
    if first == "%":
        return "%", 1
    if first == "per" and len(words) > 1 and words[1].text == "cent":
        return "%", 2
    if first in ("percentage", "basis") and len(words) > 1 and words[1].text.startswith(
        ("point", "points")
    ):
        return ("pp" if first == "percentage" else "bp"), 2
    found = _PERCENT_WORDS.get(first)
    if found is not None and first != "percentage":
        return found, 1
    return None, 0


def _counted_noun(words: list[Word]) -> str:
    for word in words[:2]:
        text = word.text
        if text in _ADJECTIVES:
            continue
        if text in _NOT_NOUNS or not text.isalpha() or len(text) < 3:
            return ""
        return lemma(text)
    return ""


def lemma(word: str) -> str:
    """A plural noun's singular, roughly (``replicas`` → ``replica``, ``policies`` →
    ``policy``); other words as they are."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _direction(text: Prepared, start: int, end: int) -> int:
    """-1 when a falling word governs the change, +1 for a rising one, 0 when none does
    (``to`` or ``at`` just before the number makes it a level, not a change)."""
    before = text.words_before(start, 4)
    for word in text.words_after(end, 1):
        sign = _sign_of(word.text)
        if sign:
            return sign  # "12% lower", "a 4% drop"
    level = bool(before) and before[-1].text in ("to", "at", "of", "is", "was", "be", "remains")
    if level and not (len(before) > 1 and before[-1].text == "of" and _sign_of(before[-2].text)):
        return 0
    for word in reversed(before):
        sign = _sign_of(word.text)
        if sign:
            return sign
    return 0


def _sign_of(word: str) -> int:
    return 1 if word in _UP else -1 if word in _DOWN else 0


def _widen(
    text: Prepared, start: int, number: float, low: float, high: float, context: ReadContext
) -> tuple[float, float, str | None]:
    """The interval widened for the tolerance and an approximation, and the bound the words
    before the number make of it (``at least`` / ``at most``), if any."""
    settings = context.settings
    slack = abs(number) * settings.number_tolerance
    low, high = low - slack, high + slack
    before = [w.text for w in text.words_before(start, 4) if w.text not in _ARTICLES]
    if start > 0 and text.text[max(0, start - 2) : start].strip() in ("~", "≈"):
        before.append("~")
    if any(word in APPROXIMATORS for word in before[-2:]):
        room = abs(number) * settings.approximate_gap
        return min(low, number - room), max(high, number + room), None
    for phrases, bound in ((LOWER_BOUNDS, "at least"), (UPPER_BOUNDS, "at most")):
        for phrase in phrases:
            if tuple(before[-len(phrase) :]) == phrase:
                return low, high, bound
    return low, high, None


_ARTICLES = frozenset({"the", "a", "an", "our", "their", "its", "your"})


def _share(text: Prepared, end: int) -> bool:
    """True for a share (``2.3 percent of customers``): a level, not a change."""
    after = text.words_after(end, 1)
    return bool(after) and after[0].text == "of"


def _three_after_one_mark(written: str) -> bool:
    marks = [c for c in written if c in ".,"]
    return len(marks) == 1 and len(written) - written.index(marks[0]) - 1 == 3


def _plain(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return text if text != "-0" else "0"


def iter_numbers(facts: Iterable[Fact]) -> Iterator[Fact]:
    """The numeric facts among ``facts``."""
    return (f for f in facts if f.number is not None)
