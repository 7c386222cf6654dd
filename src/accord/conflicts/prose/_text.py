"""A prose answer made ready for the extractors: cleaned once, then read by each of them.

Cleaning keeps what a claim depends on and drops what only hides it: NFKC (full-width digits and
ligatures become plain ones), invisible format characters (zero-width spaces, joiners, bidi
controls, soft hyphens) removed, every Unicode decimal digit mapped to its ASCII digit, the minus
sign and the dashes used as minus written ``-``, typographic quotes kept as they are (they mark
reported speech). Signs, parentheses and units are never touched.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

_MINUS = {"\u2212": "-", "\u2012": "-", "\u2013": "-", "\ufe63": "-", "\uff0d": "-",
          "\u066b": ".", "\u066c": ","}  # and the Arabic decimal and thousands separators


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _plain(match: re.Match[str]) -> str:
    char = match.group()
    if char in _MINUS:
        return _MINUS[char]
    if unicodedata.category(char) == "Cf":
        return ""
    if unicodedata.category(char) == "Nd":
        return str(unicodedata.digit(char))
    return char


def clean(text: str) -> str:
    """``text`` with NFKC applied, format characters removed, digits and minus signs plain."""
    if text.isascii():
        return text
    return _NON_ASCII.sub(_plain, unicodedata.normalize("NFKC", text))


_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")
_WORD = re.compile(r"[^\W\d_][^\W_]*(?:['’][^\W\d_][^\W_]*)*|\d+|[+#@%$€£¥₹]")
_CLAUSE_MARKS = (",", ";", ":", "—", "(", ")", ". ", "!", "?", "\n")
_QUOTES = re.compile("[\"“«„‘]")
_QUOTE_PAIRS = {'"': '"', "“": "”", "«": "»", "„": "“", "‘": "’"}


class Word(NamedTuple):
    """A word of the text, lower-cased, with where it stands."""

    text: str
    start: int
    end: int


@dataclass
class Prepared:
    """One answer, cleaned, with the views the extractors share (computed once, on demand)."""

    original: str
    text: str
    claimed: list[tuple[int, int]] = field(default_factory=list)

    number_words_failed: bool = False

    @classmethod
    def of(cls, text: str, language: str = "en") -> Prepared:
        """The cleaned form of ``text``, number words written as digits (text2num:
        ``twelve hundred`` → ``1200``; a lone ``one`` stays a word)."""
        cleaned = clean(text)
        if not any(char.isalpha() for char in cleaned):
            return cls(original=text, text=cleaned)
        try:
            from text_to_num import alpha2digit

            converted = alpha2digit(cleaned, language, threshold=2)
        except Exception:
            return cls(original=text, text=cleaned, number_words_failed=True)
        return cls(original=text, text=converted)

    @cached_property
    def lower(self) -> str:
        """The cleaned text, lower-cased (same length: ``casefold`` could change it)."""
        lowered = self.text.lower()
        return lowered if len(lowered) == len(self.text) else self.text

    @cached_property
    def words(self) -> tuple[Word, ...]:
        """The words (letters, or runs of digits, or a currency/percent sign), lower-cased."""
        lower = self.lower
        return tuple(Word(m.group(), *m.span()) for m in _WORD.finditer(lower))

    @cached_property
    def sentences(self) -> tuple[tuple[int, int], ...]:
        """``(start, end)`` of each sentence (split after ``.!?;`` and at line breaks)."""
        spans: list[tuple[int, int]] = []
        start = 0
        for match in _SENTENCE_END.finditer(self.text):
            if match.start() > start:
                spans.append((start, match.start()))
            start = match.end()
        if start < len(self.text):
            spans.append((start, len(self.text)))
        return tuple(spans)

    @cached_property
    def quoted(self) -> tuple[tuple[int, int], ...]:
        """Spans inside quotation marks (reported speech), outermost only, in one pass.

        An unclosed quotation mark quotes nothing (a stray ``"`` must not silence the rest).
        """
        spans: list[tuple[int, int]] = []
        text = self.text
        index = 0
        unclosed: set[str] = set()  # closers that appear nowhere further: never search again
        while (found := _QUOTES.search(text, index)) is not None:
            index = found.start()
            closer = _QUOTE_PAIRS[found.group()]
            end = -1 if closer in unclosed else text.find(closer, index + 1)
            if end < 0:
                unclosed.add(closer)
            if end < 0 or "\n" in text[index:end]:
                index += 1
                continue
            spans.append((index, end + 1))
            index = end + 1
        return tuple(spans)

    def in_quotes(self, start: int) -> bool:
        """True when position ``start`` lies inside quotation marks."""
        return any(low < start < high for low, high in self.quoted)

    def sentence_of(self, position: int) -> tuple[int, int]:
        """The span of the sentence holding ``position``."""
        for low, high in self.sentences:
            if low <= position < high:
                return low, high
        return 0, len(self.text)

    def claim(self, start: int, end: int) -> None:
        """Mark ``text[start:end]`` as read (later extractors leave it alone)."""
        self.claimed.append((start, end))

    def is_claimed(self, start: int, end: int) -> bool:
        """True when ``[start, end)`` overlaps a span an earlier extractor read."""
        return any(start < high and low < end for low, high in self.claimed)

    @cached_property
    def _starts(self) -> list[int]:
        return [word.start for word in self.words]

    def word_index_at(self, position: int) -> int:
        """The index of the first word starting at or after ``position``."""
        return bisect.bisect_left(self._starts, position)

    def words_before(self, position: int, count: int) -> list[Word]:
        """Up to ``count`` words ending at or before ``position``, nearest last, within the
        clause (stopping at a comma, semicolon, colon, dash or sentence end)."""
        index = self.word_index_at(position)
        found: list[Word] = []
        cursor = position
        while index > 0 and len(found) < count:
            word = self.words[index - 1]
            gap = self.text[word.end : cursor]
            if any(mark in gap for mark in _CLAUSE_MARKS):
                break
            found.append(word)
            cursor = word.start
            index -= 1
        found.reverse()
        return found

    def words_after(self, position: int, count: int) -> list[Word]:
        """Up to ``count`` words starting at or after ``position``, within the clause."""
        index = self.word_index_at(position)
        found: list[Word] = []
        cursor = position
        while index < len(self.words) and len(found) < count:
            word = self.words[index]
            gap = self.text[cursor : word.start]
            if any(mark in gap for mark in _CLAUSE_MARKS):
                break
            found.append(word)
            cursor = word.end
            index += 1
        return found
