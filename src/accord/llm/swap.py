"""Asking the judge twice with the arguments' order swapped, to catch position bias."""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Self

from pydantic import BaseModel, ConfigDict, model_validator

from accord.llm.judge import JudgeVerdict, ask_judge, check_labels
from accord.llm.protocol import LanguageModel


class SwapVerdict(BaseModel):
    """Both verdicts (in party labels) and whether they agree; ``winner`` only when they do."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    first: JudgeVerdict
    second: JudgeVerdict
    consistent: bool
    winner: str | None

    @model_validator(mode="after")
    def _winner_only_when_consistent(self) -> Self:
        agree = self.first.winner == self.second.winner
        if self.consistent != agree:
            raise ValueError("consistent must say whether both verdicts name the same winner")
        if self.winner != (self.first.winner if agree else None):
            raise ValueError("winner is the agreed winner, or None when the verdicts disagree")
        return self

    @property
    def confidence(self) -> float | None:
        """The lower of the two confidences when the verdicts agree, else ``None``."""
        if not self.consistent:
            return None
        return min(self.first.confidence, self.second.confidence)


async def judge_with_swap(
    model: LanguageModel,
    question: str,
    arguments: Sequence[tuple[str, str]],
    *,
    max_tokens: int,
    case_id: str | None = None,
) -> SwapVerdict:
    """Judge in the given order, then reversed; the judge sees positional letters only.

    Parties appear as ``A``, ``B``, … by position, so ``A`` in the second prompt is the
    originally-last party; each verdict is mapped back to the caller's party labels.
    """
    check_labels([label for label, _ in arguments])
    first = await _judge_once(model, question, list(arguments), max_tokens, case_id)
    second = await _judge_once(model, question, list(reversed(arguments)), max_tokens, case_id)
    agree = first.winner == second.winner
    return SwapVerdict(
        first=first, second=second, consistent=agree, winner=first.winner if agree else None
    )


async def _judge_once(
    model: LanguageModel,
    question: str,
    order: list[tuple[str, str]],
    max_tokens: int,
    case_id: str | None,
) -> JudgeVerdict:
    letters = positional_labels(len(order))
    shown = [(letter, text) for letter, (_, text) in zip(letters, order, strict=True)]
    verdict = await ask_judge(model, question, shown, max_tokens=max_tokens, case_id=case_id)
    party = {letter: label for letter, (label, _) in zip(letters, order, strict=True)}
    return JudgeVerdict(
        winner=party.get(verdict.winner, verdict.winner),
        reasoning=verdict.reasoning,
        confidence=verdict.confidence,
    )


def positional_labels(count: int) -> list[str]:
    """``A``, ``B``, … ``Z`` for up to 26 parties."""
    if count > len(string.ascii_uppercase):
        raise ValueError("at most 26 parties can be judged at once")
    return list(string.ascii_uppercase[:count])
