"""Reading an answer: clean it, bound it, run the extractors, keep what they found.

Bounds come first and cost one pass over the text: an answer longer than ``max_chars`` or
holding more number-like runs than ``max_facts`` is not read at all (its reading says why —
the detection then reports the answers as not comparable). Inside the bounds every extractor
is linear in the text. An extractor that raises is logged (``prose.extractor_failed``) and its
facts are missing from that answer; the others still count.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from accord.conflicts.prose._text import Prepared, clean
from accord.conflicts.prose.dates import DateExtractor
from accord.conflicts.prose.entities import EntityExtractor, NameExtractor
from accord.conflicts.prose.extractor import FactExtractor, ReadContext
from accord.conflicts.prose.facts import Fact, FactKind, Reading
from accord.conflicts.prose.numbers import NumberExtractor
from accord.conflicts.prose.verdicts import LabelExtractor, VerdictExtractor, label_fact
from accord.log import get_logger

log = get_logger("accord.prose")

_DIGIT_RUNS = re.compile(r"\d+")
_LANGUAGES = frozenset({"en", "fr", "es", "de", "pt", "it", "nl", "da"})


def default_extractors() -> tuple[FactExtractor, ...]:
    """Dates, entities, numbers, verdicts, labels, names — in this order (earlier ones claim
    first)."""
    return (
        DateExtractor(),
        EntityExtractor(),
        NumberExtractor(),
        VerdictExtractor(),
        LabelExtractor(),
        NameExtractor(),
    )


class ProseReader:
    """Reads answers into facts with a fixed list of extractors (the defaults unless given)."""

    def __init__(self, extractors: Sequence[FactExtractor] | None = None) -> None:
        self.extractors = tuple(extractors) if extractors is not None else default_extractors()

    def read(self, text: str, context: ReadContext) -> Reading:
        """The facts of ``text``, or a reading that says why it was not read."""
        settings = context.settings
        if len(text) > settings.max_chars:
            return _refused(
                f"{len(text):,} characters, above prose.max_chars = {settings.max_chars:,}"
            )
        runs = sum(1 for _ in _DIGIT_RUNS.finditer(text))
        if runs > 2 * settings.max_facts:
            return _refused(
                f"{runs:,} numbers, above twice prose.max_facts = {settings.max_facts:,}"
            )
        prepared = Prepared.of(text, _language(settings.locale))
        whole = context.labels.label_of(clean(text))
        if whole is not None:
            fact = label_fact(prepared, whole, context)
            return Reading(facts=(fact,), label_only=True)
        facts: list[Fact] = []
        failures: list[str] = ["number_words"] if prepared.number_words_failed else []
        for extractor in self.extractors:
            try:
                facts.extend(extractor.extract(prepared, context))
            except Exception as exc:
                failures.append(extractor.name)
                log.warning(
                    "prose.extractor_failed",
                    extractor=extractor.name,
                    error=type(exc).__name__,
                    detail=str(exc)[:200],
                )
            if len(facts) > settings.max_facts:
                return _refused(
                    f"more than prose.max_facts = {settings.max_facts:,} facts", failures
                )
        if not facts and not failures and len(prepared.words) <= settings.short_answer_words:
            whole_answer = " ".join(w.text for w in prepared.words)
            if whole_answer:
                facts.append(
                    Fact(
                        kind=FactKind.ANSWER,
                        key="",
                        value=whole_answer,
                        text=prepared.text.strip(),
                        start=0,
                        end=len(prepared.text),
                        weak=True,
                    )
                )
        facts.sort(key=lambda fact: fact.start)
        return Reading(facts=tuple(facts), failures=tuple(failures))


def _language(locale: str) -> str:
    language = locale.split("_")[0].lower()
    return language if language in _LANGUAGES else "en"


def _refused(reason: str, failures: Sequence[str] = ()) -> Reading:
    log.info("prose.not_read", reason=reason)
    return Reading(refused=reason, failures=tuple(failures))
