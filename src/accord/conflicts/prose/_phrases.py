"""Finding known phrases among an answer's words: longest match first, never overlapping."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from accord.conflicts.prose._text import Word


@dataclass(frozen=True)
class Match:
    """A phrase found at words ``[first, last]`` (inclusive), with its table value."""

    value: str
    phrase: str
    first: int
    last: int
    start: int
    end: int


class PhraseTable:
    """Phrases (lower-case, space-separated words) and what each stands for."""

    def __init__(self, phrases: Mapping[str, str]) -> None:
        index: dict[str, list[tuple[tuple[str, ...], str, str]]] = {}
        for phrase, value in phrases.items():
            words = tuple(phrase.split())
            if words:
                index.setdefault(words[0], []).append((words, value, phrase))
        for entries in index.values():
            entries.sort(key=lambda entry: -len(entry[0]))
        self._index = index

    def __contains__(self, phrase: str) -> bool:
        words = tuple(phrase.split())
        return bool(words) and any(e[0] == words for e in self._index.get(words[0], ()))

    def value_of(self, phrase: str) -> str | None:
        """The value of ``phrase`` written exactly (as words), or None."""
        words = tuple(phrase.split())
        for entry in self._index.get(words[0], ()) if words else ():
            if entry[0] == words:
                return entry[1]
        return None

    def find(self, words: Sequence[Word]) -> Iterator[Match]:
        """Every phrase among ``words``, left to right, longest first, not overlapping."""
        index, size = 0, len(words)
        while index < size:
            entries = self._index.get(words[index].text)
            found = None
            for phrase_words, value, phrase in entries or ():
                length = len(phrase_words)
                if index + length <= size and all(
                    words[index + offset].text == phrase_words[offset]
                    for offset in range(1, length)
                ):
                    found = Match(
                        value, phrase, index, index + length - 1,
                        words[index].start, words[index + length - 1].end,
                    )
                    break
            if found is None:
                index += 1
            else:
                yield found
                index = found.last + 1
