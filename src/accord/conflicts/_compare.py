"""The detection rules for one set of comparable values (a whole output or one field).

Each rule groups the values into answers and names the conflict they make, if any. Groups
are lists of indexes into the values: largest group first, ties by first appearance, each
group's indexes ascending.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from accord.conflicts._fingerprint import fingerprint, multiset_fingerprint
from accord.conflicts._gap import clusters, exceeds, relative_gap
from accord.conflicts.kinds import ConflictKind, Severity
from accord.conflicts.position import OutputKind, is_label
from accord.conflicts.prose.texts import ProseDetail, TextSettings, compare_texts
from accord.conflicts.settings import DetectionSettings, NumericThresholds
from accord.conflicts.text import SemanticComparator, normalize_text


class Verdict(NamedTuple):
    """The groups of answers, the conflict they make (if any), and the numeric gap."""

    groups: list[list[int]]
    kind: ConflictKind | None
    severity: Severity | None
    gap: float | None
    output_kind: OutputKind | None
    prose: ProseDetail | None = None


class Context(NamedTuple):
    """What a comparison of texts may use besides the values: the question they answer and
    the reference time relative dates count from."""

    question: str | None = None
    reference: datetime | None = None


_NO_CONTEXT = Context()


def compare(
    values: Sequence[Any],
    thresholds: NumericThresholds,
    settings: DetectionSettings,
    semantic: SemanticComparator | None,
    context: Context = _NO_CONTEXT,
) -> Verdict:
    """Apply the rule for the values' kind; values of different kinds compare exactly."""
    first = values[0]
    if isinstance(first, bool):
        if all(isinstance(value, bool) for value in values):
            return _booleans(values)
    elif isinstance(first, int | float):
        if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            return _numbers(values, thresholds)
    elif isinstance(first, str):
        if all(isinstance(value, str) for value in values):
            if settings.text_mode == "facts":
                return _texts(values, thresholds, settings, semantic, context)
            return _strings(values, settings, semantic)
    elif isinstance(first, list) and all(isinstance(value, list) for value in values):
        return _lists(values)
    return _exact(values)


def _booleans(values: Sequence[bool]) -> Verdict:
    groups = _by_key(values)
    if len(groups) == 1:
        return Verdict(groups, None, None, None, OutputKind.BOOLEAN)
    return Verdict(
        groups, ConflictKind.DIRECT_CONTRADICTION, Severity.CRITICAL, None, OutputKind.BOOLEAN
    )


def _numbers(values: Sequence[float], thresholds: NumericThresholds) -> Verdict:
    tolerance = thresholds.absolute_tolerance
    found = clusters(values, thresholds.conflict_gap, tolerance)
    gap = relative_gap(min(values), max(values), tolerance)
    if len(found) == 1:
        return Verdict(found, None, None, gap, OutputKind.NUMBER)
    severity = Severity.HIGH if exceeds(gap, thresholds.major_gap) else Severity.MEDIUM
    found.sort(key=lambda group: (-len(group), group[0]))
    return Verdict(found, ConflictKind.NUMERICAL_INCONSISTENCY, severity, gap, OutputKind.NUMBER)


def _texts(
    values: Sequence[str],
    thresholds: NumericThresholds,
    settings: DetectionSettings,
    semantic: SemanticComparator | None,
    context: Context,
) -> Verdict:
    """Strings compared by the facts they state (text mode ``facts``)."""
    found = compare_texts(
        values,
        TextSettings(settings.prose, settings.labels, thresholds.major_gap),
        semantic=semantic,
        question=context.question,
        reference=context.reference,
    )
    output_kind = OutputKind.LABEL if found.labels_only else OutputKind.TEXT
    return Verdict(
        found.groups, found.kind, found.severity, found.gap, output_kind, found.detail
    )


def _strings(
    values: Sequence[str], settings: DetectionSettings, semantic: SemanticComparator | None
) -> Verdict:
    """Strings compared as before prose detection (text modes ``normalized`` and ``exact``)."""
    labels = settings.label_values
    if all(is_label(value, labels) for value in values):
        keys = [normalize_text(value) for value in values]
        groups = _by_key(keys)
        if len(groups) == 1:
            return Verdict(groups, None, None, None, OutputKind.LABEL)
        if settings.incompatible(keys[group[0]] for group in groups):
            kind, severity = ConflictKind.LOGICAL_CONFLICT, Severity.HIGH
        else:
            kind, severity = ConflictKind.DIRECT_CONTRADICTION, _dissent_severity(groups)
        return Verdict(groups, kind, severity, None, OutputKind.LABEL)
    exact = settings.text_mode == "exact"
    groups = _by_key(values if exact else [normalize_text(value) for value in values])
    if semantic is not None and len(groups) > 1:
        groups = _merge_equivalent(groups, values, semantic)
    if len(groups) == 1:
        return Verdict(groups, None, None, None, OutputKind.TEXT)
    return Verdict(
        groups, ConflictKind.DIRECT_CONTRADICTION, Severity.MEDIUM, None, OutputKind.TEXT
    )


def _dissent_severity(groups: list[list[int]]) -> Severity:
    """Low when a single agent dissents from three or more who agree, else medium."""
    if len(groups) == 2 and len(groups[1]) == 1 and len(groups[0]) >= 3:
        return Severity.LOW
    return Severity.MEDIUM


def _merge_equivalent(
    groups: list[list[int]], values: Sequence[str], semantic: SemanticComparator
) -> list[list[int]]:
    """Join each group to the first earlier group the comparator finds equivalent."""
    merged: list[list[int]] = []
    for group in sorted(groups, key=lambda members: members[0]):
        for target in merged:
            if semantic.equivalent(values[target[0]], values[group[0]]) is True:
                target.extend(group)
                target.sort()
                break
        else:
            merged.append(list(group))
    merged.sort(key=lambda members: (-len(members), members[0]))
    return merged


def _lists(values: Sequence[list[Any]]) -> Verdict:
    """Whole-list comparison; the same elements in another order is a priority conflict."""
    groups = _by_key([fingerprint(value) for value in values])
    if len(groups) == 1:
        return Verdict(groups, None, None, None, None)
    contents = {multiset_fingerprint(values[group[0]]) for group in groups}
    kind = (
        ConflictKind.PRIORITY_CONFLICT if len(contents) == 1 else ConflictKind.DIRECT_CONTRADICTION
    )
    return Verdict(groups, kind, Severity.MEDIUM, None, None)


def _exact(values: Sequence[Any]) -> Verdict:
    groups = _by_key([fingerprint(value) for value in values])
    if len(groups) == 1:
        return Verdict(groups, None, None, None, None)
    return Verdict(groups, ConflictKind.DIRECT_CONTRADICTION, Severity.MEDIUM, None, None)


def _by_key(keys: Sequence[Hashable]) -> list[list[int]]:
    """Indexes grouped by equal key: largest group first, ties by first appearance."""
    found: dict[Hashable, list[int]] = {}
    for index, key in enumerate(keys):
        group = found.get(key)
        if group is None:
            found[key] = [index]
        else:
            group.append(index)
    groups = list(found.values())
    if len(groups) > 1:
        groups.sort(key=len, reverse=True)
    return groups
