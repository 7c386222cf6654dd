"""Grouping free-text answers by what they state: the cheapest layer that can decide decides.

1. **Text**: answers equal once normalized (case, spacing, edge punctuation) are one answer.
2. **Facts**: each distinct answer is read once (:class:`ProseReader`); two answers agree,
   conflict or cannot tell (:func:`compare_readings`).
3. **Semantic layers**: only for answers the facts cannot tell apart — the configured
   comparator (a local embedding model, then a language model), given the question.
4. Otherwise the answers are **not comparable**: reported with the reason, never silently
   a contradiction (the detection marks ``prose.comparable = False``).

An answer joins the first group it agrees with member by member (facts), or whose first member
the semantic layers find equivalent. The conflict is the most severe difference between
groups; the detail names the facts compared and the ones that differ.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

from accord.conflicts.kinds import ConflictKind, Severity
from accord.conflicts.prose.comparison import Difference, PairOutcome, compare_readings
from accord.conflicts.prose.extractor import ReadContext
from accord.conflicts.prose.facts import Reading
from accord.conflicts.prose.labels import LabelIndex
from accord.conflicts.prose.reader import ProseReader
from accord.conflicts.prose.settings import ProseSettings
from accord.conflicts.text import SemanticComparator, normalize_text
from accord.log import get_logger

log = get_logger("accord.prose")

_LISTED = 12
"""At most this many facts are named in a detail (each list)."""

DecidedBy = Literal["text", "facts", "semantic", "none"]


class ProseDetail(BaseModel):
    """How free-text answers were compared: which layer decided, the facts both stated
    alike, the facts that differ (``amount: 1,200 EUR vs 1,450 EUR``), and — when they could
    not be compared — why."""

    model_config = ConfigDict(frozen=True)

    decided_by: DecidedBy
    comparable: bool = True
    compared: tuple[str, ...] = ()
    differing: tuple[str, ...] = ()
    reason: str | None = None


@dataclass(frozen=True)
class TextComparison:
    """Groups of value indexes (largest first), the conflict they make, and the detail."""

    groups: list[list[int]]
    kind: ConflictKind | None
    severity: Severity | None
    gap: float | None
    labels_only: bool
    detail: ProseDetail


_READER = ProseReader()


@dataclass(frozen=True)
class TextSettings:
    """What comparing texts needs from the detection settings."""

    prose: ProseSettings
    labels: LabelIndex
    major_gap: float


def compare_texts(
    values: Sequence[str],
    settings: TextSettings,
    *,
    semantic: SemanticComparator | None = None,
    question: str | None = None,
    reference: datetime | None = None,
    reader: ProseReader | None = None,
) -> TextComparison:
    """Group ``values`` by what they state (see the module doc)."""
    keys = [normalize_text(value) for value in values]
    members: dict[str, list[int]] = {}
    for index, key in enumerate(keys):
        members.setdefault(key, []).append(index)
    reps = [group[0] for group in members.values()]
    if len(reps) == 1:
        return TextComparison(
            [list(range(len(values)))], None, None, None, False, ProseDetail(decided_by="text")
        )
    context = ReadContext(settings.prose, settings.labels, reference, question)
    read = (reader or _READER).read
    readings: dict[int, Reading] = {i: read(values[i], context) for i in reps}
    pairs = _Pairs(values, readings, settings, semantic, question)
    clusters: list[list[int]] = []
    for index in reps:
        for cluster in clusters:
            if pairs.joins(cluster, index):
                cluster.append(index)
                break
        else:
            clusters.append([index])
    groups = sorted(
        ([m for rep in cluster for m in members[keys[rep]]] for cluster in clusters),
        key=lambda group: (-len(group), min(group)),
    )
    for group in groups:
        group.sort()
    labels_only = all(reading.label_only for reading in readings.values())
    agreed = _unique(s for outcome in pairs.within(clusters) for s in outcome.agreed)
    if len(clusters) == 1:
        by = "semantic" if pairs.used_semantic else "facts"
        return TextComparison(
            groups, None, None, None, labels_only, ProseDetail(decided_by=by, compared=agreed)
        )
    across = pairs.across(clusters)
    conflicts = [outcome for outcome in across if outcome.status == "conflict"]
    if not conflicts:
        reasons = _unique(o.reason for o in across if o.reason)
        reason = reasons[0] if reasons else "the answers state no comparable fact"
        log.info("prose.not_comparable", reason=reason)
        return TextComparison(
            groups,
            ConflictKind.DIRECT_CONTRADICTION,
            _dissent_severity(groups),
            None,
            labels_only,
            ProseDetail(
                decided_by="none",
                comparable=False,
                compared=agreed,
                reason=f"not comparable: {reason}",
            ),
        )
    differences = [d for outcome in conflicts for d in outcome.differences]
    worst = _worst(differences)
    gaps = [d.gap for d in differences if d.gap is not None]
    if worst is None:  # only the semantic layers found the answers different
        kind, severity = ConflictKind.DIRECT_CONTRADICTION, _dissent_severity(groups)
        differing: tuple[str, ...] = (
            "meaning: the semantic comparator finds the answers different",
        )
    else:
        kind, severity = worst.kind, worst.severity
        if kind is ConflictKind.DIRECT_CONTRADICTION and severity is Severity.MEDIUM:
            severity = _dissent_severity(groups)
        differing = _unique(d.summary for d in sorted(differences, key=_rank, reverse=True))
    by = "semantic" if pairs.used_semantic else "facts"
    return TextComparison(
        groups,
        kind,
        severity,
        max(gaps) if gaps else None,
        labels_only,
        ProseDetail(decided_by=by, compared=agreed, differing=differing),
    )


class _Pairs:
    """Pair outcomes, computed once each; the semantic layers asked only where facts cannot
    tell."""

    def __init__(
        self,
        values: Sequence[str],
        readings: dict[int, Reading],
        settings: TextSettings,
        semantic: SemanticComparator | None,
        question: str | None,
    ) -> None:
        self.values = values
        self.readings = readings
        self.settings = settings
        self.semantic = semantic
        self.question = question
        self.outcomes: dict[tuple[int, int], PairOutcome] = {}
        self.used_semantic = False

    def facts(self, i: int, j: int) -> PairOutcome:
        key = (min(i, j), max(i, j))
        found = self.outcomes.get(key)
        if found is None:
            found = compare_readings(
                self.readings[key[0]],
                self.readings[key[1]],
                self.settings.labels,
                major_gap=self.settings.major_gap,
            )
            self.outcomes[key] = found
        return found

    def joins(self, cluster: list[int], index: int) -> bool:
        outcomes = [self.facts(member, index) for member in cluster]
        if any(o.status == "conflict" for o in outcomes):
            return False
        if all(o.status == "agree" for o in outcomes):
            return True
        first = cluster[0]
        if self.facts(first, index).status != "undecided" or self.semantic is None:
            return False
        equivalent = _ask(self.semantic, self.values[first], self.values[index], self.question)
        if equivalent is None:
            return False
        self.used_semantic = True
        key = (min(first, index), max(first, index))
        self.outcomes[key] = PairOutcome(
            "agree" if equivalent else "conflict", by="semantic", reason=None
        )
        return equivalent

    def within(self, clusters: list[list[int]]) -> list[PairOutcome]:
        return [
            self.outcomes[(min(a, b), max(a, b))]
            for cluster in clusters
            for n, a in enumerate(cluster)
            for b in cluster[n + 1 :]
            if (min(a, b), max(a, b)) in self.outcomes
        ]

    def across(self, clusters: list[list[int]]) -> list[PairOutcome]:
        found: list[PairOutcome] = []
        for n, left in enumerate(clusters):
            for right in clusters[n + 1 :]:
                for a in left:
                    for b in right:
                        found.append(self.facts(a, b))
        return found


def _ask(semantic: SemanticComparator, a: str, b: str, question: str | None) -> bool | None:
    try:
        return semantic.equivalent(a, b, question=question)
    except Exception as exc:
        log.warning("prose.semantic_failed", error=type(exc).__name__, detail=str(exc)[:200])
        return None


def _rank(difference: Difference) -> tuple[int, int]:
    return difference.severity.rank, 1 if difference.gap is not None else 0


def _worst(differences: list[Difference]) -> Difference | None:
    if not differences:
        return None
    return PairOutcome("conflict", tuple(differences)).worst


def _dissent_severity(groups: list[list[int]]) -> Severity:
    """Low when a single answer dissents from three or more that agree, else medium."""
    if len(groups) == 2 and len(groups[1]) == 1 and len(groups[0]) >= 3:
        return Severity.LOW
    return Severity.MEDIUM


def _unique(items: Iterable[str | None]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for item in items:
        if item is not None:
            seen.setdefault(item, None)
        if len(seen) >= _LISTED:
            break
    return tuple(seen)

