"""Helpers the built-in strategies share: options, speakers, summaries, settings, the queue."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import pydantic
from pydantic import BaseModel, ConfigDict, JsonValue

from accord.conflicts import Detection
from accord.errors import ValidationError
from accord.ladder.hierarchy import common_manager as common_manager
from accord.ladder.option_labels import labelled
from accord.ladder.strategy_context import StrategyContext
from accord.ladder.strategy_types import Conflict, StrategyOutcome
from accord.llm import MeteredModel, UsageMeter
from accord.log import get_logger
from accord.org import OrgChart

log = get_logger("accord.strategies")

NO_ARGUMENT = "(no argument)"
"""What stands in for an argument a party could not make (its model call failed)."""

SettingsT = TypeVar("SettingsT", bound="StrategySettings")


class StrategySettings(BaseModel):
    """Settings every strategy accepts: ``analysis`` is what earlier tiers tried."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    analysis: str | tuple[str, ...] = ()


def parse_settings(kind: type[SettingsT], strategy: str, settings: Mapping[str, Any]) -> SettingsT:
    """Validate ``settings``; ``ValidationError`` ``strategies.invalid_settings`` names the key."""
    try:
        return kind.model_validate(dict(settings))
    except pydantic.ValidationError as error:
        first = error.errors()[0]
        key = ".".join(str(part) for part in first["loc"]) or "settings"
        raise ValidationError(
            f"strategy {strategy!r}: setting {key}: {first['msg']}",
            code="strategies.invalid_settings",
            strategy=strategy,
            field=key,
            rule=first["msg"],
        ) from None


def render_answer(answer: JsonValue) -> str:
    """An answer as an option string: strings as they are, anything else as canonical JSON."""
    if isinstance(answer, str):
        return answer
    return json.dumps(answer, sort_keys=True, ensure_ascii=False)


def option_texts_of(dispute: Conflict) -> tuple[str, ...]:
    """Each answer group's full text, in group order; numbered when renderings collide."""
    return group_option_texts(dispute.detection)


def group_option_texts(detection: Detection) -> tuple[str, ...]:
    """:func:`option_texts_of` for a bare detection (tier 1 has no ``Conflict`` yet)."""
    rendered = tuple(render_answer(group.answer) for group in detection.groups)
    if len(set(rendered)) == len(rendered):
        return rendered
    return tuple(f"option {index + 1}: {text}" for index, text in enumerate(rendered))


def options_of(dispute: Conflict) -> tuple[str, ...]:
    """One option per answer group, in group order: the full text, or a short label for a
    long one (:mod:`accord.ladder.option_labels`)."""
    return labelled(option_texts_of(dispute))


def lead_of(dispute: Conflict, group: int) -> str:
    """The group's most confident agent (no confidence counts as 0; ties: first in order)."""
    members = dispute.detection.groups[group].agents
    best = members[0]
    best_confidence = -1.0
    for position in dispute.positions:
        if position.agent in members:
            confidence = position.confidence if position.confidence is not None else 0.0
            if confidence > best_confidence:
                best, best_confidence = position.agent, confidence
    return best


def leads(dispute: Conflict) -> tuple[str, ...]:
    """Each group's lead agent, in group order."""
    return tuple(lead_of(dispute, index) for index in range(len(dispute.detection.groups)))


SUMMARY_EXCERPT_CHARS = 2000
"""How much of one answer or one reasoning the summary for people repeats: the item carries
every position whole (answer and reasoning), so a long text is stored and shown once."""


def excerpt(text: str, limit: int | None) -> str:
    """``text``, or its first ``limit`` characters and how many more there are."""
    if limit is None or len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit:,} more characters in the position)"


def describe_group(dispute: Conflict, group: int, *, limit: int | None = None) -> str:
    """One group's answer, who holds it, and each holder's confidence and reasoning (each
    text cut to ``limit`` characters when one is given)."""
    answer = dispute.detection.groups[group].answer
    lines = [f"Answer: {excerpt(render_answer(answer), limit)}"]
    for position in dispute.positions:
        if dispute.group_of(position.agent) != group:
            continue
        confidence = "unstated" if position.confidence is None else f"{position.confidence:.2f}"
        reasoning = f" — {excerpt(position.reasoning, limit)}" if position.reasoning else ""
        lines.append(f"- {position.agent} (confidence {confidence}){reasoning}")
    return "\n".join(lines)


def summarize_positions(dispute: Conflict) -> str:
    """Every answer group described for people, long texts cut (the positions hold them)."""
    options = options_of(dispute)
    parts = [f"{dispute.subject} ({dispute.task_type}): {len(options)} conflicting answers."]
    for index in range(len(options)):
        described = describe_group(dispute, index, limit=SUMMARY_EXCERPT_CHARS)
        parts.append(f"Option {index + 1}.\n{described}")
    return "\n\n".join(parts)


def base_analysis(dispute: Conflict, analysis: str | tuple[str, ...]) -> str:
    """The detection, the classification and what earlier tiers tried."""
    c = dispute.classification
    lines = [
        f"Detection: {dispute.detection.description}",
        f"Classification: {c.kind}, {c.severity}; dispute type {c.dispute_type}; "
        f"started at {c.starting_tier}; chain {', '.join(c.strategy_chain)}",
    ]
    tried = (analysis,) if isinstance(analysis, str) else analysis
    if tried:
        lines.append("Earlier attempts:")
        lines.extend(f"- {attempt}" for attempt in tried if attempt)
    return "\n".join(lines)


def metered(ctx: StrategyContext) -> tuple[MeteredModel | None, UsageMeter]:
    """``ctx.model`` wrapped in a fresh meter, so one ``resolve`` call's usage is exact."""
    meter = UsageMeter()
    return (None if ctx.model is None else MeteredModel(ctx.model, meter)), meter


def usage_fields(meter: UsageMeter) -> dict[str, int]:
    """The outcome fields for what ``meter`` counted."""
    total = meter.total()
    return {
        "tokens_in": total.input_tokens,
        "tokens_out": total.output_tokens,
        "model_calls": total.calls,
    }


def escalated(strategy: str, reason: str, **fields: Any) -> StrategyOutcome:
    """An escalated outcome, logged."""
    log.info("strategy_escalated", strategy=strategy, reason=reason)
    return StrategyOutcome(
        strategy=strategy, status="escalated", escalation_reason=reason, **fields
    )


async def queue_for_people(
    strategy: str,
    dispute: Conflict,
    ctx: StrategyContext,
    *,
    reason: str,
    analysis: str,
    **fields: Any,
) -> StrategyOutcome:
    """Queue ``dispute`` in the human approval queue; escalated when there is none or it fails."""
    if ctx.approvals is None:
        return escalated(strategy, f"no approval queue configured ({reason})", **fields)
    try:
        item = await ctx.approvals.request_approval(
            dispute,
            summary=summarize_positions(dispute),
            analysis=f"Why people decide: {reason}\n{analysis}",
            options=options_of(dispute),
        )
    except Exception as error:  # the gateway is I/O: any failure escalates, never crashes
        return escalated(
            strategy, f"approval queue failed: {type(error).__name__}: {error}", **fields
        )
    log.info("strategy_queued", strategy=strategy, case_id=dispute.case_id, item=item)
    return StrategyOutcome(
        strategy=strategy,
        status="queued",
        approval_item_id=item,
        escalation_reason=reason,
        **fields,
    )


def not_in_org(dispute: Conflict, ctx: StrategyContext) -> Sequence[str]:
    """Parties missing from the org chart (all of them when there is no chart)."""
    if ctx.org is None:
        return dispute.parties
    return [agent for agent in dispute.parties if agent not in ctx.org]


def top_of(org: OrgChart, parties: Sequence[str]) -> str | None:
    """The member with no manager above every party (the CEO); None when they differ."""
    tops = set()
    for party in parties:
        chain = org.manager_chain(party)
        tops.add(chain[-1].agent_id if chain else party)
    return tops.pop() if len(tops) == 1 else None
