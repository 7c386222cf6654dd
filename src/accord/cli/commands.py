"""The ``accord`` commands, loaded by :mod:`accord.cli.main` only when one runs."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from accord.app import PASSPHRASE_ENV
from accord.cli import (
    api_key_commands,
    approval_commands,
    collect_commands,
    demo_service,
    dispute_commands,
    dispute_tier_commands,
    dissent_commands,
    init_command,
    mcp_command,
    precedent_commands,
    prepared_commands,
    prose_eval_command,
    receipt_command,
    serve_command,
    session_commands,
    settle_commands,
    sweep_command,
    verify_command,
    webhook_commands,
)
from accord.cli.demo import demo_config, run_day
from accord.cli.demo_files import DemoPaths, remove_demo_files
from accord.cli.dispute_rule_commands import add_rule_commands
from accord.cli.key_commands import register_new_key
from accord.cli.opening import open_accord
from accord.cli.options import (
    ConfigOption,
    DbOption,
    JsonOption,
    KeysOption,
    default_config,
    key_directory,
)
from accord.cli.problems import exit_with, report_problem
from accord.cli.schema_commands import schema_app
from accord.cli.tables import json_cell, listing, print_json, text_cell
from accord.clock import SystemClock
from accord.config import load_config
from accord.crypto import Keyring, load_public_keys
from accord.errors import AccordError, VerificationFailed
from accord.ledger import (
    ConsistencyProof,
    InclusionProof,
    TrustRoot,
    checkpoint_file_text,
    write_checkpoint_file,
)
from accord.safe_files import refuse_existing, write_text_file
from accord.store import resolve_database_url

app = typer.Typer(add_completion=False, no_args_is_help=True)


ledger_app = typer.Typer(no_args_is_help=True, help="Read, prove and checkpoint the ledger.")
keys_app = typer.Typer(no_args_is_help=True, help="Manage signing keys.")
app.add_typer(ledger_app, name="ledger")
app.add_typer(keys_app, name="keys")
prose_eval_command.register(settle_commands.eval_app)
app.add_typer(settle_commands.eval_app, name="eval")
app.add_typer(dissent_commands.dissent_app, name="dissent")
app.add_typer(approval_commands.approvals_app, name="approvals")
app.add_typer(session_commands.session_app, name="session")
app.add_typer(session_commands.boundaries_app, name="boundaries")
app.add_typer(schema_app, name="schema")
app.add_typer(precedent_commands.precedents_app, name="precedents")
app.add_typer(collect_commands.collect_app, name="collect")
dispute_tier_commands.register(dispute_commands.disputes_app)
prepared_commands.register(dispute_commands.disputes_app)
add_rule_commands(dispute_commands.disputes_app)
app.add_typer(dispute_commands.disputes_app, name="disputes")
app.add_typer(webhook_commands.webhooks_app, name="webhooks")
app.command("sweep")(sweep_command.sweep)
app.command("settle")(settle_commands.settle)
app.command("cases")(settle_commands.cases)
app.command("case")(settle_commands.case)
app.command("report")(settle_commands.report)
app.command("init")(init_command.init)
app.command("serve")(serve_command.serve)
app.command("mcp")(mcp_command.mcp)
app.command("receipt")(receipt_command.receipt)
app.command("demo-service")(demo_service.demo_service)
app.command("verify")(verify_command.verify)
keys_app.add_typer(api_key_commands.api_keys_app, name="api")


def out() -> Console:
    """Standard output, sized from the terminal at call time (no module-level console)."""
    return Console()


def err() -> Console:
    return Console(stderr=True)


def _fail(error: AccordError, code: int = 2) -> typer.Exit:
    return exit_with(error, code)


ForceOption = Annotated[
    bool, typer.Option("--force", help="Overwrite the --out file if it exists.")
]


def _refuse_existing(path: Path | None, force: bool) -> None:
    """Exit 2 naming ``path`` when it exists and ``--force`` was not given (checked before
    any work is done)."""
    if path is not None:
        try:
            refuse_existing(path, force=force)
        except AccordError as exc:
            raise _fail(exc) from exc


@ledger_app.command("tail")
def ledger_tail(
    count: Annotated[int, typer.Option("-n", min=1)] = 10,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show the newest entries."""
    accord = open_accord(
        config, db, keys, create_service_key=False, must_exist=True, read_only=True
    )
    entries = accord.ledger.tail(count)
    accord.close()
    if as_json:
        print_json([e.to_json_dict() for e in entries])
        return
    table = listing("seq", "event", "time", "signer", "entry hash")
    for e in entries:
        table.add_row(str(e.seq), e.event_type, e.timestamp, e.signer_kid, e.entry_hash)
    out().print(table)


@ledger_app.command("show")
def ledger_show(
    seq: int, db: DbOption = None, keys: KeysOption = None, config: ConfigOption = None
) -> None:
    """Print entry SEQ as JSON."""
    accord = open_accord(
        config, db, keys, create_service_key=False, must_exist=True, read_only=True
    )
    try:
        entry = accord.ledger.get(seq)
    except AccordError as exc:
        raise _fail(exc, 1) from exc
    finally:
        accord.close()
    print_json({**entry.to_json_dict(), "entry_hash": entry.entry_hash})


@ledger_app.command("proof")
def ledger_proof(
    seq: int,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    output: Annotated[Path | None, typer.Option("--out")] = None,
    force: ForceOption = False,
) -> None:
    """Print (or save) an inclusion proof for entry SEQ, checkable offline."""
    _refuse_existing(output, force)
    accord = open_accord(config, db, keys, read_only=True)
    try:
        proof = accord.ledger.inclusion_proof(seq)
    except AccordError as exc:
        raise _fail(exc, 1) from exc
    finally:
        accord.close()
    text = proof.model_dump_json(indent=2)
    if output:
        try:
            write_text_file(output, text + "\n", force=force)
        except AccordError as exc:
            raise _fail(exc) from exc
        out().print(f"inclusion proof for entry {seq} written to {output}")
    else:
        sys.stdout.write(text + "\n")


@ledger_app.command("checkpoint")
def ledger_checkpoint(
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Also write it to FILE, to keep outside the database (a trusted checkpoint "
            "for `accord verify --trusted-checkpoint`).",
        ),
    ] = None,
    force: ForceOption = False,
) -> None:
    """Sign a checkpoint over the whole ledger now and print it."""
    _refuse_existing(output, force)
    accord = open_accord(config, db, keys, read_only=True)
    try:
        checkpoint = accord.ledger.checkpoint()
        root = accord.trust_root().kid
    except AccordError as exc:
        raise _fail(exc, 1) from exc
    finally:
        accord.close()
    if output:
        try:
            write_checkpoint_file(output, checkpoint, force=force, trust_root=root)
        except AccordError as exc:
            raise _fail(exc) from exc
    sys.stdout.write(checkpoint_file_text(checkpoint, root))


@ledger_app.command("consistency")
def ledger_consistency(
    old_size: int,
    new_size: Annotated[int | None, typer.Argument()] = None,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Print a consistency proof between two checkpoints (newest by default)."""
    accord = open_accord(
        config, db, keys, create_service_key=False, must_exist=True, read_only=True
    )
    try:
        proof = accord.ledger.consistency_proof(old_size, new_size)
    except AccordError as exc:
        raise _fail(exc, 1) from exc
    finally:
        accord.close()
    sys.stdout.write(proof.model_dump_json(indent=2) + "\n")


@ledger_app.command("check-proof")
def ledger_check_proof(
    proof_file: Path,
    public_keys: Annotated[
        Path, typer.Option("--public-keys", help="Directory of *.pub.json files.")
    ],
    signer: Annotated[
        str,
        typer.Option(
            "--signer",
            help="The kid of the service key to trust: the proof's checkpoints must be "
            "signed by it (no other key in the folder is trusted by being there).",
        ),
    ],
) -> None:
    """Check an inclusion or consistency proof offline with only public keys, trusting only
    the service key --signer. Exit 1 if invalid, 2 for unusable input."""
    try:
        data = json.loads(proof_file.read_text(encoding="utf-8"))
        root = TrustRoot.from_public_keys(load_public_keys(public_keys), signer)
        keys = {root.kid: root.public_key}
        if "audit_path" in data:
            checkpoint = InclusionProof.model_validate(data).verify(keys)
            out().print(
                f"[green]valid[/] entry {data['leaf_index'] + 1} is in the tree of "
                f"size {checkpoint.tree_size} (root {checkpoint.root_hash})"
            )
        else:
            ConsistencyProof.model_validate(data).verify(keys)
            out().print("[green]valid[/] the newer checkpoint extends the older one")
    except VerificationFailed as exc:
        raise _fail(exc, 1) from exc
    except (AccordError, ValueError, OSError) as exc:
        report_problem("error", f"cannot read proof: {exc}")
        raise typer.Exit(2) from exc


@keys_app.command("list")
def keys_list(
    keys: KeysOption = None, config: ConfigOption = None, as_json: JsonOption = False
) -> None:
    """List the keys in the key directory."""
    try:
        loaded = load_config(default_config(config))
        infos = Keyring(key_directory(loaded, keys), SystemClock()).list()
    except AccordError as exc:
        raise _fail(exc) from exc
    if as_json:
        print_json([i.model_dump() for i in infos])
        return
    table = listing("name", "alg", "post-quantum", "encrypted", "created")
    table.add_column("kid", no_wrap=True, min_width=32)  # on one line, to copy whole
    for i in infos:
        table.add_row(
            i.name, i.alg, i.pq_kid or "-", "yes" if i.encrypted else "no", i.created_at, i.kid
        )
    out().print(table)


@keys_app.command("new")
def keys_new(
    name: Annotated[
        str | None, typer.Argument(help="Key name (default with --role: ROLE-PRINCIPAL).")
    ] = None,
    role: Annotated[
        str | None,
        typer.Option(
            help="Register the key in the ledger for a role: reviewer | arbitrator | service."
        ),
    ] = None,
    principal: Annotated[
        str | None,
        typer.Option(help="Whose key (reviewer/arbitrator), e.g. human:alice."),
    ] = None,
    keys: KeysOption = None,
    db: DbOption = None,
    config: ConfigOption = None,
    pq: Annotated[
        bool, typer.Option("--pq", help="Add an ML-DSA-65 key for composite signatures.")
    ] = False,
    encrypt: Annotated[
        bool, typer.Option("--encrypt", help=f"Encrypt with ${PASSPHRASE_ENV}.")
    ] = False,
) -> None:
    """Create a key for one signer; with --role, register it in the ledger (a signed
    key_registered entry by the service key)."""
    passphrase = os.environ.get(PASSPHRASE_ENV)
    if encrypt and not passphrase:
        report_problem("error", f"--encrypt needs the passphrase in ${PASSPHRASE_ENV}")
        raise typer.Exit(2)
    if role is None:
        if name is None or principal is not None:
            report_problem("error", "give NAME (and --principal only with --role)")
            raise typer.Exit(2)
        try:
            loaded = load_config(default_config(config))
            directory = key_directory(loaded, keys)
            keyring = Keyring(
                directory,
                SystemClock(),
                allow_unsafe_permissions=loaded.settings.keys.allow_unsafe_permissions,
            )
            info = keyring.create(name, passphrase=passphrase if encrypt else None, with_pq=pq)
        except AccordError as exc:
            raise _fail(exc) from exc
    else:
        accord = open_accord(config, db, keys)
        try:
            info = register_new_key(accord, name, role, principal, passphrase, with_pq=pq)
        except AccordError as exc:
            raise _fail(exc) from exc
        finally:
            accord.close()
    out().print(
        f"created key {info.name}: {info.alg} kid {info.kid}"
        + (f", ml-dsa-65 kid {info.pq_kid}" if info.pq_kid else "")
        + (f", registered as {role}" if role else "")
        + (f" for {principal}" if principal else "")
    )


@app.command()
def demo(
    db: DbOption = None,
    keys: KeysOption = None,
    fresh: Annotated[
        bool,
        typer.Option(
            "--fresh",
            help="Start from an empty SQLite file: remove the database and the --keys files "
            "an earlier demo created (never a database or folder the demo did not create).",
        ),
    ] = False,
) -> None:
    """Settle a day of agent disagreements through the real API and print the verified ledger."""
    url = resolve_database_url(db or os.environ.get("ACCORD_DB"))
    database = Path(url.removeprefix("sqlite:///")) if url.startswith("sqlite:///") else None
    if fresh:
        if database is None:
            report_problem("error", "--fresh only removes SQLite files")
            raise typer.Exit(2)
        try:
            remove_demo_files(database, keys)
        except AccordError as exc:
            raise _fail(exc) from exc
    created = None if database is None else DemoPaths.before_run(database, keys)
    with tempfile.TemporaryDirectory() as tmp:
        accord = open_accord(demo_config(Path(tmp)), url, keys)
        if created is not None:
            created.mark_created()
        try:
            cases, resumed = run_day(accord)
            checkpoint = accord.ledger.checkpoint()
            report = accord.verify()
            proof = accord.ledger.inclusion_proof(cases[0].ledger_seqs[-1])
            proof.verify(accord.keyring.trusted_public_keys())
            counts = accord.ledger.count_by_event_type()
        except AccordError as exc:
            raise _fail(exc, 1) from exc
        finally:
            accord.close()
    table = listing("case", "status", "decided by", "winner", "answer", "tier", "tokens")
    for c in cases:
        decision = c.decision
        table.add_row(
            c.subject,
            c.status.value,
            (decision.rung if decision else "-") or "-",
            (decision.winner if decision else None) or "-",
            text_cell(json_cell(decision.answer), 40) if decision else "-",
            c.tier.value,
            str(c.tokens_in + c.tokens_out),
        )
    out().print(table)
    out().print(
        f"parked task of {resumed.get('agent')} resumed with decision "
        f"{resumed.get('decision')!r} and its context {resumed.get('context')}"
    )
    events = listing("event type", "entries", title="Accord ledger")
    for event_type, n in sorted(counts.items()):
        events.add_row(event_type, str(n))
    out().print(events)
    out().print(
        f"[bold green]VERIFIED[/] {report.entries} signed entries, hash chain from GENESIS, "
        f"{report.checkpoints} signed checkpoint(s); newest covers {checkpoint.tree_size}"
    )
    out().print(f"head  {report.head_hash}\nroot  {report.root_hash}")
    out().print(f"signer kid(s): {', '.join(report.signer_kids)}")
    out().print(
        f"inclusion proof for entry {cases[0].ledger_seqs[-1]} (the invoice resolution) "
        "checked offline: valid"
    )
