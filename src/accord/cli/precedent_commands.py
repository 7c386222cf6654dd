"""`accord precedents`: search, show, export and add jurisprudence bundles (DCP-07 §7).

Bundles will be made by the dispute lifecycle for every resolved dispute; until then
``accord precedents add FILE`` (or ``PrecedentStore.add``) is how they enter the registry.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from accord.cli.opening import open_accord
from accord.cli.options import ConfigOption, DbOption, JsonOption, KeysOption
from accord.cli.problems import refused_exit, report_problem
from accord.cli.tables import listing, print_json, text_cell
from accord.crypto import load_public_keys
from accord.errors import AccordError, VerificationFailed
from accord.precedents import (
    DEFAULT_LIMIT,
    MAX_LIMIT,
    JurisprudenceBundle,
    Precedent,
    read_draft_file,
    verify_registry,
)

precedents_app = typer.Typer(
    no_args_is_help=True, help="Jurisprudence bundles (precedents): search, show, export, add."
)


@precedents_app.command("search")
def search(
    dispute_type: Annotated[
        str,
        typer.Option(
            "--type",
            help="Dispute type: resource_conflict | directive_conflict | capability_conflict "
            "| policy_conflict.",
        ),
    ],
    condition: Annotated[
        list[str] | None,
        typer.Option(
            "--condition",
            help="A condition that holds, as a sentence (repeatable): a bundle matches when "
            "any one is among its applicable conditions and none among its "
            "inapplicable ones; case and whitespace do not matter.",
        ),
    ] = None,
    limit: Annotated[
        int, typer.Option("--limit", help=f"Most results (1 to {MAX_LIMIT}).")
    ] = DEFAULT_LIMIT,
    as_json: JsonOption = False,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Precedents applying to a dispute: highest authority first (human_appeal,
    contextual_arbitration, direct_negotiation), then the most recent; superseded ones last."""
    accord = open_accord(
        config, db, keys, create_service_key=False, must_exist=True, read_only=True
    )
    try:
        found = accord.precedents.search(dispute_type, condition or (), limit=limit)
    except AccordError as exc:
        raise refused_exit(exc) from exc
    finally:
        accord.close()
    if as_json:
        print_json([p.to_json_dict() for p in found])
        return
    table = listing("jurisprudence id", "authority", "created", "holding", "superseded by")
    for p in found:
        table.add_row(
            p.jurisprudence_id,
            p.bundle.authority_level.value,
            p.bundle.created_at,
            text_cell(p.bundle.summary.holding, 120),
            ", ".join(p.superseded_by) or "-",
        )
    Console().print(table)


@precedents_app.command("show")
def show(
    jurisprudence_id: Annotated[str, typer.Argument(help="jur:<uuid>")],
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Print one bundle as JSON, with the derived superseded_by."""
    accord = open_accord(
        config, db, keys, create_service_key=False, must_exist=True, read_only=True
    )
    try:
        found: Precedent = accord.precedents.get(jurisprudence_id)
    except AccordError as exc:
        raise refused_exit(exc) from exc
    finally:
        accord.close()
    print_json(found.to_json_dict())


@precedents_app.command("export")
def export(
    jurisprudence_id: Annotated[str, typer.Argument(help="jur:<uuid>")],
    session_nonce: Annotated[
        str | None,
        typer.Option("--session-nonce", help="64 hex characters (default: a fresh random one)."),
    ] = None,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Print one bundle as a reference-SDK (dcp-ai v2) jurisprudence bundle, signed by the
    service key; what the SDK format has no field for is left out (docs/disputes.md)."""
    accord = open_accord(config, db, keys, must_exist=True)
    try:
        sdk = accord.export_precedent(
            jurisprudence_id, session_nonce=session_nonce or secrets.token_hex(32)
        )
    except AccordError as exc:
        raise refused_exit(exc) from exc
    finally:
        accord.close()
    print_json(sdk)


@precedents_app.command("add")
def add(
    file: Annotated[Path, typer.Argument(help="JSON: one bundle draft, or an array of drafts.")],
    as_json: JsonOption = False,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Validate the drafts in FILE, sign each with the service key and add them all to the
    registry (all or none)."""
    accord = open_accord(config, db, keys)
    try:
        drafts = read_draft_file(file, accord.config.settings.limits)
        added: list[JurisprudenceBundle] = accord.precedents.add_many(drafts)
    except AccordError as exc:
        raise refused_exit(exc) from exc
    finally:
        accord.close()
    if as_json:
        print_json([b.document() for b in added])
        return
    table = listing("jurisprudence id", "dispute", "authority", "supersedes")
    for b in added:
        table.add_row(
            b.jurisprudence_id,
            b.dispute_id,
            b.authority_level.value,
            ", ".join(b.supersedes) or "-",
        )
    Console().print(table)


@precedents_app.command("verify")
def verify(
    public_keys: Annotated[
        Path | None,
        typer.Option(
            "--public-keys",
            help="Also trust the signers whose *.pub.json files are in this folder (panel "
            "leads); by default only the service key is trusted.",
        ),
    ] = None,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Check every bundle's signature, chain link, stored columns and index rows.

    Exit 0 when the registry verifies; 1 naming the first bundle or row that does not; 2 when
    the input is unusable."""
    accord = open_accord(
        config, db, keys, create_service_key=False, must_exist=True, read_only=True
    )
    try:
        root = accord.trust_root()
        trusted = {root.kid: root.public_key}
        if public_keys is not None:
            trusted.update(load_public_keys(public_keys))
        count = verify_registry(accord.db, trusted)
    except VerificationFailed as exc:
        report_problem("NOT VERIFIED", exc)
        raise typer.Exit(1) from exc
    except AccordError as exc:
        raise refused_exit(exc) from exc
    finally:
        accord.close()
    Console().print(
        f"[bold green]VERIFIED[/] {count} jurisprudence bundle(s): signatures by "
        f"{len(trusted)} trusted key(s), chain from GENESIS, search index and supersession "
        "edges as the bundles say"
    )
