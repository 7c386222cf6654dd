"""`accord verify`: its own module, light at import, so that `accord verify --help` does not
load the library (the work is imported when the command runs)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from accord.cli.options import ConfigOption, DbOption, JsonOption, KeysOption
from accord.cli.problems import exit_with, report_problem
from accord.cli.tables import print_json

if TYPE_CHECKING:
    from accord.errors import VerificationFailed
    from accord.ledger import VerificationReport


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
        typer.Option(
            "--skip-cases",
            help="Verify the ledger only, not the stored tables (cases, approvals, boundaries, "
            "stays, precedents).",
        ),
    ] = False,
    trusted_checkpoint: Annotated[
        Path | None,
        typer.Option(
            "--trusted-checkpoint",
            help="A checkpoint file kept outside the database (`ledger checkpoint --out`): "
            "also prove that no entry at or below its size was removed or altered.",
        ),
    ] = None,
    public_keys: Annotated[
        Path | None,
        typer.Option(
            "--public-keys",
            help="Auditor mode: a folder of *.pub.json files; no private key, passphrase or "
            "accord.yaml is read (needs --signer).",
        ),
    ] = None,
    signer: Annotated[
        str | None,
        typer.Option("--signer", help="Auditor mode: the kid of the service key to trust."),
    ] = None,
    allow_unsafe_key_permissions: Annotated[
        bool,
        typer.Option(
            "--allow-unsafe-key-permissions",
            help="Only warn about a key folder writable by group/other.",
        ),
    ] = False,
) -> None:
    """Verify every entry, link, signature and checkpoint against the pinned service key and
    the keys it registered, then the case tables against them.

    Exit 0 when the whole ledger verifies; exit 1 naming the first bad entry, checkpoint or
    case; exit 2 when the input is unusable (no database, a missing table, a bad file, no such
    key, unsafe key permissions).
    """
    from accord.audit import verify_ledger
    from accord.cli.opening import open_accord
    from accord.errors import AccordError
    from accord.ledger import read_anchor_file

    if (public_keys is None) != (signer is None):
        report_problem("invalid input", "--public-keys and --signer go together")
        raise typer.Exit(2)
    anchor, pinned = None, None
    if trusted_checkpoint is not None:
        try:
            anchor, pinned = read_anchor_file(trusted_checkpoint)
        except AccordError as exc:
            raise exit_with(exc) from exc
    if public_keys is not None and signer is not None:
        _report_verification(
            lambda: verify_ledger(
                db or os.environ.get("ACCORD_DB"),
                public_keys,
                signer,
                workers=workers,
                cases=not skip_cases,
                allow_unsafe_permissions=allow_unsafe_key_permissions,
                trusted_checkpoint=anchor,
            ),
            as_json,
        )
        return
    accord = open_accord(
        config, db, keys, create_service_key=False, must_exist=True, read_only=True
    )
    try:
        if not accord.trust_root_pinned() and pinned is None:
            _warn_unpinned(accord.ledger.signer.kid, anchor is not None)
        _report_verification(
            lambda: accord.verify(
                workers=workers,
                cases=not skip_cases,
                trusted_checkpoint=anchor,
                trust_root=pinned,
            ),
            as_json,
        )
    finally:
        accord.close()


def _warn_unpinned(kid: str, anchored: bool) -> None:
    """The loud warning of a verification that pins no trust root (stderr, JSON or not)."""
    caught = (
        "the trusted checkpoint still catches a rewrite of the entries it covers"
        if anchored
        else "a ledger re-signed under a replaced service.key.json still prints VERIFIED"
    )
    Console(stderr=True).print(
        "[bold red]WARNING[/] accord.yaml pins no trust root (keys.trust_root): this "
        f"verification trusts whatever service key the key folder holds now (kid {kid}), so "
        f"{caught}. Fix: check that kid against one you kept elsewhere, then add "
        f"`trust_root: {kid}` under `keys:` in accord.yaml (or verify with "
        "--public-keys DIR --signer KID).",
        markup=True,
        highlight=False,
        soft_wrap=True,
    )


def _report_verification(run: Callable[[], VerificationReport], as_json: bool) -> None:
    """Run a verification; print VERIFIED (exit 0), NOT VERIFIED (exit 1), or the problem with
    the input (exit 2: a damaged database such as ``store.missing_table``, a bad key...)."""
    from accord.errors import AccordError, VerificationFailed

    try:
        report = run()
    except VerificationFailed as exc:
        _not_verified(exc, as_json)
        raise typer.Exit(1) from exc
    except AccordError as exc:
        if as_json:
            print_json({"verified": False, **exc.to_dict()})
        raise exit_with(exc) from exc
    _verified(report, as_json)


def _not_verified(exc: VerificationFailed, as_json: bool) -> None:
    if as_json:
        print_json({"verified": False, **exc.to_dict()})
    else:
        from accord.cli.not_verified import describe_failure

        text = describe_failure(exc)
        tag = f"[{exc.code}]"
        report_problem("NOT VERIFIED", text if tag in text else f"{text} {tag}")


def _verified(report: VerificationReport, as_json: bool) -> None:
    if as_json:
        print_json({"verified": True, **report.model_dump()})
        return
    Console().print(
        f"[bold green]VERIFIED[/] {report.entries} entries, {report.checkpoints} checkpoints, "
        f"{report.cases} case(s) and {report.disputes} dispute(s) matching their signed "
        "records, "
        f"{len(report.signer_kids)} signer(s) trusted from {report.trust_root}, "
        f"{report.signed_decisions} reviewer-signed decision(s), "
        f"{report.workers} worker(s), {report.seconds:.2f}s"
    )
    if report.os_login_decisions:
        Console().print(
            f"[yellow]{report.os_login_decisions} decision(s) taken from the OS login carry no "
            "reviewer signature[/]"
        )
    if report.unproved_shown:
        Console().print(
            f"[yellow]{report.unproved_shown} approval item(s) predate signing what reviewers "
            "are shown: their summary, analysis and the positions' text are not proved[/]"
        )
    Console().print(f"head {report.head_hash}\nroot {report.root_hash}")
