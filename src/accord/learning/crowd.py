"""Reading crowd datasets from ``answers.csv`` and ``truth.csv`` (I/O only)."""

from __future__ import annotations

import csv
import math
from collections.abc import Iterator
from pathlib import Path

from accord.errors import ValidationError
from accord.learning.crowd_dataset import CrowdDataset
from accord.learning.evaluation import CrowdEvaluation, evaluate_dataset

ANSWER_COLUMNS = ("question", "worker", "answer")
TRUTH_COLUMNS = ("question", "truth")
MAX_CATEGORICAL_VALUES = 20


def _fail(path: Path, line: int, message: str, column: str | None = None) -> ValidationError:
    where = f"{path}, line {line}" + (f", column {column!r}" if column else "")
    return ValidationError(f"{where}: {message}", file=str(path), line=line, column=column)


def _rows(path: Path, columns: tuple[str, ...]) -> Iterator[tuple[int, tuple[str, ...]]]:
    """Yield ``(line, values of columns)`` for each data row, checking shape and emptiness."""
    if not path.is_file():
        raise ValidationError(f"{path}: file not found", file=str(path), line=None, column=None)
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.reader(handle)
        header = [name.strip() for name in next(reader, [])]
        for column in columns:
            if column not in header:
                raise _fail(path, 1, f"header lacks the column {column!r}", column)
        positions = [header.index(column) for column in columns]
        for row in reader:
            line = reader.line_num
            if not row:
                continue
            if len(row) != len(header):
                raise _fail(path, line, f"expected {len(header)} fields, found {len(row)}")
            values = tuple(row[p].strip() for p in positions)
            for column, value in zip(columns, values, strict=True):
                if not value:
                    raise _fail(path, line, "empty field", column)
            yield line, values


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def _looks_numeric(answers: list[tuple[str, str, str]]) -> bool:
    values = [answer for _, _, answer in answers]
    if not values or not all(_is_number(v) for v in values):
        return False
    fractional = any(not float(v).is_integer() for v in values)
    return fractional or len(set(values)) > MAX_CATEGORICAL_VALUES


def load_crowd_dataset(directory: Path, *, numeric: bool | None = None) -> CrowdDataset:
    """Read ``directory/answers.csv`` and ``directory/truth.csv``.

    Malformed CSV raises ``ValidationError`` naming the file, line and column. Unless
    ``numeric`` says otherwise, answers count as numeric when all are finite numbers and
    some are fractional or there are more than 20 distinct values (decided from the
    answers alone, never from the truth).
    """
    answers_path = directory / "answers.csv"
    truth_path = directory / "truth.csv"
    answers: list[tuple[str, str, str]] = []
    answer_lines: list[int] = []
    for line, (question, worker, answer) in _rows(answers_path, ANSWER_COLUMNS):
        answers.append((question, worker, answer))
        answer_lines.append(line)
    is_numeric = _looks_numeric(answers) if numeric is None else numeric
    if is_numeric:
        for line, (_, _, answer) in zip(answer_lines, answers, strict=True):
            if not _is_number(answer):
                raise _fail(answers_path, line, f"not a finite number: {answer!r}", "answer")
    truth: dict[str, str] = {}
    for line, (question, value) in _rows(truth_path, TRUTH_COLUMNS):
        if question in truth:
            raise _fail(truth_path, line, f"question {question!r} appears twice", "question")
        if is_numeric and not _is_number(value):
            raise _fail(truth_path, line, f"not a finite number: {value!r}", "truth")
        truth[question] = value
    return CrowdDataset(
        name=directory.name, answers=tuple(answers), truth=truth, numeric=is_numeric
    )


def evaluate_crowd(directory: Path, *, numeric: bool | None = None) -> CrowdEvaluation:
    """Load a dataset and score majority vote and Accord's aggregate against its truth
    (``numeric`` overrides the guess from the answers)."""
    return evaluate_dataset(load_crowd_dataset(directory, numeric=numeric))
