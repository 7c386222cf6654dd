"""The parts of a structured debate that debate and hybrid share: arguments, then a judge.

Each answer group speaks through its lead agent with ONE argument, capped at ``max_tokens``
(the provider enforces the cap). A failed or over-cap argument loses its slot: the judge sees
the group's answer with ``(no argument)``. The judge is asked through ``judge_with_swap``
(twice, positions swapped); a failed judge call (malformed JSON, a non-party winner, a timeout,
over its cap) is retried once, then reported — never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass

from accord.ladder._strategy_support import NO_ARGUMENT, describe_group, leads, log
from accord.ladder.strategy_types import Conflict
from accord.llm import LanguageModel, ModelError, SwapVerdict, build_argument_request
from accord.llm import judge_with_swap as _judge_with_swap

JUDGE_ATTEMPTS = 2
"""A judge call that fails is retried once: two attempts in all."""


@dataclass(frozen=True, slots=True)
class Arguments:
    """Each speaker's argument (``NO_ARGUMENT`` when it failed) and what went wrong."""

    by_party: dict[str, str]
    notes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class JudgeAttempt:
    """A swap verdict, or why the judge failed after its retry; plus notes on failed calls."""

    verdict: SwapVerdict | None
    failure: str | None
    notes: tuple[str, ...]


def question_of(dispute: Conflict) -> str:
    """What the parties disagree on."""
    return f"{dispute.subject} (task: {dispute.task_type})"


async def gather_arguments(model: LanguageModel, dispute: Conflict, max_tokens: int) -> Arguments:
    """One capped argument per answer group, from its lead agent, in group order."""
    speakers = leads(dispute)
    described = [describe_group(dispute, index) for index in range(len(speakers))]
    by_party: dict[str, str] = {}
    notes: list[str] = []
    for index, speaker in enumerate(speakers):
        opponents = "\n\n".join(text for other, text in enumerate(described) if other != index)
        request = build_argument_request(
            speaker,
            described[index],
            opponents,
            max_tokens=max_tokens,
            case_id=dispute.case_id,
            question=question_of(dispute),
        )
        try:
            response = await model.complete(request)
        except ModelError as error:
            log.info("argument_lost", party=speaker, code=error.code)
            notes.append(f"{speaker} lost its argument slot: [{error.code}] {error.message}")
            by_party[speaker] = NO_ARGUMENT
            continue
        by_party[speaker] = response.text
    return Arguments(by_party=by_party, notes=tuple(notes))


def judge_material(dispute: Conflict, arguments: Arguments) -> list[tuple[str, str]]:
    """What the judge reads per speaker: the group's answer and holders, then the argument."""
    return [
        (speaker, f"{describe_group(dispute, index)}\n\nArgument:\n{arguments.by_party[speaker]}")
        for index, speaker in enumerate(leads(dispute))
    ]


async def ask_judge_with_retry(
    model: LanguageModel, dispute: Conflict, material: list[tuple[str, str]], max_tokens: int
) -> JudgeAttempt:
    """``judge_with_swap``, retried once when it fails."""
    notes: list[str] = []
    for attempt in range(1, JUDGE_ATTEMPTS + 1):
        try:
            verdict = await _judge_with_swap(
                model,
                question_of(dispute),
                material,
                max_tokens=max_tokens,
                case_id=dispute.case_id,
            )
        except ModelError as error:
            notes.append(f"judge attempt {attempt} failed: [{error.code}] {error.message}")
            log.info("judge_failed", case_id=dispute.case_id, attempt=attempt, code=error.code)
            continue
        return JudgeAttempt(verdict=verdict, failure=None, notes=tuple(notes))
    return JudgeAttempt(verdict=None, failure=notes[-1], notes=tuple(notes))


def verdict_reasoning(verdict: SwapVerdict) -> str:
    """Both verdicts' reasoning (once when they are the same)."""
    first, second = verdict.first.reasoning, verdict.second.reasoning
    if first == second:
        return first
    return f"{first}\n(positions swapped) {second}"
