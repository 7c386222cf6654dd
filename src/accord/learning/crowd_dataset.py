"""A crowd-labelling dataset held in memory: raw answers plus the ground truth for scoring."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from accord.learning.label_data import LabelMatrix


@dataclass(frozen=True, eq=False)
class CrowdDataset:
    """Answers as ``(question, worker, answer)`` strings and the known truth per question.

    ``truth`` is for scoring only: nothing that infers labels may read it.
    """

    name: str
    answers: tuple[tuple[str, str, str], ...]
    truth: Mapping[str, str]
    numeric: bool

    def label_matrix(self) -> LabelMatrix:
        """The answers encoded for categorical aggregation."""
        return LabelMatrix.from_triples(self.answers)

    def numeric_answers(self) -> list[tuple[str, str, float]]:
        """The answers with values parsed as numbers."""
        return [(item, worker, float(value)) for item, worker, value in self.answers]
