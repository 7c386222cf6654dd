"""``accord disputes``: DCP-07 disputes — open, show, list, evidence, escalate, withdraw,
export, import.

``disputes_app`` is the sub-app: the negotiation, panel, objection and compliance commands
(``propose``, ``accept``, ``commit``, ``reveal``, ``nominate``, ``vote``, ``object``,
``comply``) register on it from their own files. Input files are JSON or YAML, read through
the bounded readers; ``--json`` prints JSON; tables never cut an id. The CLI signs with the
service key and acts for the party named by ``--by`` (the HTTP service takes the party from
the caller's credential instead).
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from accord.app import Accord
from accord.cli.opening import open_accord
from accord.cli.options import ConfigOption, DbOption, JsonOption, KeysOption
from accord.cli.problems import refused_exit
from accord.cli.tables import listing, print_json
from accord.crypto import read_public_key_file
from accord.dcp07 import record_document
from accord.disputes import (
    DEFAULT_PAGE,
    MAX_EVIDENCE_ITEMS,
    MAX_FILINGS_PER_CALL,
    MAX_PAGE,
    StoredDispute,
    objects_in,
    read_input_file,
)
from accord.errors import AccordError

disputes_app = typer.Typer(
    no_args_is_help=True,
    help="DCP-07 disputes: open, show, list, evidence, escalate, withdraw, export, import.",
)

ById = Annotated[str, typer.Option("--by", help="The party (agent id) taking this step.")]
DisputeId = Annotated[str, typer.Argument(help="disp:<uuid>")]
Reason = Annotated[str, typer.Option("--reason", help="Why (kept in the signed event).")]


def _print_disputes(found: list[StoredDispute], as_json: bool) -> None:
    if as_json:
        print_json([d.to_json_dict() for d in found])
        return
    table = listing("dispute id", "type", "severity", "status", "tier", "deadline", "cited")
    for d in found:
        r = d.record
        table.add_row(
            r.dispute_id,
            r.dispute_type.value,
            r.severity.value,
            r.status.value,
            r.current_escalation_level.value,
            r.escalation_deadline or "-",
            ", ".join(c.jurisprudence_id for c in r.precedents_cited) or "-",
        )
    Console().print(table)


def _writing(
    config: Path | None, db: str | None, keys: Path | None, step: Any, as_json: bool
) -> None:
    accord = open_accord(config, db, keys)
    try:
        done = step(accord)
    except AccordError as exc:
        raise refused_exit(exc) from exc
    finally:
        accord.close()
    _print_disputes(done if isinstance(done, list) else [done], as_json)


@disputes_app.command("open")
def open_(
    file: Annotated[Path, typer.Argument(help="JSON or YAML: one filing, or an array of them.")],
    as_json: JsonOption = False,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """File the disputes in FILE (all of them, or none): type, severity, complainant,
    respondents, subject, evidence, optional start_at_appeal and conditions."""

    def step(accord: Accord) -> list[StoredDispute]:
        data = read_input_file(file, accord.config.settings.limits)
        return accord.disputes.open_many(objects_in(data, str(file), most=MAX_FILINGS_PER_CALL))

    _writing(config, db, keys, step, as_json)


@disputes_app.command("show")
def show(
    dispute_id: DisputeId,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Print one dispute as JSON: its signed §4 record, resolution and ledger entries."""
    accord = open_accord(
        config, db, keys, create_service_key=False, must_exist=True, read_only=True
    )
    try:
        found = accord.disputes.show(dispute_id)
    except AccordError as exc:
        raise refused_exit(exc) from exc
    finally:
        accord.close()
    print_json(found.to_json_dict())


@disputes_app.command("list")
def list_(
    status: Annotated[str | None, typer.Option("--status", help="open, negotiating, …")] = None,
    dispute_type: Annotated[str | None, typer.Option("--type", help="Dispute type.")] = None,
    severity: Annotated[str | None, typer.Option("--severity")] = None,
    tier: Annotated[str | None, typer.Option("--tier")] = None,
    party: Annotated[str | None, typer.Option("--party", help="Disputes of this agent.")] = None,
    after: Annotated[str | None, typer.Option("--after", help="Continue after this id.")] = None,
    limit: Annotated[
        int, typer.Option("--limit", help=f"Most disputes (1 to {MAX_PAGE}).")
    ] = DEFAULT_PAGE,
    as_json: JsonOption = False,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Disputes, oldest first, every given filter holding (``--after`` pages on)."""
    accord = open_accord(
        config, db, keys, create_service_key=False, must_exist=True, read_only=True
    )
    try:
        page = accord.disputes.list(
            status=status, dispute_type=dispute_type, severity=severity, tier=tier,
            party=party, after=after, limit=limit,
        )  # fmt: skip
    except AccordError as exc:
        raise refused_exit(exc) from exc
    finally:
        accord.close()
    if as_json:
        print_json(page.model_dump(mode="json"))
        return
    table = listing("dispute id", "type", "severity", "status", "tier", "complainant", "deadline")
    for s in page.items:
        table.add_row(
            s.dispute_id, s.dispute_type, s.severity, s.status, s.tier, s.complainant,
            s.escalation_deadline or "-",
        )  # fmt: skip
    console = Console()
    console.print(table)
    if page.next_after:
        console.print(f"more: --after {page.next_after}")


@disputes_app.command("evidence")
def evidence(
    dispute_id: DisputeId,
    file: Annotated[Path, typer.Argument(help="JSON or YAML: one evidence item, or an array.")],
    by: ById,
    as_json: JsonOption = False,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Submit party --by's evidence from FILE (content hashed; a given content_hash must match)."""

    def step(accord: Accord) -> StoredDispute:
        data = read_input_file(file, accord.config.settings.limits)
        items = objects_in(data, str(file), most=MAX_EVIDENCE_ITEMS)
        return accord.disputes.submit_evidence(dispute_id, items, by=by)

    _writing(config, db, keys, step, as_json)


@disputes_app.command("escalate")
def escalate(
    dispute_id: DisputeId,
    by: ById,
    to_tier: Annotated[
        str | None,
        typer.Option("--to", help="contextual_arbitration or human_appeal (default: next tier)."),
    ] = None,
    reason: Reason = "",
    as_json: JsonOption = False,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Party --by escalates the dispute (any party may go to human appeal at any time, R17)."""
    _writing(
        config, db, keys,
        lambda a: a.disputes.escalate(dispute_id, by=by, to_tier=to_tier, reason=reason),
        as_json,
    )  # fmt: skip


@disputes_app.command("withdraw")
def withdraw(
    dispute_id: DisputeId,
    by: ById,
    reason: Reason = "",
    as_json: JsonOption = False,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """The complainant --by withdraws its dispute (final)."""
    _writing(
        config, db, keys, lambda a: a.disputes.withdraw(dispute_id, by=by, reason=reason), as_json
    )


@disputes_app.command("export")
def export(
    dispute_id: DisputeId,
    session_nonce: Annotated[
        str | None,
        typer.Option("--session-nonce", help="64 hex characters (default: a fresh random one)."),
    ] = None,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Print the dispute as a reference-SDK dispute record (JSON), signed with the service key."""
    accord = open_accord(config, db, keys, must_exist=True)
    try:
        sdk = accord.disputes.export(
            dispute_id, session_nonce=session_nonce or secrets.token_hex(32)
        )
    except AccordError as exc:
        raise refused_exit(exc) from exc
    finally:
        accord.close()
    print_json(sdk)


@disputes_app.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="JSON: one reference-SDK dispute record.")],
    public_key: Annotated[
        Path | None,
        typer.Option("--public-key", help="The signer's *.pub.json (default: the service key)."),
    ] = None,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Check an SDK dispute record against the stored dispute it names; print the §4 record
    it describes (nothing is written)."""
    accord = open_accord(config, db, keys, must_exist=True)
    try:
        data = objects_in(read_input_file(file, accord.config.settings.limits), str(file), most=1)
        signer = None if public_key is None else read_public_key_file(public_key)
        record = accord.disputes.import_sdk(
            data[0],
            classical_public_key=None if signer is None else signer.public_key,
            pq_public_key=None if signer is None else signer.pq_public_key,
        )
    except AccordError as exc:
        raise refused_exit(exc) from exc
    finally:
        accord.close()
    print_json(record_document(record))
