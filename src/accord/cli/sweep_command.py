"""``accord sweep``: fire every due deadline once — approval timeouts, DCP-07 tiers.

Run it from cron or a timer, or keep it running with ``--watch`` (a sweep every
``--interval`` seconds until Ctrl-C). Deadlines are rows: any number of sweepers, here and in
``accord serve``, fire each due row exactly once between them.

``--adopt-undated`` first gives settle cases an older version escalated above tier 1 without
a tier deadline the one settle arms now (counted from when each escalated; see
:mod:`accord.cases.undated_cases`), in one transaction, then sweeps: those already past
their deadline move in this very sweep.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.console import Console

from accord.cli.opening import open_accord
from accord.cli.options import ConfigOption, DbOption, JsonOption, KeysOption
from accord.cli.problems import report_problem
from accord.cli.tables import listing, print_json
from accord.clock import isoformat
from accord.deadlines import DeadlineSweep, SweepReport
from accord.errors import AccordError

WatchOption = Annotated[
    bool, typer.Option("--watch", help="Keep sweeping every --interval seconds until Ctrl-C.")
]
AdoptOption = Annotated[
    bool,
    typer.Option(
        "--adopt-undated",
        help="First arm the tier deadline of cases escalated above tier 1 by a version "
        "that armed none (counted from when each escalated).",
    ),
]
IntervalOption = Annotated[
    float, typer.Option("--interval", min=0.1, help="Seconds between sweeps with --watch.")
]


def sweep(
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
    watch: WatchOption = False,
    interval: IntervalOption = 30.0,
    adopt_undated: AdoptOption = False,
) -> None:
    """Fire every due deadline exactly once (exit 1 if a deadline's handler failed)."""
    accord = open_accord(config, db, keys)
    try:
        try:
            sweeper = accord.deadline_sweeper()
            if adopt_undated:
                adopted = accord.adopt_undated_cases()
                Console(stderr=as_json).print(
                    f"{len(adopted)} undated case(s) given a tier deadline"
                )
        except AccordError as exc:
            report_problem("error", exc)
            raise typer.Exit(2) from exc
        if watch:
            watch_sweeps(sweeper, interval, lambda r: _print_report(r, as_json, quiet=True))
            return
        report = sweeper.run()
        _print_report(report, as_json, quiet=False)
    finally:
        accord.close()
    if report.failed:
        raise typer.Exit(1)


def watch_sweeps(
    sweeper: DeadlineSweep,
    interval: float,
    show: Callable[[SweepReport], None],
    *,
    wait: Callable[[float], None] = time.sleep,
    rounds: int | None = None,
) -> int:
    """Sweep, show the report, wait ``interval`` seconds, again — ``rounds`` times, or until
    Ctrl-C (then the sweep in progress finishes first: each is one or more transactions).
    A sweep that raises is reported and the loop goes on. Returns the rounds run."""
    done = 0
    try:
        while rounds is None or done < rounds:
            try:
                show(sweeper.run())
            except AccordError as exc:
                report_problem("error", exc)
            done += 1
            if rounds is None or done < rounds:
                wait(interval)
    except KeyboardInterrupt:
        pass
    return done


def report_rows(report: SweepReport) -> list[dict[str, Any]]:
    """Each deadline the sweep acted on, as JSON: fired ones, then failed ones."""
    rows: list[dict[str, Any]] = []
    for fired in report.fired:
        d = fired.deadline
        rows.append(
            {
                "deadline_id": d.deadline_id,
                "kind": d.kind,
                "subject_id": d.subject_id,
                "tier": d.tier,
                "due_at": isoformat(d.due_at),
                "state": d.state.value,
                "outcome": d.outcome,
                "fired_at": isoformat(d.fired_at) if d.fired_at else None,
                "fired_by": d.fired_by,
                "next": None
                if fired.rearmed is None
                else {
                    "deadline_id": fired.rearmed.deadline_id,
                    "tier": fired.rearmed.tier,
                    "due_at": isoformat(fired.rearmed.due_at),
                },
            }
        )
    for failed in report.failed:
        d = failed.deadline
        rows.append(
            {
                "deadline_id": d.deadline_id,
                "kind": d.kind,
                "subject_id": d.subject_id,
                "tier": d.tier,
                "due_at": isoformat(d.due_at),
                "state": d.state.value,
                "outcome": "failed",
                "attempts": d.attempts,
                "error": failed.error,
            }
        )
    return rows


def _print_report(report: SweepReport, as_json: bool, *, quiet: bool) -> None:
    rows = report_rows(report)
    if as_json:
        if rows or not quiet:
            print_json(rows)
        return
    if not rows and quiet:
        return
    console = Console()
    if rows:
        table = listing("deadline", "kind", "subject", "tier", "due", "outcome", "next due")
        for row in rows:
            following = row.get("next")
            table.add_row(
                row["deadline_id"],
                row["kind"],
                row["subject_id"],
                row["tier"] or "-",
                row["due_at"],
                row["outcome"],
                following["due_at"] if following else "-",
            )
        console.print(table)
    counts = Counter(f.handled.outcome for f in report.fired)
    detail = ", ".join(f"{n} {outcome}" for outcome, n in sorted(counts.items()))
    console.print(f"{len(report.fired)} deadline(s) fired" + (f": {detail}" if detail else ""))
    if report.failed:
        report_problem(
            "error",
            f"{len(report.failed)} deadline(s) failed and stay armed for the next sweep "
            "(or are set aside after repeated failures); see the log",
        )
