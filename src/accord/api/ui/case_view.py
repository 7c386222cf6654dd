"""What the case page shows: the diff, each position with its evidence checked, the analysis
in sections (arguments, the review agent's verdicts in both orders), the timeline and the
precedents that match the case's dispute type."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from accord.api.api_keys import ApiKey
from accord.api.queries.case_timeline import case_timeline
from accord.api.ui.diff import FieldRow, field_rows
from accord.api.ui.reasons import PRESET_REASONS
from accord.app import Accord
from accord.approvals import MAX_WRITTEN_OUTCOME_CHARS
from accord.conflicts import Evidence, Position
from accord.dcp07 import evidence_content_hash
from accord.errors import AccordError

PRECEDENT_LIMIT = 5

_HEADING = re.compile(
    r"^(Why people decide|Detection|Classification|Earlier attempts|Arguments|"
    r"Review agent \S{1,256}):(?: (.*))?$"
)
_SWAPPED = "(positions swapped) "


@dataclass(frozen=True)
class Section:
    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class CheckedEvidence:
    evidence: Evidence
    verified: bool
    """Whether the content hashes to the recorded ``content_hash`` (DCP-07 R33)."""


@dataclass(frozen=True)
class PositionView:
    position: Position
    evidence: tuple[CheckedEvidence, ...]
    reasoning: str
    """From the approval item, whose signed request hashes it (the case's copy is unsigned)."""


def analysis_sections(analysis: str) -> list[Section]:
    """The analysis text in its sections; the review agent's second verdict (positions
    swapped) gets its own section. Text before any heading is a section titled ``Analysis``."""
    sections: list[tuple[str, list[str]]] = []
    for line in analysis.splitlines():
        heading = _HEADING.match(line)
        if heading is not None:
            title = heading.group(1)
            if title.startswith("Review agent"):
                title = f"{title}: verdict, positions in order"
            rest = heading.group(2)
            sections.append((title, [rest] if rest else []))
        elif line.startswith(_SWAPPED):
            reviewer = sections[-1][0].rsplit(": verdict", 1)[0] if sections else "Review agent"
            sections.append(
                (f"{reviewer}: verdict, positions swapped", [line.removeprefix(_SWAPPED)])
            )
        elif sections:
            sections[-1][1].append(line)
        elif line.strip():
            sections.append(("Analysis", [line]))
    return [Section(title, tuple(li for li in lines if li.strip())) for title, lines in sections]


def _checked(evidence: Evidence) -> CheckedEvidence:
    try:
        verified = evidence_content_hash(evidence.content) == evidence.content_hash
    except AccordError:
        verified = False
    return CheckedEvidence(evidence, verified)


def _label(output: Any) -> str:
    return output if isinstance(output, str) else json.dumps(output, sort_keys=True)


def case_context(accord: Accord, item_id: str, reviewer: ApiKey) -> dict[str, Any]:
    """Everything ``case.html`` renders for approval item ``item_id``."""
    item = accord.approvals.get(item_id)
    case = accord.cases.get(item.case_id)
    outputs = [p.model_dump(mode="json")["output"] for p in case.positions]
    reasoning = {p.agent: p.reasoning for p in item.positions}
    rows: list[FieldRow] = field_rows(outputs)
    precedents = (
        accord.precedents.search(case.classification.dispute_type.value, limit=PRECEDENT_LIMIT)
        if case.classification is not None
        else []
    )
    return {
        "reviewer": reviewer,
        "item": item,
        "acting": accord.acting_deadline(item),
        "case": case,
        "positions": case.positions,
        "views": [
            PositionView(p, tuple(_checked(e) for e in p.evidence), reasoning.get(p.agent, ""))
            for p in case.positions
        ],
        "differing": [r for r in rows if not r.agree],
        "agreed": [r for r in rows if r.agree],
        "sections": analysis_sections(item.analysis),
        "dissent": case.dissent,
        "timeline": case_timeline(case, item, accord.case_deadline(case.case_id)),
        "precedents": precedents,
        "presets": PRESET_REASONS,
        "max_outcome_chars": MAX_WRITTEN_OUTCOME_CHARS,
        "option_agents": {
            option: [
                p.agent
                for p, output in zip(case.positions, outputs, strict=True)
                if _label(output) == option
            ]
            for option in item.options
        },
    }
