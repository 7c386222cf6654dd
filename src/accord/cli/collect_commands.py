"""``accord collect``: collecting cases — open one for named agents, submit a party's own
position, show, list.

The CLI is the operator's: it names the submitting party with ``--by`` (the HTTP service
takes the party from the caller's agent key instead). A position file is JSON or YAML, one
object (``output``, ``confidence``, ``reasoning``, ``evidence`` …), read through the bounded
reader; an ``agent`` in it must be ``--by``.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from accord.cases import MAX_COLLECT_FOR, MAX_PAGE, MIN_COLLECT_FOR, CollectingCase, sign_position
from accord.cli.opening import open_accord
from accord.cli.options import ConfigOption, DbOption, JsonOption, KeysOption
from accord.cli.problems import refused_exit
from accord.cli.tables import listing, print_json
from accord.conflicts import Position
from accord.crypto import role_key_name
from accord.disputes import read_input_file
from accord.errors import AccordError, ValidationError

collect_app = typer.Typer(
    no_args_is_help=True,
    help="Collecting cases: each named agent submits its own position; the last settles it.",
)

CollectingId = Annotated[str, typer.Argument(help="coll:<uuid>")]


def _print(found: list[CollectingCase], as_json: bool, *, one: bool = False) -> None:
    """A table, or with ``as_json`` the JSON (one object when ``one``)."""
    if as_json:
        data = [c.to_json_dict() for c in found]
        print_json(data[0] if one else data)
        return
    table = listing(
        "collecting id", "status", "subject", "submitted", "missing", "deadline", "case"
    )
    for c in found:
        table.add_row(
            c.collecting_id,
            c.status.value,
            c.subject,
            ", ".join(c.submitted) or "-",
            ", ".join(c.missing) or "-",
            c.deadline_at.isoformat(),
            c.case_id or "-",
        )
    Console().print(table)


@collect_app.command("open")
def open_(
    subject: Annotated[str, typer.Argument(help="The question or task the parties answer.")],
    party: Annotated[
        list[str], typer.Option("--party", help="An expected party (agent id); two or more.")
    ],
    within: Annotated[
        int,
        typer.Option(
            "--within",
            help=f"Seconds to collect ({int(MIN_COLLECT_FOR.total_seconds())} to "
            f"{int(MAX_COLLECT_FOR.total_seconds())}).",
        ),
    ],
    task_type: Annotated[str, typer.Option("--task-type")] = "default",
    session_id: Annotated[str | None, typer.Option("--session")] = None,
    by: Annotated[str, typer.Option("--by", help="Who opens it (kept with the case).")] = "cli",
    as_json: JsonOption = False,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Open a case on SUBJECT that waits --within seconds for each --party's position."""
    accord = open_accord(config, db, keys)
    try:
        opened = accord.collecting.open(
            subject,
            party,
            within=timedelta(seconds=within),
            opened_by=by,
            task_type=task_type,
            session_id=session_id,
        )
    except (AccordError, OverflowError) as exc:
        raise refused_exit(_as_error(exc)) from exc
    finally:
        accord.close()
    _print([opened], as_json, one=True)


@collect_app.command("submit")
def submit(
    collecting_id: CollectingId,
    file: Annotated[Path, typer.Argument(help="JSON or YAML: the party's one position.")],
    by: Annotated[str, typer.Option("--by", help="The submitting party (agent id).")],
    sign: Annotated[
        bool,
        typer.Option(
            "--sign",
            help="Sign the position with --by's own agent key from the key folder "
            "(accord keys new --role agent --principal AGENT).",
        ),
    ] = False,
    as_json: JsonOption = False,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Submit party --by's own position from FILE; the last expected position settles it."""
    accord = open_accord(config, db, keys)
    try:
        data = read_input_file(file, accord.config.settings.limits)
        if not isinstance(data, dict):
            raise ValidationError(
                f"{file}: a position is one object",
                code="collecting.bad_position",
                field="position",
                rule="one JSON or YAML object",
            )
        signature = None
        if sign:
            signer = accord.key_signer(role_key_name("agent", by))
            position = Position.model_validate({**data, "agent": data.get("agent", by)})
            signature = sign_position(collecting_id, position, signer)
        after = accord.collecting.submit(collecting_id, data, by=by, signature=signature)
    except AccordError as exc:
        raise refused_exit(exc) from exc
    finally:
        accord.close()
    _print([after], as_json, one=True)


@collect_app.command("show")
def show(
    collecting_id: CollectingId,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Print one collecting case as JSON (who submitted, who is missing, the case it became)."""
    accord = open_accord(
        config, db, keys, create_service_key=False, must_exist=True, read_only=True
    )
    try:
        found = accord.collecting.get(collecting_id)
    except AccordError as exc:
        raise refused_exit(exc) from exc
    finally:
        accord.close()
    _print([found], True, one=True)


@collect_app.command("list")
def list_(
    party: Annotated[str | None, typer.Option("--party", help="Cases of this agent.")] = None,
    status: Annotated[
        str | None, typer.Option("--status", help="collecting, settled or abandoned.")
    ] = None,
    before: Annotated[
        str | None, typer.Option("--before", help="Continue after (older than) this id.")
    ] = None,
    limit: Annotated[int, typer.Option("--limit", help=f"Most cases (1 to {MAX_PAGE}).")] = 50,
    as_json: JsonOption = False,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Collecting cases, newest first."""
    accord = open_accord(
        config, db, keys, create_service_key=False, must_exist=True, read_only=True
    )
    try:
        found = accord.collecting.list(party=party, status=status, before=before, limit=limit)
    except AccordError as exc:
        raise refused_exit(exc) from exc
    finally:
        accord.close()
    _print(found, as_json)


def _as_error(exc: Exception) -> AccordError:
    if isinstance(exc, AccordError):
        return exc
    return ValidationError(
        "--within is too large", code="collecting.bad_deadline", field="within", rule=str(exc)
    )
