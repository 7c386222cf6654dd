"""``accord disputes sign-prepared FILE --key KEYFILE``: sign a prepared tier step by hand.

``FILE`` is the service's answer to ``POST /disputes/{id}/prepared-steps`` (or to a
``.../signatures`` round still ``awaiting_signatures``) as JSON. Each payload is checked —
its sha256, the ``DCP-DISPUTE-SIG-v2`` tag, a record of the prepared dispute — and signed
with your own key file (its passphrase from ``ACCORD_KEY_PASSPHRASE`` when sealed); the
``{"signatures": [...]}`` body to post to ``.../signatures`` is printed, or written to
``--out``. Nothing is opened but the two files: no database, no configuration.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError as PydanticValidationError

from accord.app import PASSPHRASE_ENV
from accord.cli.problems import refused_exit
from accord.cli.tables import print_json
from accord.crypto.keyring import signer_from_file
from accord.disputes.dcp.refusal import from_pydantic
from accord.disputes.tiers.prepared import PreparedStep, sign_payloads
from accord.errors import AccordError, ValidationError
from accord.limits import Limits
from accord.strict_json import parse_json

MAX_FILE_BYTES = 1_000_000
"""A prepared step's answer is at most a few payloads of 20,000-character texts."""


def sign_prepared(
    file: Annotated[Path, typer.Argument(help="The prepared step's JSON (the service's answer).")],
    key: Annotated[Path, typer.Option("--key", help="Your own key file (*.key.json).")],
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the signatures JSON here.")
    ] = None,
    allow_unsafe_permissions: Annotated[
        bool, typer.Option(help="Accept a key file others may read (not recommended).")
    ] = False,
) -> None:
    """Sign the payloads a prepared tier step awaits with your own key (prepare-then-sign)."""
    try:
        prepared = _read(file)
        signer = signer_from_file(
            key, os.environ.get(PASSPHRASE_ENV), allow_unsafe_permissions=allow_unsafe_permissions
        )
        body = {"signatures": [s.model_dump() for s in sign_payloads(prepared, signer)]}
    except AccordError as exc:
        raise refused_exit(exc) from exc
    if out is None:
        print_json(body)
    else:
        out.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")


def _read(file: Path) -> PreparedStep:
    try:
        size = file.stat().st_size
        if size > MAX_FILE_BYTES:
            raise _bad(file, f"at most {MAX_FILE_BYTES:,} bytes")
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise _bad(file, f"a readable UTF-8 file ({exc.__class__.__name__})") from None
    data: Any = parse_json(text, Limits(), where=str(file))
    if isinstance(data, dict) and isinstance(data.get("prepared"), dict):
        data = data["prepared"]  # a signatures round's answer: the step it still awaits
    try:
        return PreparedStep.model_validate(data)
    except PydanticValidationError as error:
        raise from_pydantic(error, requirement="R36", record="prepared_step") from None


def _bad(file: Path, rule: str) -> ValidationError:
    return ValidationError(f"{file}: {rule}", code="cli.bad_file", field=str(file), rule=rule)


def register(app: typer.Typer) -> None:
    """Add ``sign-prepared`` to ``accord disputes``."""
    app.command("sign-prepared")(sign_prepared)
