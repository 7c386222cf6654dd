"""`accord settle | cases | case | report | eval`: the settle issue's commands."""

from __future__ import annotations

import json
import sys
import textwrap
from datetime import datetime
from itertools import islice
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from accord.app import Accord
from accord.approvals import ActingDeadline, DecisionVerdict, verdict_of
from accord.cases import Case, SettleStatus
from accord.cli.opening import open_accord, print_one
from accord.cli.options import ConfigOption, DbOption, JsonOption, KeysOption, default_config
from accord.cli.problems import report_problem
from accord.cli.settle_file import FileKind, SettleFile
from accord.cli.tables import listing
from accord.config import load_config
from accord.errors import AccordError, ValidationError
from accord.learning import (
    WinRateTracker,
    evaluate_crowd,
    render_report,
    report_paths,
    root_cause_report,
)
from accord.limits import Limits
from accord.safe_files import refuse_existing

eval_app = typer.Typer(no_args_is_help=True, help="Measure Accord against labelled data.")

def _console(stderr: bool = False) -> Console:
    return Console(stderr=stderr)


def _input_error(message: str) -> typer.Exit:
    report_problem("invalid input", message)
    return typer.Exit(2)


def settle(
    file: Annotated[
        Path,
        typer.Argument(
            help="One case (a JSON object), a JSON array of cases, or JSON Lines (one case per "
            "line, streamed); '-' for stdin. Format: `accord schema settle`."
        ),
    ],
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Settle the cases in FILE and print each decision as JSON (exit 2 on invalid input).

    The whole file is checked before anything is written; then it is settled in batches of
    limits.cases_per_batch cases, one transaction each. Decisions print as one JSON object,
    a JSON array, or JSON Lines, as the cases were given.
    """
    limits = _limits(config)
    try:
        source = SettleFile(file, limits)
    except ValidationError as exc:
        raise _input_error(str(exc)) from exc
    try:
        accord = open_accord(config, db, keys)
        try:
            total = _check_all(source, accord)
            _settle_batches(accord, source, limits, total)
        finally:
            accord.close()
    finally:
        source.close()


def _limits(config: Path | None) -> Limits:
    try:
        return load_config(default_config(config)).settings.limits
    except AccordError as exc:
        report_problem("error", exc)
        raise typer.Exit(2) from exc


def _check_all(source: SettleFile, accord: Accord) -> int:
    """Every case checked as settle will check it (its org chart included), one at a time,
    before any is recorded; the number of cases."""
    count = 0
    try:
        for where, case in source.cases():
            try:
                accord.check(case.request())
            except ValidationError as exc:
                field = exc.context.get("field")
                raise ValidationError(
                    f"{where}: " + (f"{field}: " if field else "") + exc.message,
                    code=exc.code,
                    **exc.context,
                ) from exc
            count += 1
    except ValidationError as exc:
        raise _input_error(str(exc)) from exc
    if count == 0:
        raise _input_error(f"{source.name}: no cases to settle")
    return count


def _settle_batches(accord: Accord, source: SettleFile, limits: Limits, total: int) -> None:
    out = _DecisionWriter(source.kind)
    cases = source.cases()
    done = 0
    while batch := [case.request() for _, case in islice(cases, limits.cases_per_batch)]:
        try:
            settled = accord.settle_many(batch)
        except ValidationError as exc:
            out.close()
            where = exc.context.get("field")
            kept = f" ({done} of {total} cases were recorded before it)" if done else ""
            raise _input_error(
                f"[{exc.code}] {source.name}: {exc.message}"
                + (f" (field {where})" if where else "")
                + kept
            ) from exc
        for case in settled:
            out.write(case.summary())
        done += len(settled)
    out.close()


class _DecisionWriter:
    """Prints decisions as they are made, in the layout the cases came in."""

    def __init__(self, kind: FileKind) -> None:
        self._kind = kind
        self._count = 0

    def write(self, summary: dict[str, Any]) -> None:
        if self._kind is FileKind.LINES:
            sys.stdout.write(json.dumps(summary, ensure_ascii=False) + "\n")
        elif self._kind is FileKind.OBJECT:
            sys.stdout.write(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
        else:
            text = textwrap.indent(json.dumps(summary, indent=2, ensure_ascii=False), "  ")
            sys.stdout.write(("[\n" if self._count == 0 else ",\n") + text)
        self._count += 1

    def close(self) -> None:
        if self._kind is FileKind.ARRAY:
            sys.stdout.write("\n]\n" if self._count else "[]\n")


def cases(
    status: Annotated[
        str | None, typer.Option(help=" | ".join(s.value for s in SettleStatus))
    ] = None,
    session: Annotated[str | None, typer.Option(help="Only this session's cases.")] = None,
    limit: Annotated[int, typer.Option(min=1)] = 50,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """List cases, newest first."""
    accord = open_accord(config, db, keys, must_exist=True, read_only=True)
    try:
        rows = accord.cases.find(status=status, session_id=session, limit=limit)
    except ValidationError as exc:
        raise _input_error(exc.message) from exc
    finally:
        accord.close()
    if as_json:
        sys.stdout.write(json.dumps(rows, indent=2, default=str) + "\n")
        return
    # Ids are never shortened (`accord case ID` takes them): they fold on a narrow terminal.
    table = listing(
        "case", "subject", "status", "task", "kind", "severity", "winner", "rung", "created"
    )
    for r in rows:
        table.add_row(
            r["case_id"],
            r["subject"],
            r["status"],
            r["task_type"],
            r["kind"] or "-",
            r["severity"] or "-",
            r["winner"] or "-",
            r["rung"] or "-",
            str(r["created_at"])[:19].replace("T", " "),  # to the second
        )
    _console().print(table)


def case(
    case_id: str, db: DbOption = None, keys: KeysOption = None, config: ConfigOption = None
) -> None:
    """Print one case as JSON: positions, detection, decision or escalation, deadline, verdict.

    ``escalation_deadline`` is the deadline it waits on (its tier's, or its approval item's),
    ``acting_deadline`` that deadline with what happens then, ``verdict`` what people decided.
    """
    print_one(config, db, keys, lambda accord: _shown(accord, case_id))


class _ShownCase(Case):
    """A case as ``accord case`` prints it: the stored case and the deadline it waits on."""

    escalation_deadline: datetime | None = None
    acting_deadline: ActingDeadline | None = None
    verdict: DecisionVerdict | None = None


def _shown(accord: Accord, case_id: str) -> _ShownCase:
    stored = accord.cases.get(case_id)
    deadline = accord.case_deadline(case_id)
    item_id = stored.approval_item_id
    item = None if item_id is None else accord.approvals.get(item_id)
    return _ShownCase.model_construct(  # the stored case is already valid
        **dict(stored),
        escalation_deadline=None if deadline is None else deadline.due_at,
        acting_deadline=accord.case_acting_deadline(stored),
        verdict=None if item is None else verdict_of(item),
    )


def report(
    out: Annotated[Path, typer.Option("--out", help="Directory for plots and summaries.")] = Path(
        "accord-report"
    ),
    fmt: Annotated[str, typer.Option("--format", help="png or svg")] = "png",
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite an earlier report in --out.")
    ] = False,
) -> None:
    """Plots (cases by kind, escalation rate, win rate per agent), routing advice, root causes."""
    if fmt not in ("png", "svg"):
        raise _input_error(f"--format must be png or svg, not {fmt!r}")
    try:
        for path in report_paths(out, fmt):  # type: ignore[arg-type]
            refuse_existing(path, force=force)
    except AccordError as exc:
        raise _input_error(str(exc)) from exc
    accord = open_accord(config, db, keys, must_exist=True, read_only=True)
    try:
        outcomes = accord.outcomes()
    finally:
        accord.close()
    files = render_report(outcomes, out, fmt=fmt)  # type: ignore[arg-type]
    console = _console()
    console.print(f"{len(outcomes)} cases; report written to {out}")
    for path in files.model_dump().values():
        if path:
            console.print(f"  {path}")
    for flag in WinRateTracker.from_outcomes(outcomes).routing_advice():
        console.print(f"[yellow]routing[/] {flag.advice}")
    for group in root_cause_report(outcomes).groups:
        console.print(f"cause {group.cause}: {group.count} ({group.share:.0%})")


@eval_app.command("crowd")
def eval_crowd(
    directory: Path,
    as_json: JsonOption = False,
    numeric: Annotated[
        bool | None,
        typer.Option(
            "--numeric/--categorical",
            help="Treat answers as numbers (MAE/RMSE) or as labels (accuracy); "
            "default: guessed from the answers.",
        ),
    ] = None,
) -> None:
    """Majority vote vs Accord's reliability-weighted vote on a crowdsourcing dataset.

    DIRECTORY holds answers.csv (question,worker,answer) and truth.csv (question,truth).
    """
    if not directory.is_dir():
        raise _input_error(
            f"no crowd folder at {directory}: a crowd is a folder with answers.csv "
            "(question,worker,answer) and truth.csv (question,truth); try "
            "`accord eval crowd examples/crowd/experts` from a clone of Accord (a synthetic "
            "crowd), or the published crowds in the workplace's shared/data/crowd/ "
            "(product, duck) where you have them"
        )
    try:
        result = evaluate_crowd(directory, numeric=numeric)
    except AccordError as exc:
        raise _input_error(str(exc)) from exc
    if as_json:
        sys.stdout.write(result.model_dump_json(indent=2) + "\n")
        return
    table = listing(
        "dataset",
        "items",
        "workers",
        "answers",
        "majority",
        "Accord (weighted)",
        "fit s",
        "iterations",
    )

    def fmt_acc(v: float | None) -> str:
        return "-" if v is None else f"{v:.4f}"

    table.add_row(
        result.dataset,
        str(result.items),
        str(result.workers),
        str(result.answers),
        fmt_acc(result.majority_accuracy),
        fmt_acc(result.weighted_accuracy),
        f"{result.fit_seconds:.3f}",
        str(result.iterations),
    )
    _console().print(table)
    if result.numeric:
        _console().print(
            f"MAE mean {result.mae_mean:.4f} vs Accord {result.mae_weighted:.4f}; "
            f"RMSE mean {result.rmse_mean:.4f} vs Accord {result.rmse_weighted:.4f}"
        )
