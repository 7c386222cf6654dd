"""Entities in prose: identifiers, names, the option an answer chooses, and short lists.

* **Identifiers** (strong): ``INV-4411`` and ``OPS-12`` (key: the prefix), ``#123``,
  versions (``v2.3.1``, ``2.3.1``), e-mail addresses, URLs, IP addresses, commit hashes.
  Their digits are claimed, so they are never read as numbers.
* **Choices** (strong): the name or identifier right after ``go with``, ``choose``, ``pick``,
  ``use``, ``recommend``, ``prefer``, ``switch to``, ``migrate to``, ``assign to``…
* **Names** (weak: compared only when nothing stronger is shared): capitalised words that do
  not open a sentence (``Postgres``, ``Acme Corp``, ``Frankfurt``). ``Acme`` matches ``Acme
  Corp`` and ``Postgres`` matches ``PostgreSQL`` (one contains or begins the other).
* **Lists** (strong): two or more bulleted or numbered lines of at most four words each;
  numbered lists are ordered (the same items in another order is a priority conflict).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from accord.conflicts.prose._currencies import is_code
from accord.conflicts.prose._text import Prepared
from accord.conflicts.prose.extractor import ReadContext
from accord.conflicts.prose.facts import Fact, FactKind

_IDENTIFIERS = re.compile(
    r"(?P<email>\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b)"
    r"|(?P<url>\bhttps?://[^\s<>\"')]+)"
    r"|(?P<ip>\b\d{1,3}(?:\.\d{1,3}){3}\b)"
    r"|(?P<ticket>\b[A-Z][A-Z0-9]{1,9}-\d+\b)"
    r"|(?P<hash>(?<![\w#])#\d+\b)"
    r"|(?P<version>\bv\d+(?:\.\d+){0,3}\b|\b\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.]+)?\b)"
    r"|(?P<commit>\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b)"
    r"|(?P<glued>\b(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z][A-Za-z0-9]*\d[A-Za-z0-9]*"
    r"(?:[.-][A-Za-z0-9]+)*\b)"
)
_LIST_ITEM = re.compile(r"^[ \t]*(?:(?P<bullet>[-*•])|(?P<number>\d{1,2})[.)])[ \t]+(?P<item>.+)$",
                        re.MULTILINE)
_NAME = re.compile(r"\b[A-Z][\w&]*(?:[ ](?:[A-Z][\w&]*|&|of|de|van|von))*(?<![ ])")
_CHOICE_VERBS = (
    "go with", "going with", "choose", "chose", "pick", "picked", "use", "using", "recommend",
    "prefer", "select", "opt for", "switch to", "migrate to", "move to", "stick with",
    "stay on", "stay with", "vote for", "assign to", "assign it to", "hand it to",
    "award to", "award the contract to", "owned by", "owner is", "owner should be",
    "send it to", "send them to", "give it to", "hand it over to",
)
_CHOICE = re.compile(
    r"(?i:\b(?:" + "|".join(re.escape(v) for v in sorted(_CHOICE_VERBS, key=len, reverse=True))
    + r")\s+(?:the\s+)?)(?P<name>[A-Z][\w.&-]*(?:\s+[A-Z][\w.&-]*)*)"
)
_NOT_NAMES = frozenset(
    {
        "I", "I'm", "I'd", "I've", "I'll", "The", "A", "An", "We", "It", "This", "That", "OK",
        "LGTM", "Yes", "No", "Q1", "Q2", "Q3", "Q4", "H1", "H2", "FY", "EOD", "EOW", "UTC",
        "GMT", "CET", "PST", "EST", "ETA", "TBD", "N/A", "AM", "PM", "Mr", "Mrs", "Ms", "Dr",
        "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
        "January", "February", "March", "April", "May", "June", "July", "August",
        "September", "October", "November", "December", "Jan", "Feb", "Mar", "Apr", "Jun",
        "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec", "Approve", "Approved", "Reject",
        "Rejected", "Decline", "Declined", "Note", "Total", "Overall", "Summary", "Answer",
        "Recommendation", "Verdict", "Decision", "Please", "Also", "However", "But", "And",
        "Since", "Because", "If", "Once", "Both", "Our", "Your", "Their", "My", "They", "You",
    }
)
_STOP_AFTER_CHOICE = frozenset({"It", "Them", "This", "That", "A", "An", "The", "Our", "Your"})


class EntityExtractor:
    """Identifiers, choices and lists (kind ``entity`` and ``list``)."""

    name = "entities"

    def extract(self, text: Prepared, context: ReadContext) -> Iterable[Fact]:
        facts: list[Fact] = []
        source = text.text
        facts.extend(_lists(text))
        for match in _identifiers(source):
            start, end = match.span()
            if text.is_claimed(start, end):
                continue
            kind = match.lastgroup or ""
            value = match.group()
            if kind == "glued" and context.labels.label_of(value) is not None:
                continue  # P1, Q3-like labels are the label extractor's
            if kind == "version" and _grouped_number(source, value, end):
                continue  # 1.000.000 or 1.200.000,50: a number with grouped thousands
            text.claim(start, end)
            if kind == "glued":
                continue  # EC2, m5.large, gpt-4o: claimed (no number), compared as names
            key = kind
            if kind == "ticket":
                key = value.split("-", 1)[0]
            elif kind == "version":
                value = value.lstrip("vV")
            elif kind in ("email", "url"):
                value = value.lower().rstrip(".")
            facts.append(
                Fact(kind=FactKind.ENTITY, key=key, value=value, text=match.group(),
                     start=start, end=end)
            )
        for match in _CHOICE.finditer(source):
            if text.in_quotes(match.start()):
                continue
            name = _trim(match.group("name"))
            if not name or name.split()[0] in _STOP_AFTER_CHOICE:
                continue
            start = match.start("name")
            facts.append(
                Fact(kind=FactKind.ENTITY, key="choice", value=_name_key(name), text=name,
                     start=start, end=start + len(name))
            )
        return facts


class NameExtractor:
    """Names (weak entities), read last: what earlier extractors read is not a name."""

    name = "names"

    def extract(self, text: Prepared, context: ReadContext) -> Iterable[Fact]:
        return _names(text)


_TOKENS_WITH_IDS = re.compile(r"\S*[\d@]\S*|\S*://\S*")
"""Every identifier has a digit, an ``@`` or ``://``: only such tokens are searched."""


def _identifiers(source: str) -> list[re.Match[str]]:
    found: list[re.Match[str]] = []
    for token in _TOKENS_WITH_IDS.finditer(source):
        found.extend(_IDENTIFIERS.finditer(source, token.start(), token.end()))
    return found


def _grouped_number(source: str, value: str, end: int) -> bool:
    return bool(re.fullmatch(r"\d{1,3}(?:\.\d{3})+", value)) or (
        end < len(source) - 1 and source[end] == "," and source[end + 1].isdigit()
    )


def _trim(name: str) -> str:
    words = name.split()
    while words and words[-1] in _NOT_NAMES:
        words.pop()
    return " ".join(words).rstrip(".,;:")


def _name_key(name: str) -> str:
    return " ".join(name.lower().replace("-", " ").split())


def _names(text: Prepared) -> list[Fact]:
    facts: list[Fact] = []
    source = text.text
    starts = {low for low, _ in text.sentences}
    for match in _NAME.finditer(source):
        start, end = match.span()
        words = match.group().split()
        if (start in starts or _sentence_initial(source, start)) and not _subject_name(
            source, match.end(), words
        ):
            words = words[1:]
            if not words:
                continue
            start = source.index(words[0], start)
        while words and words[0] in _NOT_NAMES:
            words = words[1:]
            if words:
                start = source.index(words[0], start)
        while words and words[-1] in _NOT_NAMES | {"&", "of", "de", "van", "von"}:
            words = words[:-1]
        if not words or (len(words) == 1 and (len(words[0]) <= 2 or is_code(words[0]))):
            continue
        name = " ".join(words)
        end = start + len(name)
        if text.is_claimed(start, end):
            continue
        facts.append(
            Fact(kind=FactKind.ENTITY, key="name", value=_name_key(name), text=name,
                 start=start, end=end, weak=True)
        )
    return facts


_STARTERS = frozenset(
    {"The", "This", "That", "These", "Those", "It", "We", "They", "He", "She", "There", "Our",
     "Their", "Its", "A", "An", "I", "You", "Your", "My", "Each", "Every", "All", "Some",
     "No", "Nobody", "Everything", "Nothing", "Yes", "Please", "Total", "Revenue", "Root",
     "Checkout", "Latency", "Payment", "Payments", "Rent", "Churn", "Shipping", "Delivery",
     "Impact", "Risk", "Priority", "Severity", "Status", "Maintenance", "Pickup", "Signed"}
)
_SUBJECT_VERBS = frozenset(
    {"should", "is", "will", "has", "can", "must", "owns", "would", "could", "needs", "takes",
     "wins", "handles", "keeps", "may", "was", "does"}
)


def _subject_name(source: str, end: int, words: list[str]) -> bool:
    """A sentence's first word is a name when it is the subject of a verb like ``should`` or
    ``is`` and not a common opener (``Bob should own it``, ``Postgres is the right choice``)."""
    if words[0] in _STARTERS or len(words) > 1:
        return len(words) > 1 and words[0] not in _STARTERS
    following = re.match(r"\s+([a-z]+)", source[end:])
    return following is not None and following.group(1) in _SUBJECT_VERBS


def _sentence_initial(source: str, start: int) -> bool:
    before = source[:start].rstrip(" \t\"'“‘(*-•")
    return not before or before[-1] in ".!?:\n" or bool(re.search(r"(?:^|\n)\s*\d+[.)]$", before))


def _lists(text: Prepared) -> list[Fact]:
    facts: list[Fact] = []
    items: list[re.Match[str]] = []
    for match in _LIST_ITEM.finditer(text.text):
        marker_end = match.start("item")
        text.claim(match.start(), marker_end)  # "1." is a list marker, not a number
        if items and text.text[items[-1].end() : match.start()].strip():
            facts.extend(_list_fact(items))
            items = []
        items.append(match)
    facts.extend(_list_fact(items))
    return facts


def _list_fact(items: list[re.Match[str]]) -> list[Fact]:
    if len(items) < 2:
        return []
    names = [_name_key(m.group("item").strip().rstrip(".;,")) for m in items]
    if any(len(name.split()) > 4 or not name for name in names):
        return []
    ordered = items[0].group("number") is not None
    return [
        Fact(
            kind=FactKind.LIST,
            key="ordered" if ordered else "items",
            value=" | ".join(names),
            text=" / ".join(m.group("item").strip() for m in items),
            start=items[0].start(),
            end=items[-1].end(),
        )
    ]
