"""`accord eval prose FILE`: prose detection measured on a labelled corpus, rates by kind."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from accord.cli.options import JsonOption
from accord.cli.problems import report_problem
from accord.cli.tables import listing, print_json
from accord.conflicts import (
    DetectionSettings,
    EmbeddingComparator,
    ProseEvaluation,
    SemanticComparator,
    evaluate_prose,
    read_corpus,
)
from accord.errors import AccordError

MAX_CORPUS_BYTES = 64 * 1024 * 1024
"""Largest corpus file read (checked before reading)."""
SHIPPED = "tests/conflicts/prose/prose_corpus.jsonl"


class Mode(StrEnum):
    """How strings are compared: by facts (now), or as before prose detection."""

    FACTS = "facts"
    NORMALIZED = "normalized"
    EXACT = "exact"


class Semantic(StrEnum):
    """The semantic layer asked where facts cannot tell: none, or the local embedding model."""

    NONE = "none"
    EMBEDDING = "embedding"


def register(eval_app: typer.Typer) -> None:
    """Add ``prose`` to the ``accord eval`` commands."""
    eval_app.command("prose")(eval_prose)


def eval_prose(
    file: Annotated[
        Path,
        typer.Argument(
            help=f"A JSON Lines corpus of labelled answer sets (Accord's own: {SHIPPED})."
        ),
    ],
    as_json: JsonOption = False,
    mode: Annotated[
        Mode,
        typer.Option(help="facts (prose detection) or normalized/exact (string comparison)."),
    ] = Mode.FACTS,
    semantic: Annotated[
        Semantic,
        typer.Option(help="embedding: also ask the local model (the accord[semantic] extra)."),
    ] = Semantic.NONE,
    misjudged: Annotated[
        bool, typer.Option("--misjudged", help="List every case judged wrongly.")
    ] = False,
) -> None:
    """Accuracy, false-conflict and missed-conflict rates of prose detection, by kind.

    Each case's answers are compared with `detect`; a paraphrase called a conflict is a false
    conflict, a conflict called an agreement a missed one, and answers that could not be
    compared are counted apart (never right). Exit 2 on an unreadable corpus.
    """
    try:
        cases = read_corpus(_lines(file), source=str(file))
        comparator: SemanticComparator | None = (
            EmbeddingComparator.bundled() if semantic is Semantic.EMBEDDING else None
        )
        result = evaluate_prose(
            cases,
            base=DetectionSettings(text_mode=mode.value),
            semantic=comparator,
            source=str(file),
        )
    except AccordError as exc:
        report_problem("invalid input", exc)
        raise typer.Exit(2) from exc
    if as_json:
        print_json(result.summary())
        return
    _print(result, misjudged)


def _lines(file: Path) -> list[str]:
    if not file.is_file():
        raise AccordError(
            f"no corpus at {file}: give a JSON Lines file (Accord's own corpus is {SHIPPED} "
            "in a clone)",
            code="prose.no_corpus",
        )
    size = file.stat().st_size
    if size > MAX_CORPUS_BYTES:
        raise AccordError(
            f"{file}: {size:,} bytes, above the {MAX_CORPUS_BYTES:,} a corpus may have",
            code="prose.corpus_too_large",
        )
    try:
        return file.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise AccordError(f"{file}: not UTF-8 ({exc.reason})", code="prose.invalid_corpus") from exc


def _print(result: ProseEvaluation, misjudged: bool) -> None:
    console = Console()
    table = listing(
        "kind",
        "cases",
        "agree",
        "conflict",
        "accuracy",
        "false conflict",
        "missed conflict",
        "not comparable",
        title=f"prose detection ({result.mode}): agree = paraphrases, conflict = real ones",
    )
    for rates in (*result.by_kind, result.total):
        table.add_row(
            rates.name,
            str(rates.cases),
            str(rates.paraphrases),
            str(rates.conflicts),
            f"{rates.accuracy:.1%}",
            f"{rates.false_conflict_rate:.1%} ({rates.false_conflicts})",
            f"{rates.missed_conflict_rate:.1%} ({rates.missed_conflicts})",
            f"{rates.not_comparable_rate:.1%} ({rates.not_comparable})",
        )
    console.print(table)
    if misjudged:
        for judged in result.judged:
            if not judged.correct:
                console.print(
                    f"{judged.id}: expected {judged.expected}, got {judged.predicted} — "
                    f"{judged.description}",
                    markup=False,
                    soft_wrap=True,
                )
