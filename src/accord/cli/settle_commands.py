"""`accord settle | cases | case | report | eval`: the settle issue's commands."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from accord.cli.opening import open_accord, print_one
from accord.cli.options import ConfigOption, DbOption, JsonOption, KeysOption
from accord.cli.problems import report_problem
from accord.cli.tables import listing
from accord.disputes import SettleRequest, SettleStatus
from accord.errors import AccordError, ValidationError
from accord.learning import WinRateTracker, evaluate_crowd, render_report, root_cause_report
from accord.learning.report import report_paths
from accord.safe_files import refuse_existing

eval_app = typer.Typer(no_args_is_help=True, help="Measure Accord against labelled data.")

_REQUEST_KEYS = frozenset({"subject", "positions", "task_type", "session_id"})


def _console(stderr: bool = False) -> Console:
    return Console(stderr=stderr)


def _input_error(message: str) -> typer.Exit:
    report_problem("invalid input", message)
    return typer.Exit(2)


def request_from_json(data: Any, where: str = "") -> SettleRequest:
    """One settle request from parsed JSON, naming the field of any problem."""
    if not isinstance(data, dict):
        raise ValidationError(
            f"{where or 'the file'} must be a JSON object",
            code="settle.bad_request",
            field=where or "(top level)",
            rule="a JSON object",
        )
    unknown = sorted(set(data) - _REQUEST_KEYS)
    if unknown:
        raise ValidationError(
            f"unknown key {unknown[0]!r}",
            code="settle.bad_request",
            field=f"{where}{unknown[0]}",
            rule="unknown key",
        )
    for key in ("subject", "positions"):
        if key not in data:
            raise ValidationError(
                f"missing key {key!r}",
                code="settle.bad_request",
                field=f"{where}{key}",
                rule="required key is missing",
            )
    return SettleRequest(
        subject=data["subject"],
        positions=data["positions"],
        task_type=data.get("task_type", "default"),
        session_id=data.get("session_id"),
    )


def settle(
    file: Annotated[
        Path, typer.Argument(help="A JSON object, or a list of them, or '-' for stdin.")
    ],
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Settle the positions in FILE and print each decision as JSON (exit 2 on invalid input)."""
    try:
        text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
        data = json.loads(text)
    except OSError as exc:
        raise _input_error(f"{file}: cannot read: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise _input_error(f"{file}: not UTF-8 text (byte {exc.start})") from exc
    except json.JSONDecodeError as exc:
        raise _input_error(f"{file}: line {exc.lineno}: not valid JSON: {exc.msg}") from exc
    try:
        if isinstance(data, list):
            requests = [request_from_json(item, f"[{i}].") for i, item in enumerate(data)]
        else:
            requests = [request_from_json(data)]
    except ValidationError as exc:
        where = exc.context.get("field")
        raise _input_error(f"[{exc.code}] {file}: {where}: {exc.message}") from exc
    accord = open_accord(config, db, keys)
    try:
        cases = accord.settle_many(requests)
    except ValidationError as exc:
        where = exc.context.get("field")
        raise _input_error(
            f"[{exc.code}] {file}: {exc.message}" + (f" (field {where})" if where else "")
        ) from exc
    finally:
        accord.close()
    summaries = [c.summary() for c in cases]
    out = summaries if isinstance(data, list) else summaries[0]
    sys.stdout.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")


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
    """Print one case (positions, detection, decision or escalation payload) as JSON."""
    print_one(config, db, keys, lambda accord: accord.cases.get(case_id))


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
