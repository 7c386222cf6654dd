"""Comparing two readings fact by fact: agree, conflict, or cannot tell.

Facts are compared within families: figures (amounts and plain numbers or counts),
quantities of one dimension, percentages, dates, times, the verdict, each label vocabulary,
each identifier shape, choices, lists; and — only when none of those is shared — names and
short answers. In each family the facts of one answer are first paired with equal facts of
the other (numbers: one lies in the other's interval; dates: equal at the coarser precision);
what is left over on *both* sides and comparable is a difference. A fact only one answer
states (an extra figure, an extra sentence) is no difference.

Two answers **agree** when they share a family and no shared family differs, **conflict**
when one differs, and are **undecided** when they share no family (the semantic layers or a
person decide then, never a silent contradiction).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from accord.conflicts._gap import exceeds, relative_gap
from accord.conflicts.kinds import ConflictKind, Severity
from accord.conflicts.prose.facts import Fact, FactKind, Reading
from accord.conflicts.prose.labels import LabelIndex
from accord.conflicts.prose.vocabularies import DEFER
from accord.values import revised

Status = Literal["agree", "conflict", "undecided"]


@dataclass(frozen=True)
class Difference:
    """A fact two answers state differently."""

    family: str
    a: Fact
    b: Fact
    kind: ConflictKind
    severity: Severity
    gap: float | None

    @property
    def summary(self) -> str:
        """``amount: 1,200 EUR vs 1,450 EUR``."""
        return f"{_family_name(self.family)}: {self.a.shown} vs {self.b.shown}"


@dataclass(frozen=True)
class PairOutcome:
    """How two readings relate, with the families compared and the differences found."""

    status: Status
    differences: tuple[Difference, ...] = ()
    agreed: tuple[str, ...] = ()
    reason: str | None = None
    by: str = "facts"

    @property
    def worst(self) -> Difference | None:
        """The most severe difference (ties: logical before numerical before the rest)."""
        if not self.differences:
            return None
        return max(self.differences, key=lambda d: (d.severity.rank, _KIND_ORDER[d.kind]))


_KIND_ORDER = {
    ConflictKind.DIRECT_CONTRADICTION: 0,
    ConflictKind.PRIORITY_CONFLICT: 1,
    ConflictKind.NUMERICAL_INCONSISTENCY: 2,
    ConflictKind.LOGICAL_CONFLICT: 3,
}


@dataclass
class _Families:
    strong: dict[str, list[Fact]] = field(default_factory=dict)
    weak: dict[str, list[Fact]] = field(default_factory=dict)


def compare_readings(
    a: Reading, b: Reading, labels: LabelIndex, *, major_gap: float
) -> PairOutcome:
    """How answers read as ``a`` and ``b`` relate (see the module doc)."""
    if a.refused or b.refused:
        reason = a.refused or b.refused
        return PairOutcome("undecided", reason=f"an answer was not read for facts: {reason}")
    fa, fb = _families(a.facts), _families(b.facts)
    shared = [name for name in fa.strong if name in fb.strong]
    if shared:
        return _compare(shared, fa.strong, fb.strong, labels, major_gap)
    weak_a = {**fa.weak, **{k: v for k, v in fa.strong.items() if k == "entity:choice"}}
    weak_b = {**fb.weak, **{k: v for k, v in fb.strong.items() if k == "entity:choice"}}
    if not ("answer" in weak_a and "answer" in weak_b):
        _answer_as_name(weak_a)
        _answer_as_name(weak_b)
    shared = [name for name in weak_a if name in weak_b]
    if shared:
        return _compare(shared, weak_a, weak_b, labels, major_gap)
    said_a = ", ".join(sorted({f.slot for f in a.facts})) or "none"
    said_b = ", ".join(sorted({f.slot for f in b.facts})) or "none"
    return PairOutcome(
        "undecided",
        reason=f"no fact stated by both (facts: {said_a} / {said_b})",
    )


def _answer_as_name(families: dict[str, list[Fact]]) -> None:
    """A short answer (``Alice``) also counts as a name, so it meets ``Alice should own it``."""
    answers = families.pop("answer", None)
    if answers and "entity:name" not in families:
        families["entity:name"] = [
            revised(a, kind=FactKind.ENTITY, key="name") for a in answers
        ]


def _families(facts: Sequence[Fact]) -> _Families:
    found = _Families()
    for fact in facts:
        name = _family(fact)
        target = found.weak if fact.weak else found.strong
        target.setdefault(name, []).append(fact)
    return found


def _family(fact: Fact) -> str:
    kind = fact.kind
    if kind in (FactKind.AMOUNT, FactKind.NUMBER):
        return "figure"
    if kind in (FactKind.QUANTITY, FactKind.PERCENTAGE, FactKind.LABEL, FactKind.ENTITY):
        return f"{kind.value}:{fact.key}"
    return kind.value


def _family_name(family: str) -> str:
    kind, _, key = family.partition(":")
    if kind == "quantity":
        return "quantity"
    if kind == "percentage":
        return "percentage" if key == "%" else "percentage points"
    if kind == "figure":
        return "amount"
    if kind == "entity" and key not in ("name", "choice"):
        return f"identifier {key}"
    return family


def _compare(
    shared: list[str],
    fa: dict[str, list[Fact]],
    fb: dict[str, list[Fact]],
    labels: LabelIndex,
    major_gap: float,
) -> PairOutcome:
    differences: list[Difference] = []
    agreed: list[str] = []
    compared = False
    for name in shared:
        left, right = list(fa[name]), list(fb[name])
        matched = _pair_equal(left, right)
        for x, _ in matched:
            agreed.append(f"{_family_label(name, x)}: {x.shown}")
        for x in left:
            partner = _closest_comparable(x, right)
            if partner is None:
                continue
            right.remove(partner)
            differences.append(_difference(name, x, partner, labels, major_gap))
        if matched or differences:
            compared = True
    if differences:
        return PairOutcome("conflict", tuple(differences), tuple(agreed))
    if not compared:
        return PairOutcome("undecided", reason="the facts both state cannot be compared")
    return PairOutcome("agree", (), tuple(agreed))


def _family_label(family: str, fact: Fact) -> str:
    if family == "figure" and fact.kind is FactKind.NUMBER:
        return "number"
    return _family_name(family)


def _pair_equal(left: list[Fact], right: list[Fact]) -> list[tuple[Fact, Fact]]:
    """Pairs of equal facts, removed from both lists: first the facts that are equal both
    ways (1,200 and 1,200.00), then those where one allows the other (a bound and a value
    inside it), so a bound does not take the value that had its own twin."""
    pairs: list[tuple[Fact, Fact]] = []
    for strict in (True, False):
        for x in list(left):
            for y in right:
                if _same(x, y, strict=strict):
                    pairs.append((x, y))
                    left.remove(x)
                    right.remove(y)
                    break
    return pairs


def _closest_comparable(x: Fact, candidates: list[Fact]) -> Fact | None:
    comparable = [y for y in candidates if _comparable(x, y)]
    if not comparable:
        return None
    if x.number is not None:
        return min(
            comparable,
            key=lambda y: relative_gap(x.number or 0.0, y.number or 0.0, 0.0)
            if y.number is not None
            else 2.0,
        )
    return comparable[0]


def _same(x: Fact, y: Fact, *, strict: bool = False) -> bool:
    if not _comparable(x, y):
        return False
    if x.number is not None and y.number is not None:
        if x.kind is FactKind.AMOUNT and y.kind is FactKind.AMOUNT and x.key != y.key:
            return False
        return _same_number(x, y, strict=strict)
    if x.kind is FactKind.DATE:
        return _same_date(x, y)
    if x.kind is FactKind.TIME:
        return _same_time(x.value, y.value)
    if x.kind is FactKind.ANSWER:
        return _same_name(x.value, y.value)
    if x.kind is FactKind.LIST:
        return x.value == y.value or ((x.key != "ordered" or y.key != "ordered") and sorted(
            x.value.split(" | ")
        ) == sorted(y.value.split(" | ")))
    if x.kind is FactKind.ENTITY and x.key in ("name", "choice"):
        return _same_name(x.value, y.value)
    return x.value == y.value


def _comparable(x: Fact, y: Fact) -> bool:
    if x.kind is FactKind.ANSWER and y.kind is FactKind.ANSWER:
        # a short answer is its claim; longer ones that do not name each other may say the
        # same thing in other words: not comparable as wholes
        return len(x.value.split()) <= _TERM_WORDS and len(y.value.split()) <= _TERM_WORDS
    if x.kind is FactKind.NUMBER and y.kind is FactKind.NUMBER:
        return x.key == y.key or not x.key or not y.key
    if FactKind.AMOUNT in (x.kind, y.kind) and FactKind.NUMBER in (x.kind, y.kind):
        number = x if x.kind is FactKind.NUMBER else y
        return not number.key
    if x.kind is FactKind.DATE and y.kind is FactKind.DATE:
        return x.key == y.key or (x.key in _CALENDAR and y.key in _CALENDAR)
    return True


def _same_number(x: Fact, y: Fact, *, strict: bool) -> bool:
    """Equal within stated precision; a bound agrees with a value it allows and with the
    same bound (``within 4 hours`` and ``within 8 hours`` are different claims)."""
    if x.number is None or y.number is None:
        return False
    precise = _within(x.number, y) and _within(y.number, x) if strict else (
        _within(x.number, y) or _within(y.number, x)
    )
    if x.bound == y.bound:
        return precise
    if strict:
        return False
    if x.bound and y.bound:  # opposite bounds: compatible when their ranges overlap
        low, high = (x, y) if x.bound == "at least" else (y, x)
        return low.number is not None and high.number is not None and (
            low.number <= high.number
        )
    bound, value = (x, y) if x.bound else (y, x)
    if bound.number is None or value.number is None:
        return False
    if bound.bound == "at least":
        return value.number >= bound.number - _half(bound)
    return value.number <= bound.number + _half(bound)


def _half(fact: Fact) -> float:
    if fact.low is None or fact.high is None:
        return 0.0
    return (fact.high - fact.low) / 2


def _within(value: float, fact: Fact) -> bool:
    low = fact.low if fact.low is not None else float("-inf")
    high = fact.high if fact.high is not None else float("inf")
    return low <= value <= high


_CALENDAR = ("day", "month", "year")
_TERM_WORDS = 3
"""Short answers of at most this many words differ when they do not name each other."""


def _same_date(x: Fact, y: Fact) -> bool:
    if x.key in _CALENDAR and y.key in _CALENDAR:
        a, b = x.value, y.value
        size = min(len(a), len(b))
        a, b = a[:size], b[:size]
        return all(p == q or "?" in (p, q) for p, q in zip(a, b, strict=True))
    return x.value == y.value


def _same_time(a: str, b: str) -> bool:
    """``22:00 UTC`` and ``22:00`` agree (a zone only one side names); zones that differ do
    not."""
    clock_a, _, zone_a = a.partition(" ")
    clock_b, _, zone_b = b.partition(" ")
    return clock_a == clock_b and (zone_a == zone_b or not zone_a or not zone_b)


_FILLER = frozenset(
    {"the", "a", "an", "of", "to", "it", "is", "be", "should", "we", "i", "in", "from",
     "on", "for", "and", "use", "pick", "go", "with", "team", "them", "region"}
)


def _same_name(a: str, b: str) -> bool:
    """One name (or short answer) names the other: every telling word of the shorter has a
    word of the longer that it equals or begins, or that begins it (``Postgres`` and
    ``PostgreSQL``, ``Acme`` and ``Acme Corp``, ``Alice`` and ``Alice should own it``); a
    negation in one side only makes them differ."""
    if a == b:
        return True
    words_a, words_b = a.split(), b.split()
    if any(_negative(w) for w in words_a) != any(_negative(w) for w in words_b):
        return False
    short, long = sorted((words_a, words_b), key=len)
    telling = [w for w in short if w not in _FILLER] or short
    return all(any(_prefix_match(w, v) for v in long) for w in telling)


def _prefix_match(a: str, b: str) -> bool:
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    return len(short) >= 4 and long.startswith(short)


def _negative(word: str) -> bool:
    return word in ("not", "no", "never") or word.endswith("n't")


def _difference(
    family: str, x: Fact, y: Fact, labels: LabelIndex, major_gap: float
) -> Difference:
    kind, severity, gap = ConflictKind.DIRECT_CONTRADICTION, Severity.MEDIUM, None
    if x.number is not None and y.number is not None:
        currencies_differ = x.kind is FactKind.AMOUNT and y.kind is FactKind.AMOUNT and (
            x.key != y.key
        )
        if not currencies_differ:
            gap = relative_gap(x.number, y.number, 0.0)
            kind = ConflictKind.NUMERICAL_INCONSISTENCY
            severity = Severity.HIGH if exceeds(gap, major_gap) else Severity.MEDIUM
    elif x.kind is FactKind.VERDICT:
        if DEFER not in (x.value, y.value):
            kind = ConflictKind.LOGICAL_CONFLICT
            severity = Severity.MEDIUM if x.hedged or y.hedged else Severity.HIGH
    elif x.kind is FactKind.LABEL:
        if labels.incompatible(x.value, y.value) or labels.incompatible(x.text, y.text):
            kind, severity = ConflictKind.LOGICAL_CONFLICT, Severity.HIGH
    elif x.kind is FactKind.LIST and x.key == y.key == "ordered" and sorted(
        x.value.split(" | ")
    ) == sorted(y.value.split(" | ")):
        kind = ConflictKind.PRIORITY_CONFLICT
    return Difference(family, x, y, kind, severity, gap)
