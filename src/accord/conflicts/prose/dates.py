"""Dates and times of day in prose, absolute or relative to the case's reference time.

Spans are found by pattern (ISO dates, ``05/03/2024``, ``May 3, 2024``, ``3rd of May``,
``May 2024``, weekdays, ``tomorrow``, ``next week``, ``in 2 weeks``, ``Q3 2024``, ``14:00``,
``2 pm``, ``in 2024``) and read by libraries: absolute dates by python-dateutil (about
0.03 ms), relative ones by dateparser against the reference time (about 0.6 ms, so each
phrase is resolved once per reference and at most ``max_date_lookups`` per answer). The
locale decides whether ``03/05/2024`` is the 3rd of May (day first, en_GB / de_DE) or the 5th
of March (en_US), from babel's CLDR date formats.

Without a reference time, relative dates stay as written (``next friday``): they agree only
with the same words, and are comparable only with other relative dates. A year left out
(``May 3``) takes the reference's year, or matches any year without a reference.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable
from datetime import date, datetime
from functools import lru_cache
from typing import Any

from accord.conflicts.prose._text import Prepared
from accord.conflicts.prose.extractor import ReadContext
from accord.conflicts.prose.facts import Fact, FactKind
from accord.log import get_logger

log = get_logger("accord.prose")

_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
_WEEKDAY = r"(?:Mon|Tues?|Wed(?:nes)?|Thu(?:rs)?|Fri|Sat(?:ur)?|Sun)day"
_ORD = r"(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+(?:\d{4}|'\d{2}))?"
_PATTERNS: tuple[tuple[str, str], ...] = (
    ("iso", r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?\b"),
    ("numeric", r"(?<![\d.])\b\d{1,2}[/.]\d{1,2}[/.](?:\d{4}|\d{2})\b(?![.]\d)"),
    (
        "named",
        rf"\b(?:{_WEEKDAY},?\s+)?(?:(?:the\s+)?\d{{1,2}}{_ORD}\s+(?:of\s+)?{_MONTH}\.?{_YEAR}"
        rf"|{_MONTH}\.?\s+(?:the\s+)?\d{{1,2}}{_ORD}\b{_YEAR}|{_MONTH}\s+\d{{4}})\b",
    ),
    ("quarter", r"\b(?:end\s+of\s+)?(?:Q[1-4]|H[12])(?:\s*(?:FY)?\s*(?:\d{4}|'\d{2}))?\b"),
    ("fiscal", r"\bFY\s?(?:\d{4}|'?\d{2})\b"),
    (
        "relative",
        rf"(?i:\b(?:today|tonight|tomorrow|yesterday"
        rf"|(?:next|this|last|coming|following)\s+(?:week|month|quarter|year|{_WEEKDAY})"
        rf"|in\s+\d+\s+(?:days?|weeks?|months?)|\d+\s+(?:days?|weeks?|months?)\s+"
        rf"(?:from\s+now|from\s+today|later|ago)|end\s+of\s+(?:the\s+)?(?:day|week|month|year)"
        rf"|eod|eow|eom|cob)\b)|\b{_WEEKDAY}\b",
    ),
    (
        "time",
        r"\b\d{1,2}:\d{2}(?:\s?[aApP]\.?[mM]\.?)?(?:\s?(?:UTC|GMT|CET|CEST|EST|EDT|PST|PDT|BST))?"
        r"(?![\d:])|\b\d{1,2}\s?[aApP]\.?[mM]\b\.?"
        r"(?:\s?(?:UTC|GMT|CET|CEST|EST|EDT|PST|PDT|BST)\b)?|\b(?:noon|midnight)\b",
    ),
    (
        "year",
        r"(?i:\b(?:in|since|by|until|from|during|before|after|of|end\s+of)\s+)((?:19|20)\d{2})\b",
    ),
)
_SCANNER = re.compile("|".join(f"(?P<{name}>{pattern})" for name, pattern in _PATTERNS))
_END_OF = {"eod": "today", "cob": "today", "end of day": "today", "end of the day": "today"}


class DateExtractor:
    """Dates (kind ``date``) and times of day (kind ``time``); see the module doc."""

    name = "dates"

    def extract(self, text: Prepared, context: ReadContext) -> Iterable[Fact]:
        facts: list[Fact] = []
        lookups = [context.settings.max_date_lookups]
        dayfirst = _day_first(context.settings.locale)
        for match in _SCANNER.finditer(text.text):
            kind = match.lastgroup or ""
            span = match.group()
            start, end = match.span()
            if kind == "year":
                start = match.start(len(_PATTERNS) + 1)  # only the year itself
                span = text.text[start:end]
            if text.is_claimed(start, end):
                continue
            fact = self._read(kind, span, start, end, context, dayfirst, lookups)
            text.claim(start, end)
            if fact is not None:
                facts.append(fact)
        return facts

    def _read(
        self,
        kind: str,
        span: str,
        start: int,
        end: int,
        context: ReadContext,
        dayfirst: bool,
        lookups: list[int],
    ) -> Fact | None:
        reference = context.reference
        phrase = " ".join(span.lower().split())
        if kind == "time":
            value = _time_of(phrase)
            return _fact(FactKind.TIME, "time", value, span, start, end) if value else None
        if kind == "year":
            return _fact(FactKind.DATE, "year", span, span, start, end)
        if kind in ("quarter", "fiscal"):
            return _fact(FactKind.DATE, kind, _quarter(phrase, reference), span, start, end)
        if kind == "relative":
            phrase = _END_OF.get(phrase, phrase)
            if reference is None:
                return _fact(FactKind.DATE, "relative", phrase, span, start, end)
            resolved = _end_of(phrase, reference.date()) or _calendar(phrase, reference.date())
            if resolved is None:
                if lookups[0] <= 0:
                    return None
                lookups[0] -= 1
                found = _relative(phrase, reference.date().isoformat())
                resolved = found
            if resolved is None:
                return _fact(FactKind.DATE, "relative", phrase, span, start, end)
            return _fact(FactKind.DATE, _key_of(resolved), resolved, span, start, end)
        value, key = _absolute(span, reference, dayfirst, iso=kind == "iso")
        if value is None:
            return None
        return _fact(FactKind.DATE, key, value, span, start, end)


def _key_of(value: str) -> str:
    if "-W" in value:
        return "week"
    return {4: "year", 7: "month"}.get(len(value), "day")


def _fact(kind: FactKind, key: str, value: str, span: str, start: int, end: int) -> Fact:
    return Fact(kind=kind, key=key, value=value, text=span, start=start, end=end)


@lru_cache(maxsize=16)
def _day_first(locale: str) -> bool:
    from babel.dates import get_date_format

    pattern = get_date_format("short", locale=locale).pattern.lower()
    return pattern.index("d") < pattern.index("m") if "d" in pattern and "m" in pattern else False


_ISO_TIME = re.compile(r"[T ]\d")


def _absolute(
    span: str, reference: datetime | None, dayfirst: bool, *, iso: bool
) -> tuple[str | None, str]:
    from dateutil import parser as dateutil_parser

    text = re.sub(r"\b(\d{1,2})(?:st|nd|rd|th)\b", r"\1", span)
    text = re.sub(r"\b(?:of|the)\b", " ", text)
    has_year = bool(re.search(r"\d{4}|'\d{2}|/\d{2}\b|\.\d{2}\b", span))
    has_day = not re.fullmatch(rf"\s*{_MONTH}\s+\d{{4}}\s*", span)
    default_year = reference.year if reference is not None else 2000
    try:
        parsed = dateutil_parser.parse(
            text, default=datetime(default_year, 1, 1), dayfirst=dayfirst, fuzzy=True
        )
    except (ValueError, OverflowError) as exc:
        log.debug("prose.date_unread", span=span, error=type(exc).__name__)
        return None, "day"
    if not has_day:
        return f"{parsed.year:04d}-{parsed.month:02d}", "month"
    if not has_year and reference is None:
        return f"????-{parsed.month:02d}-{parsed.day:02d}", "day"
    return parsed.date().isoformat(), "day"


def _time_of(phrase: str) -> str | None:
    if phrase == "noon":
        return "12:00"
    if phrase == "midnight":
        return "00:00"
    match = re.match(r"(\d{1,2})(?::(\d{2}))?\s?([ap])?\.?m?\.?\s*([a-z]+)?", phrase)
    if match is None:
        return None
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    half = match.group(3)
    if half == "p" and hour < 12:
        hour += 12
    elif half == "a" and hour == 12:
        hour = 0
    if hour > 23 or minute > 59:
        return None
    zone = (match.group(4) or "").upper()
    return f"{hour:02d}:{minute:02d}" + (f" {zone}" if zone and zone != "M" else "")


def _quarter(phrase: str, reference: datetime | None) -> str:
    match = re.search(r"(q[1-4]|h[12]|fy)\s*(?:fy)?\s*'?(\d{2,4})?", phrase)
    if match is None:
        return phrase
    part, year = match.group(1).upper(), match.group(2)
    if year is None and reference is not None:
        year = str(reference.year)
    elif year is not None and len(year) == 2:
        year = f"20{year}"
    prefix = "end of " if phrase.startswith("end of") else ""
    return f"{prefix}{year or '????'}-{part}"


def _end_of(phrase: str, today: date) -> str | None:
    if phrase in ("today", "tonight"):
        return today.isoformat()
    if phrase in ("end of month", "end of the month", "eom"):
        last = calendar.monthrange(today.year, today.month)[1]
        return today.replace(day=last).isoformat()
    if phrase in ("end of year", "end of the year"):
        return date(today.year, 12, 31).isoformat()
    return None


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_RELATIVE = re.compile(
    r"(?:(?P<which>next|this|coming|following|last)\s+)?(?P<unit>week|month|year|[a-z]+day)"
    r"|in\s+(?P<count>\d+)\s+(?P<span>day|week|month)s?"
    r"|(?P<count2>\d+)\s+(?P<span2>day|week|month)s?\s+(?P<dir>from\s+now|from\s+today|later|ago)"
)


def _calendar(phrase: str, today: date) -> str | None:
    """The common relative phrases by calendar arithmetic (python-dateutil's relativedelta,
    microseconds) with dateparser's readings: a weekday, ``this`` or ``next`` weekday is the
    coming one, ``last`` the previous one; ``next week`` is the next ISO week. None for any
    other phrase (dateparser reads it)."""
    from dateutil.relativedelta import relativedelta, weekday

    if phrase in ("tomorrow", "yesterday"):
        return (today + relativedelta(days=1 if phrase == "tomorrow" else -1)).isoformat()
    match = _RELATIVE.fullmatch(phrase)
    if match is None:
        return None
    if match.group("count") or match.group("count2"):
        count = int(match.group("count") or match.group("count2"))
        span = match.group("span") or match.group("span2")
        if match.group("dir") == "ago":
            count = -count
        if span == "day":
            moved = today + relativedelta(days=count)
        elif span == "week":
            moved = today + relativedelta(weeks=count)
        else:
            moved = today + relativedelta(months=count)
        return moved.isoformat()
    unit, which = match.group("unit"), match.group("which") or "this"
    step = {"last": -1, "this": 0, "coming": 0}.get(which, 1)
    if unit in _WEEKDAYS:
        day = weekday(_WEEKDAYS.index(unit))
        if step < 0:
            return (today + relativedelta(days=-1, weekday=day(-1))).isoformat()
        return (today + relativedelta(days=1, weekday=day(+1))).isoformat()
    if unit == "week":
        iso = (today + relativedelta(weeks=step)).isocalendar()
        return f"{iso.year:04d}-W{iso.week:02d}"
    if unit == "month":
        moved = today + relativedelta(months=step)
        return f"{moved.year:04d}-{moved.month:02d}"
    if unit == "year":
        return f"{today.year + step:04d}"
    return None


@lru_cache(maxsize=1024)
def _relative(phrase: str, reference: str) -> str | None:
    """``phrase`` resolved against the ``reference`` day (ISO) by dateparser; None when it
    cannot tell. Cached: a phrase costs one dateparser call per reference day."""
    import dateparser

    settings: Any = {
        "RELATIVE_BASE": datetime.fromisoformat(reference),
        "PREFER_DATES_FROM": "future",
        "RETURN_AS_TIMEZONE_AWARE": False,
        "TIMEZONE": "UTC",
    }
    if phrase.startswith("last "):
        settings["PREFER_DATES_FROM"] = "past"
    found = dateparser.parse(phrase, languages=["en"], settings=settings)
    if found is None:
        return None
    if not isinstance(found, datetime):
        return None
    if phrase.endswith(("week", "month", "quarter", "year")):
        unit = phrase.rsplit(" ", 1)[-1]
        if unit == "month":
            return f"{found.year:04d}-{found.month:02d}"
        if unit == "year":
            return f"{found.year:04d}"
        if unit == "week":
            iso = found.isocalendar()
            return f"{iso.year:04d}-W{iso.week:02d}"
    return found.date().isoformat()
