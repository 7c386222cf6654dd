"""Detecting conflicts between parallel agents' positions (playbook step 1).

:func:`detect` groups the positions into answers and names the conflict, if any:

===========  =================================================  =======================  ========
output       rule                                               kind                     severity
===========  =================================================  =======================  ========
boolean      True against False                                 direct_contradiction     critical
number       relative gap ≤ conflict_gap (10 %)                 (no conflict)
number       conflict_gap < gap ≤ major_gap (30 %)              numerical_inconsistency  medium
number       gap > major_gap                                    numerical_inconsistency  high
label        labels in one incompatible set (accept / reject)   logical_conflict         high
label        other labels: one agent against ≥ 3 who agree      direct_contradiction     low
label        other labels: any other split                      direct_contradiction     medium
label        built-in or configured vocabulary labels: opposite  logical_conflict         high
             verdicts (approve / LGTM vs reject / decline)
text         a fact both answers state differs: a number        numerical_inconsistency  by gap
             beyond its stated precision, a date, a verdict,    (numbers), else
             a label, an identifier, a choice (see              logical_conflict (verdicts,
             :mod:`accord.conflicts.prose`)                     incompatible labels) or
                                                                direct_contradiction
text         no shared fact, and the semantic comparator        direct_contradiction     medium
             (if any) finds them different
text         no shared fact and nothing could tell:             direct_contradiction     medium
             **not comparable** (``prose.comparable`` False,
             the reason named; tier 1 escalates it)
field        the rule of the field's values; numbers use        that rule's              that
             ``per_field`` thresholds                                                    rule's
field        lists: same elements in another order              priority_conflict        medium
field        other lists, or values of different kinds          direct_contradiction     medium
===========  =================================================  =======================  ========

The playbook's "minor" is ``medium`` and its "major" is ``high``. A structured output's kind
and severity are those of its most severe field conflict (ties: the first in path order).

Numbers: the relative gap of ``a`` and ``b`` is ``|a − b| / max(|a|, |b|)``, taken over the
smallest and largest value of all positions; values closer than ``absolute_tolerance``
always agree (gap 0), which settles values near zero. Boundaries are inclusive up to 1e-12
of rounding noise (``0.09`` against ``0.10`` is exactly 10 %, not a conflict). Agreeing
values cluster by sort and sweep: each cluster's values are pairwise within ``conflict_gap``.

Not conflicts: a single position; all positions agreeing; fields only some agents give where
those who give them agree; and **complementary** positions — structured outputs whose leaf
paths are pairwise disjoint, or positions that all carry non-empty, pairwise disjoint
``task_subset``. Those are merged (:func:`accord.conflicts.merge_complementary`), not settled.

Groups list every agent once, largest group first, ties by first appearance; a group's
``answer`` is its first member's value. For structured outputs in conflict, agents group
together when they side together on every conflicting field; without a conflict the one
group's answer is the merged output. Texts agree when every fact they both state matches
(``prose.compared`` lists them; ``prose.differing`` names the crux, ``amount: 1,200 EUR vs
1,450 EUR``); the semantic comparator is asked only about texts that share no fact, given the
``question``. ``reference`` is the time relative dates count from (the case's, from the
injected clock). With ``text_mode`` ``normalized`` or ``exact`` strings compare as before
prose detection.
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Annotated, Any, cast

from pydantic import BaseModel, ConfigDict, JsonValue, PrivateAttr, SkipValidation

from accord.conflicts._compare import Context, Verdict, compare
from accord.conflicts._fingerprint import fingerprint
from accord.conflicts.kinds import ConflictKind, Severity
from accord.conflicts.merge import merge_outputs
from accord.conflicts.position import OutputKind, Position, validate_positions
from accord.conflicts.prose.texts import ProseDetail
from accord.conflicts.settings import DetectionSettings
from accord.conflicts.text import SemanticComparator
from accord.values import MISSING, leaves, path_key, value_at

_DEFAULT_SETTINGS = DetectionSettings()


class AnswerGroup(BaseModel):
    """Agents giving the same answer (within tolerance), in position order."""

    model_config = ConfigDict(frozen=True)

    answer: Annotated[JsonValue, SkipValidation]
    agents: tuple[str, ...]


class FieldConflict(BaseModel):
    """A field of structured outputs on which agents disagree."""

    model_config = ConfigDict(frozen=True)

    path: str
    kind: ConflictKind
    severity: Severity
    groups: tuple[AnswerGroup, ...]
    gap: float | None
    _prose: ProseDetail | None = PrivateAttr(default=None)

    @property
    def prose(self) -> ProseDetail | None:
        """For a field of free text: how it was compared (see :attr:`Detection.prose`)."""
        return self._prose

    def __eq__(self, other: object) -> bool:
        return _same_fields(self, other)

    __hash__ = BaseModel.__hash__


class Detection(BaseModel):
    """What :func:`detect` found: the answers, the conflict they make, and how severe it is."""

    model_config = ConfigDict(frozen=True)

    has_conflict: bool
    complementary: bool
    output_kind: OutputKind
    kind: ConflictKind | None
    severity: Severity | None
    groups: tuple[AnswerGroup, ...]
    majority: AnswerGroup | None
    field_conflicts: tuple[FieldConflict, ...]
    description: str
    max_gap: float | None
    _prose: ProseDetail | None = PrivateAttr(default=None)

    @property
    def prose(self) -> ProseDetail | None:
        """For free-text answers: the facts compared, those that differ, or why the answers
        could not be compared (``comparable`` False). Kept in memory for the tiers, not a
        field: not dumped or stored (``description`` carries the crux into every record)."""
        return self._prose

    def __eq__(self, other: object) -> bool:
        """Equal fields make equal detections: the in-memory prose detail is not part of a
        detection's identity (a stored case, read back without it, equals the one decided)."""
        return _same_fields(self, other)

    __hash__ = BaseModel.__hash__

    def with_prose(self, prose: ProseDetail | None) -> Detection:
        """This detection carrying ``prose`` (a copy)."""
        copy = self.model_copy()
        copy._prose = prose
        return copy

    @property
    def comparable(self) -> bool:
        """False when free-text answers could not be compared (nothing told them apart)."""
        return self.prose is None or self.prose.comparable


def _same_fields(a: BaseModel, b: object) -> bool:
    if type(b) is not type(a):
        return NotImplemented  # type: ignore[no-any-return]
    return a.__dict__ == b.__dict__


def detect(
    positions: Sequence[Position],
    settings: DetectionSettings = _DEFAULT_SETTINGS,
    semantic: SemanticComparator | None = None,
    *,
    question: str | None = None,
    reference: datetime | None = None,
) -> Detection:
    """Compare ``positions`` (validated first) and describe their conflict, if any.

    ``question`` (the case's subject) helps read a bare yes or no and is given to the
    semantic comparator; ``reference`` (timezone-aware, from the injected clock) resolves
    relative dates in prose.
    """
    items = validate_positions(positions)
    context = Context(question, reference)
    if isinstance(items[0].output, Mapping):
        return _structured(items, settings, semantic, context)
    values = [item.output for item in items]
    agents = [item.agent for item in items]
    verdict = compare(values, settings.numeric, settings, semantic, context)
    groups = _groups(verdict.groups, values, agents)
    output_kind = verdict.output_kind or OutputKind.TEXT
    complementary = _disjoint_subsets(items)
    if complementary or verdict.kind is None:
        found = _no_conflict(
            items, output_kind, groups, verdict.gap, complementary, "task subsets"
        )
        return found.with_prose(verdict.prose)
    return Detection(
        has_conflict=True,
        complementary=False,
        output_kind=output_kind,
        kind=verdict.kind,
        severity=verdict.severity,
        groups=groups,
        majority=_majority(groups),
        field_conflicts=(),
        description=_describe(verdict, groups),
        max_gap=verdict.gap,
    ).with_prose(verdict.prose)


def _structured(
    items: tuple[Position, ...],
    settings: DetectionSettings,
    semantic: SemanticComparator | None,
    context: Context,
) -> Detection:
    outputs = [cast("Mapping[str, Any]", item.output) for item in items]
    agents = [item.agent for item in items]
    flats = [leaves(output) for output in outputs]
    if _disjoint_subsets(items):
        return _merged(items, flats, "task subsets")
    fields = _field_values(outputs, flats)
    if len(items) > 1 and fields and all(len(providers) == 1 for _, providers, _ in fields):
        return _merged(items, flats, "fields")
    conflicts: list[FieldConflict] = []
    sides: list[dict[int, int]] = []  # per conflicting field: position index → its group
    max_gap: float | None = None
    for path, providers, values in fields:
        if len(providers) < 2:
            continue
        verdict = compare(values, settings.thresholds_for(path), settings, semantic, context)
        if verdict.gap is not None:
            max_gap = verdict.gap if max_gap is None else max(max_gap, verdict.gap)
        if verdict.kind is None or verdict.severity is None:
            continue
        field_agents = [agents[index] for index in providers]
        groups = _groups(verdict.groups, values, field_agents)
        conflict = FieldConflict(
            path=path, kind=verdict.kind, severity=verdict.severity, groups=groups, gap=verdict.gap
        )
        conflict._prose = verdict.prose
        conflicts.append(conflict)
        sides.append(
            {providers[i]: side for side, group in enumerate(verdict.groups) for i in group}
        )
    if not conflicts:
        # No field disagrees beyond its tolerance. If the outputs still differ (a field only
        # some agents gave, or values within tolerance), combining them is a merge to record.
        differ = any(
            len(providers) < len(items) or len({fingerprint(v) for v in values}) > 1
            for _, providers, values in fields
        )
        return _merged(items, flats, "fields where they overlap" if differ else None, max_gap)
    worst = conflicts[0]
    for conflict in conflicts[1:]:
        if conflict.severity.rank > worst.severity.rank:
            worst = conflict
    groups = _groups(_same_sides(sides, len(items)), outputs, agents)
    summary = ", ".join(f"{c.path} ({c.kind}, {c.severity}{_crux(c.prose)})" for c in conflicts)
    count = "1 field disagrees" if len(conflicts) == 1 else f"{len(conflicts)} fields disagree"
    return Detection(
        has_conflict=True,
        complementary=False,
        output_kind=OutputKind.STRUCTURED,
        kind=worst.kind,
        severity=worst.severity,
        groups=groups,
        majority=_majority(groups),
        field_conflicts=tuple(conflicts),
        description=f"{count}: {summary}",
        max_gap=max_gap,
    )


def _field_values(
    outputs: list[Mapping[str, Any]], flats: list[dict[str, Any]]
) -> list[tuple[str, list[int], list[Any]]]:
    """For each leaf path (in path order): who gives a value there, and the values.

    A position with a plain value at ``a`` gives nothing at ``a.b``; one with fields beneath
    ``a`` gives its sub-mapping at ``a``, so the two clash at ``a``.
    """
    fields: list[tuple[str, list[int], list[Any]]] = []
    for path in sorted({path for flat in flats for path in flat}, key=path_key):
        providers: list[int] = []
        values: list[Any] = []
        for index, flat in enumerate(flats):
            value = flat.get(path, MISSING)
            if value is MISSING:
                value = value_at(outputs[index], path)
            if value is not MISSING:
                providers.append(index)
                values.append(value)
        fields.append((path, providers, values))
    return fields


def _same_sides(sides: list[dict[int, int]], count: int) -> list[list[int]]:
    """Positions grouped by the side they take on every conflicting field (absent: its own)."""
    found: dict[tuple[int, ...], list[int]] = {}
    for index in range(count):
        found.setdefault(tuple(side.get(index, -1) for side in sides), []).append(index)
    return sorted(found.values(), key=len, reverse=True)


def _merged(
    items: tuple[Position, ...],
    flats: list[dict[str, Any]],
    complementary_by: str | None,
    max_gap: float | None = None,
) -> Detection:
    merged = merge_outputs(items, flats)
    group = AnswerGroup(answer=merged.output, agents=tuple(item.agent for item in items))
    return _no_conflict(
        items,
        OutputKind.STRUCTURED,
        (group,),
        max_gap,
        complementary_by is not None,
        complementary_by or "",
    )


def _no_conflict(
    items: tuple[Position, ...],
    output_kind: OutputKind,
    groups: tuple[AnswerGroup, ...],
    max_gap: float | None,
    complementary: bool,
    complementary_by: str,
) -> Detection:
    if complementary and complementary_by == "fields where they overlap":
        description = (
            f"no conflict: the {len(items)} agents agree where their fields overlap; "
            "their outputs are combined field by field"
        )
    elif complementary:
        description = (
            f"complementary: the {len(items)} agents worked on disjoint {complementary_by}; "
            "combine their outputs instead of choosing"
        )
    elif len(items) == 1:
        description = f"a single position ({items[0].agent}): nothing to compare"
    else:
        description = f"no conflict: the {len(items)} agents agree"
    return Detection(
        has_conflict=False,
        complementary=complementary,
        output_kind=output_kind,
        kind=None,
        severity=None,
        groups=groups,
        majority=_majority(groups),
        field_conflicts=(),
        description=description,
        max_gap=max_gap,
    )


def _groups(
    members: list[list[int]], values: Sequence[Any], agents: Sequence[str]
) -> tuple[AnswerGroup, ...]:
    return tuple(
        AnswerGroup(answer=values[group[0]], agents=tuple(agents[index] for index in group))
        for group in members
    )


def _majority(groups: tuple[AnswerGroup, ...]) -> AnswerGroup | None:
    """The largest group when it has strictly more agents than any other."""
    if len(groups) == 1 or len(groups[0].agents) > len(groups[1].agents):
        return groups[0]
    return None


def _disjoint_subsets(items: tuple[Position, ...]) -> bool:
    """True for two or more positions whose task subsets are all non-empty and disjoint."""
    if len(items) < 2:
        return False
    seen: set[str] = set()
    for item in items:
        subset = item.task_subset
        if not subset or not seen.isdisjoint(subset):
            return False
        seen.update(subset)
    return True


#: Answers in a description are shortened (a large output would copy itself into every record
#: that carries the description); small answers read as ``repr`` would show them.
_BRIEF = reprlib.Repr()
_BRIEF.maxstring = _BRIEF.maxother = 120
_BRIEF.maxlist = _BRIEF.maxdict = _BRIEF.maxtuple = 8
_BRIEF.maxlevel = 4


def _describe(verdict: Verdict, groups: tuple[AnswerGroup, ...]) -> str:
    sides = "; ".join(f"{', '.join(group.agents)}: {_BRIEF.repr(group.answer)}" for group in groups)
    gap = f" (gap {verdict.gap:.2%})" if verdict.gap is not None else ""
    prose = verdict.prose
    if prose is not None and not prose.comparable:
        return f"{prose.reason} — {sides}"
    return f"{verdict.kind}, {verdict.severity}{gap}{_crux(prose)} — {sides}"


def _crux(prose: ProseDetail | None) -> str:
    """`` on amount: 1,200 EUR vs 1,450 EUR`` (the differing facts), or nothing."""
    if prose is None:
        return ""
    if not prose.comparable:
        return f"; {prose.reason}"
    if not prose.differing:
        return ""
    return " on " + "; ".join(prose.differing[:3])
