"""``accord receipt``: a decided approval item's signed receipt, and checking one offline.

``accord receipt ITEM_ID`` prints the receipt (``--json`` the whole document, ``--out FILE``
saves it); ``accord receipt --verify FILE --public-keys DIR --signer KID`` checks a receipt
with public keys only: its ledger entry's signature and inclusion proof, then every field
against that signed entry (exit 1 naming the first field that does not match).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from accord.audit import DecisionReceipt
from accord.cli.opening import open_accord
from accord.cli.options import ConfigOption, DbOption, JsonOption, KeysOption
from accord.cli.problems import report_problem
from accord.cli.tables import listing, print_json, text_cell
from accord.crypto import load_public_keys
from accord.errors import AccordError, ValidationError, VerificationFailed
from accord.ledger import TrustRoot
from accord.safe_files import refuse_existing, write_text_file


def receipt(
    item_id: Annotated[str | None, typer.Argument(help="The decided approval item.")] = None,
    verify: Annotated[
        Path | None, typer.Option("--verify", help="Check the receipt in FILE offline.")
    ] = None,
    public_keys: Annotated[
        Path | None, typer.Option("--public-keys", help="Directory of *.pub.json files.")
    ] = None,
    signer: Annotated[
        str | None, typer.Option("--signer", help="The kid of the service key to trust.")
    ] = None,
    output: Annotated[Path | None, typer.Option("--out", help="Also save it to FILE.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite --out.")] = False,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Print a decided approval item's signed receipt, or check one offline (--verify)."""
    try:
        if verify is not None:
            _verify(verify, public_keys, signer, item_id)
            return
        if item_id is None:
            raise ValidationError(
                "name the decided approval item, or --verify FILE",
                code="cli.bad_arguments",
                field="item_id",
                rule="ITEM_ID or --verify FILE",
            )
        if output is not None:
            refuse_existing(output, force=force)
        accord = open_accord(
            config, db, keys, create_service_key=False, must_exist=True, read_only=True
        )
        try:
            found = accord.receipt(item_id)
        finally:
            accord.close()
        if output is not None:
            write_text_file(output, found.model_dump_json(indent=2) + "\n", force=force)
    except VerificationFailed as exc:
        report_problem("error", exc)
        raise typer.Exit(1) from exc
    except AccordError as exc:
        report_problem("error", exc)
        raise typer.Exit(1 if exc.code == "approvals.pending" else 2) from exc
    if as_json:
        print_json(found.model_dump(mode="json"))
        return
    table = listing("field", "value")
    for name, value in found.model_dump(mode="json", exclude={"proof"}).items():
        table.add_row(name, text_cell(None if value is None else str(value), limit=2000))
    Console().print(table)


def _verify(path: Path, public_keys: Path | None, signer: str | None, item_id: str | None) -> None:
    if public_keys is None or signer is None or item_id is not None:
        raise ValidationError(
            "--verify FILE needs --public-keys DIR and --signer KID (and no ITEM_ID)",
            code="cli.bad_arguments",
            field="--verify",
            rule="--verify FILE --public-keys DIR --signer KID",
        )
    try:
        document = DecisionReceipt.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        raise ValidationError(
            f"cannot read the receipt {path}: {exc}",
            code="receipt.unreadable",
            field="--verify",
            rule="a receipt as `accord receipt ITEM_ID --json` prints it",
        ) from None
    root = TrustRoot.from_public_keys(load_public_keys(public_keys), signer)
    checkpoint = document.verify({root.kid: root.public_key})
    Console().print(
        f"[green]valid[/] {document.item_id}: {document.verdict} by {document.decided_by}, "
        f"ledger entry {document.ledger_seq} in the tree of size {checkpoint.tree_size}"
    )
