"""Entry point of the ``accord`` command."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from accord.app import PASSPHRASE_ENV
from accord.cli import (
    api_key_commands,
    approval_commands,
    demo_service,
    dissent_commands,
    serve_command,
    session_commands,
    settle_commands,
)
from accord.cli.demo import demo_config, run_day
from accord.cli.logging_setup import configure_logging
from accord.cli.opening import open_accord
from accord.cli.options import ConfigOption, DbOption, JsonOption, KeysOption, default_config
from accord.cli.problems import report_problem
from accord.clock import SystemClock
from accord.config import load_config
from accord.crypto import Keyring, load_public_keys
from accord.errors import AccordError, VerificationFailed
from accord.ledger import ConsistencyProof, InclusionProof
from accord.store import resolve_database_url

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Accord: settle disagreements between AI agents, with a signed ledger.",
)


@app.callback()
def _root(
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Log info events to stderr.")
    ] = False,
) -> None:
    configure_logging(verbose)


ledger_app = typer.Typer(no_args_is_help=True, help="Read, prove and checkpoint the ledger.")
keys_app = typer.Typer(no_args_is_help=True, help="Manage signing keys.")
app.add_typer(ledger_app, name="ledger")
app.add_typer(keys_app, name="keys")
app.add_typer(settle_commands.eval_app, name="eval")
app.add_typer(dissent_commands.dissent_app, name="dissent")
app.add_typer(approval_commands.approvals_app, name="approvals")
app.add_typer(session_commands.session_app, name="session")
app.add_typer(session_commands.boundaries_app, name="boundaries")
app.command("sweep")(approval_commands.sweep)
app.command("settle")(settle_commands.settle)
app.command("cases")(settle_commands.cases)
app.command("case")(settle_commands.case)
app.command("report")(settle_commands.report)
app.command("serve")(serve_command.serve)
app.command("demo-service")(demo_service.demo_service)
keys_app.add_typer(api_key_commands.api_keys_app, name="api")


def out() -> Console:
    """Standard output, sized from the terminal at call time (no module-level console)."""
    return Console()


def err() -> Console:
    return Console(stderr=True)


def _fail(error: AccordError, code: int = 2) -> typer.Exit:
    report_problem("error", error)
    return typer.Exit(code)


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


@app.command()
def init(
    db: DbOption = None,
    keys: KeysOption = None,
    config: Annotated[Path, typer.Option("--config", "-c")] = Path("accord.yaml"),
) -> None:
    """Create the database, the service key and an example accord.yaml + org.yaml."""
    if not config.exists():
        example_org = files("accord").joinpath("examples/org.yaml").read_text(encoding="utf-8")
        org_path = config.with_name("org.yaml")
        if not org_path.exists():
            org_path.write_text(example_org, encoding="utf-8")
        config.write_text(
            "# Accord configuration; see README.md#configuration\n"
            "database:\n"
            f"  url: {resolve_database_url(db)}\n"
            "keys:\n"
            f"  directory: {keys or 'accord-keys'}\n"
            "  service_key: service\n"
            "ledger:\n"
            "  checkpoint_every: 1024\n"
            "org: org.yaml\n",
            encoding="utf-8",
        )
        out().print(f"wrote {config} and {org_path}")
    accord = open_accord(config, db, keys)
    service = accord.keyring.info(accord.config.settings.keys.service_key)
    out().print(f"database ready: {accord.db.url.render_as_string(hide_password=True)}")
    out().print(f"service key {service.name} (kid {service.kid}) in {accord.keyring.directory}")
    accord.close()


@app.command()
def verify(
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    workers: Annotated[
        int | None, typer.Option(min=1, help="Worker processes (default: all cores).")
    ] = None,
    as_json: JsonOption = False,
    skip_cases: Annotated[
        bool,
        typer.Option("--skip-cases", help="Verify the ledger only, not the case tables."),
    ] = False,
) -> None:
    """Verify every entry, link, signature and checkpoint, then the case tables against them.

    Exit 0 when the whole ledger verifies; exit 1 naming the first bad entry.
    """
    accord = open_accord(config, db, keys, create_service_key=False, must_exist=True)
    try:
        report = accord.verify(workers=workers, cases=not skip_cases)
    except VerificationFailed as exc:
        if as_json:
            _print_json({"verified": False, **exc.to_dict()})
        else:
            if "case_id" in exc.context:
                report_problem("NOT VERIFIED", exc.message)
            else:
                seq = exc.context.get("seq")
                report_problem(
                    "NOT VERIFIED",
                    f"first bad entry: {seq} ({exc.context.get('field')}): {exc.message}",
                )
        raise typer.Exit(1) from exc
    finally:
        accord.close()
    if as_json:
        _print_json({"verified": True, **report.model_dump()})
        return
    out().print(
        f"[bold green]VERIFIED[/] {report.entries} entries, {report.checkpoints} checkpoints, "
        f"{report.cases} case(s) matching their signed records, "
        f"{len(report.signer_kids)} signer(s), {report.workers} worker(s), "
        f"{report.seconds:.2f}s"
    )
    out().print(f"head {report.head_hash}\nroot {report.root_hash}")


@ledger_app.command("tail")
def ledger_tail(
    count: Annotated[int, typer.Option("-n", min=1)] = 10,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show the newest entries."""
    accord = open_accord(config, db, keys, create_service_key=False, must_exist=True)
    entries = accord.ledger.tail(count)
    accord.close()
    if as_json:
        _print_json([e.to_json_dict() for e in entries])
        return
    table = Table("seq", "event", "time", "signer", "entry hash")
    for e in entries:
        table.add_row(
            str(e.seq), e.event_type, e.timestamp, e.signer_kid[:12], e.entry_hash[:23] + "…"
        )
    out().print(table)


@ledger_app.command("show")
def ledger_show(
    seq: int, db: DbOption = None, keys: KeysOption = None, config: ConfigOption = None
) -> None:
    """Print entry SEQ as JSON."""
    accord = open_accord(config, db, keys, create_service_key=False, must_exist=True)
    try:
        entry = accord.ledger.get(seq)
    except AccordError as exc:
        raise _fail(exc, 1) from exc
    finally:
        accord.close()
    _print_json({**entry.to_json_dict(), "entry_hash": entry.entry_hash})


@ledger_app.command("proof")
def ledger_proof(
    seq: int,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    output: Annotated[Path | None, typer.Option("--out")] = None,
) -> None:
    """Print (or save) an inclusion proof for entry SEQ, checkable offline."""
    accord = open_accord(config, db, keys)
    try:
        proof = accord.ledger.inclusion_proof(seq)
    except AccordError as exc:
        raise _fail(exc, 1) from exc
    finally:
        accord.close()
    text = proof.model_dump_json(indent=2)
    if output:
        output.write_text(text + "\n", encoding="utf-8")
        out().print(f"inclusion proof for entry {seq} written to {output}")
    else:
        sys.stdout.write(text + "\n")


@ledger_app.command("checkpoint")
def ledger_checkpoint(
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    output: Annotated[Path | None, typer.Option("--out")] = None,
) -> None:
    """Sign a checkpoint over the whole ledger now and print it."""
    accord = open_accord(config, db, keys)
    try:
        checkpoint = accord.ledger.checkpoint()
    except AccordError as exc:
        raise _fail(exc, 1) from exc
    finally:
        accord.close()
    text = json.dumps(checkpoint.to_json_dict(), indent=2)
    if output:
        output.write_text(text + "\n", encoding="utf-8")
    sys.stdout.write(text + "\n")


@ledger_app.command("consistency")
def ledger_consistency(
    old_size: int,
    new_size: Annotated[int | None, typer.Argument()] = None,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Print a consistency proof between two checkpoints (newest by default)."""
    accord = open_accord(config, db, keys, create_service_key=False, must_exist=True)
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
) -> None:
    """Check an inclusion or consistency proof offline with only public keys. Exit 1 if invalid."""
    try:
        data = json.loads(proof_file.read_text(encoding="utf-8"))
        keys = load_public_keys(public_keys)
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
    loaded = load_config(default_config(config))
    directory = Path(keys or os.environ.get("ACCORD_KEYS") or loaded.keys_directory())
    infos = Keyring(directory, SystemClock()).list()
    if as_json:
        _print_json([i.model_dump() for i in infos])
        return
    table = Table("name", "alg", "kid", "post-quantum", "encrypted", "created")
    for i in infos:
        table.add_row(
            i.name, i.alg, i.kid, i.pq_kid or "-", "yes" if i.encrypted else "no", i.created_at
        )
    out().print(table)


@keys_app.command("new")
def keys_new(
    name: str,
    keys: KeysOption = None,
    config: ConfigOption = None,
    pq: Annotated[
        bool, typer.Option("--pq", help="Add an ML-DSA-65 key for composite signatures.")
    ] = False,
    encrypt: Annotated[
        bool, typer.Option("--encrypt", help=f"Encrypt with ${PASSPHRASE_ENV}.")
    ] = False,
) -> None:
    """Create a key for one signer (agent, arbitrator, reviewer, service)."""
    loaded = load_config(default_config(config))
    directory = Path(keys or os.environ.get("ACCORD_KEYS") or loaded.keys_directory())
    passphrase = os.environ.get(PASSPHRASE_ENV) if encrypt else None
    if encrypt and not passphrase:
        report_problem("error", f"--encrypt needs the passphrase in ${PASSPHRASE_ENV}")
        raise typer.Exit(2)
    try:
        info = Keyring(directory, SystemClock()).create(name, passphrase=passphrase, with_pq=pq)
    except AccordError as exc:
        raise _fail(exc) from exc
    out().print(
        f"created key {info.name}: {info.alg} kid {info.kid}"
        + (f", ml-dsa-65 kid {info.pq_kid}" if info.pq_kid else "")
    )


@app.command()
def demo(
    db: DbOption = None,
    keys: KeysOption = None,
    fresh: Annotated[
        bool, typer.Option("--fresh", help="Start from an empty SQLite file.")
    ] = False,
) -> None:
    """Settle a day of agent disagreements through the real API and print the verified ledger."""
    url = resolve_database_url(db)
    if fresh:
        if not url.startswith("sqlite:///"):
            report_problem("error", "--fresh only deletes SQLite files")
            raise typer.Exit(2)
        path = Path(url.removeprefix("sqlite:///"))
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        if keys is not None and keys.exists():
            shutil.rmtree(keys)
    with tempfile.TemporaryDirectory() as tmp:
        accord = open_accord(demo_config(Path(tmp)), url, keys)
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
    table = Table("case", "status", "decided by", "winner", "answer", "tier", "tokens")
    for c in cases:
        decision = c.decision
        table.add_row(
            c.subject,
            c.status.value,
            (decision.rung if decision else "-") or "-",
            (decision.winner if decision else None) or "-",
            json.dumps(decision.answer)[:40] if decision else "-",
            c.tier.value,
            str(c.tokens_in + c.tokens_out),
        )
    out().print(table)
    out().print(
        f"parked task of {resumed.get('agent')} resumed with decision "
        f"{resumed.get('decision')!r} and its context {resumed.get('context')}"
    )
    events = Table("event type", "entries", title="Accord ledger")
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


def main() -> None:  # pragma: no cover - console entry point
    app()
