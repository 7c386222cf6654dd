"""Verdicts in prose: approve, reject or defer — with negation and hedging — and labels.

Decision words (``approve``, ``LGTM``, ``ship it``, ``reject``, ``decline``, ``hold off``,
``defer``…) give the answer's verdict; a negator shortly before them in the same clause flips
it (``not approved``, ``don't merge``, ``isn't a blocker``); a hedge in the clause marks it
hedged (``probably not``, ``I think we can merge``). Without any decision word, assessments
decide (``the tests pass`` is positive, ``the total is wrong`` negative). A leading ``yes`` or
``no`` answers the question: ``no`` to "Is there any reason to block?" approves; without a
question, yes approves and no rejects. Words in quotation marks are reported speech and do
not count. An answer whose verdicts disagree with each other (``approve the refund, reject the
fee``) has no single verdict: it states none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from accord.conflicts.prose._phrases import Match, PhraseTable
from accord.conflicts.prose._text import Prepared, Word
from accord.conflicts.prose.extractor import ReadContext
from accord.conflicts.prose.facts import Fact, FactKind
from accord.conflicts.prose.labels import LabelIndex
from accord.conflicts.prose.vocabularies import (
    APPROVE,
    HEDGES,
    NEGATIVE,
    NEGATORS,
    NO_WORDS,
    QUESTION_NEGATIVE_CUES,
    REJECT,
    YES_WORDS,
    assessment_phrases,
    decision_phrases,
)

_FLIP = {APPROVE: REJECT, REJECT: APPROVE}


_ONLY_AS_ANSWERS = frozenset({"go", "allow", "allowed", "grant", "granted", "stop", "hold"})
"""Decision words too common in prose to count there (``go with Acme``, ``allow 3 days``);
as a whole answer (``Go``, ``Hold``) they still are labels."""


@lru_cache(maxsize=1)
def _decisions() -> PhraseTable:
    return PhraseTable(
        {p: v for p, v in decision_phrases().items() if p not in _ONLY_AS_ANSWERS}
    )


@lru_cache(maxsize=1)
def _assessments() -> PhraseTable:
    return PhraseTable(
        {p: (APPROVE if v != NEGATIVE else REJECT) for p, v in assessment_phrases().items()}
    )


@dataclass(frozen=True)
class _Mention:
    verdict: str
    hedged: bool
    start: int
    end: int


class VerdictExtractor:
    """One verdict per answer (kind ``verdict``), when the answer states one."""

    name = "verdicts"

    def extract(self, text: Prepared, context: ReadContext) -> Iterable[Fact]:
        if not context.settings.builtin_vocabularies:
            return ()
        words = text.words
        decisions = self._mentions(text, _decisions())
        opening = _yes_no(text, words, decisions, context.question)
        if opening is not None:
            decisions.insert(0, opening)
        mentions = decisions or self._mentions(text, _assessments())
        if not mentions:
            return ()
        verdict = _agreed(mentions)
        if verdict is None and _headline(text, mentions[0], words):
            verdict = mentions[0].verdict  # the answer leads with it alone: "Accept. …"
        if verdict is None:
            return ()
        chosen = [m for m in mentions if m.verdict == verdict]
        first = chosen[0]
        return (
            Fact(
                kind=FactKind.VERDICT,
                key="",
                value=verdict,
                text=text.text[first.start : first.end],
                start=first.start,
                end=first.end,
                hedged=chosen[0].hedged or all(m.hedged for m in chosen),
            ),
        )

    def _mentions(self, text: Prepared, table: PhraseTable) -> list[_Mention]:
        found: list[_Mention] = []
        for match in table.find(text.words):
            if text.in_quotes(match.start) or text.is_claimed(match.start, match.end):
                continue
            verdict = match.value
            if _negated(text, match):
                flipped = _FLIP.get(verdict)
                if flipped is None:
                    continue  # "don't defer": no verdict we can name
                verdict = flipped
            found.append(_Mention(verdict, _hedged(text, match), match.start, match.end))
        return found


def _headline(text: Prepared, mention: _Mention, words: tuple[Word, ...]) -> bool:
    """True when the answer opens with ``mention`` standing alone (``Accept. …``)."""
    after = text.text[mention.end : mention.end + 2].strip()
    return mention.start == words[0].start and (not after or after[0] in ".,;:!—-")


def _negated(text: Prepared, match: Match) -> bool:
    before = text.words_before(match.start, 5)
    for word in before:
        if word.text in ("but", "however", "though", "although"):
            before = before[before.index(word) + 1 :]
    return any(_negator(word.text) for word in before)


def _negator(word: str) -> bool:
    return word in NEGATORS or word.endswith(("n't", "n’t"))


def _hedged(text: Prepared, match: Match) -> bool:
    before = text.words_before(match.start, 6)
    return any(word.text in HEDGES for word in before) or any(
        word.text in ("probably", "likely", "maybe") for word in text.words_after(match.end, 2)
    )


def _yes_no(
    text: Prepared, words: tuple[Word, ...], decisions: list[_Mention], question: str | None
) -> _Mention | None:
    if not words:
        return None
    first = words[0]
    hedged = first.text in HEDGES and len(words) > 1
    if hedged:
        first = words[1]  # "Probably yes", "Likely not"
    hedged_not = hedged and first.text == "not"
    if first.text not in YES_WORDS and first.text not in NO_WORDS and not hedged_not:
        return None
    if decisions and decisions[0].start == first.start:
        return None  # "No blockers" is a phrase, not a bare no
    following = words.index(first) + 1
    if (first.text in NO_WORDS or hedged_not) and len(words) > following:
        gap = text.text[first.end : words[following].start]
        if not any(mark in gap for mark in ",.;:!—-"):
            return None  # "no reason to…", "no one…": not an answer word
    yes = first.text in YES_WORDS
    asks_about_a_problem = bool(question) and bool(
        set(_question_words(question or "")) & QUESTION_NEGATIVE_CUES
    )
    verdict = APPROVE if yes != asks_about_a_problem else REJECT
    return _Mention(verdict, hedged, words[0].start, first.end)


def _question_words(question: str) -> list[str]:
    return [w.text for w in Prepared.of(question).words]


def _agreed(mentions: list[_Mention]) -> str | None:
    """The verdict more than half of the mentions give, else None (a mixed answer)."""
    counts = Counter(m.verdict for m in mentions)
    verdict, count = counts.most_common(1)[0]
    return verdict if count * 2 > len(mentions) else None


def label_fact(text: Prepared, label: tuple[str, str], context: ReadContext) -> Fact:
    """The fact of an answer that is one label as a whole (``Approve.``, ``LGTM``, ``P1``)."""
    vocabulary, canonical = label
    whole = text.text.strip()
    if vocabulary == "answer":
        opening = _yes_no(text, text.words, [], context.question)
        value = opening.verdict if opening is not None else canonical
        return Fact(kind=FactKind.VERDICT, key="", value=value, text=whole, start=0, end=len(whole))
    if vocabulary == "verdict":
        return Fact(
            kind=FactKind.VERDICT, key="", value=canonical, text=whole, start=0, end=len(whole)
        )
    return Fact(
        kind=FactKind.LABEL, key=vocabulary, value=canonical, text=whole, start=0, end=len(whole)
    )


class LabelExtractor:
    """Labels of the vocabularies other than verdicts (kind ``label``), in prose."""

    name = "labels"

    def extract(self, text: Prepared, context: ReadContext) -> Iterable[Fact]:
        index: LabelIndex = context.labels
        facts: list[Fact] = []
        for match in index.table.find(text.words):
            vocabulary, _, canonical = match.value.partition("|")
            if vocabulary in ("verdict", "answer") or text.is_claimed(match.start, match.end):
                continue
            key = vocabulary
            cues = index.cues(vocabulary)
            if cues is not None:
                cue = _cue(text, match, cues)
                if cue is None:
                    continue
                key = f"{vocabulary}:{cue}"
            facts.append(
                Fact(
                    kind=FactKind.LABEL,
                    key=key,
                    value=canonical,
                    text=text.text[match.start : match.end],
                    start=match.start,
                    end=match.end,
                )
            )
        return facts


def _cue(text: Prepared, match: Match, cues: frozenset[str]) -> str | None:
    low, _ = text.sentence_of(match.start)
    index = text.word_index_at(match.start)
    for word in reversed(text.words[max(0, index - 5) : index]):
        if word.start < low:
            break
        if word.text in cues:
            return word.text
    for word in text.words_after(match.end, 2):
        if word.text in cues:
            return word.text
    return None
