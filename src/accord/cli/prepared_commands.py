"""``accord disputes sign-prepared FILE --key KEYFILE --agent ID --dispute ID --request
STEP``: sign a prepared tier step by hand.

``FILE`` is the service's answer to ``POST /disputes/{id}/prepared-steps`` (or to a
``.../signatures`` round still ``awaiting_signatures``) as JSON; it is not trusted. ``STEP``
is the body you posted to prepare, and ``--agent`` / ``--dispute`` who you are and the
dispute you asked about. Each payload is checked against them (see
:mod:`accord.disputes.tiers.prepared.agent_side`: sha256, ``DCP-DISPUTE-SIG-v2`` tag, the
dispute, your agent id, the step kind and the arguments its record carries, the terms a §6
resolution resolves with — ``--resolves-with`` for an acceptance or a panel step), what each
payload is goes to stderr, and it is signed with your own key file (its passphrase from
``ACCORD_KEY_PASSPHRASE`` when sealed); the ``{"signatures": [...]}`` body to post to
``.../signatures`` is printed, or written to ``--out``. Nothing is opened but the files: no
database, no configuration.
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
from accord.crypto import b64decode, signer_from_file
from accord.dcp07 import from_pydantic
from accord.disputes import PreparedStep, payload_of, sign_payloads
from accord.errors import AccordError, ValidationError
from accord.limits import Limits
from accord.strict_json import parse_json

MAX_FILE_BYTES = 1_000_000
"""A prepared step's answer is at most a few payloads of 20,000-character texts."""


def sign_prepared(
    file: Annotated[Path, typer.Argument(help="The prepared step's JSON (the service's answer).")],
    key: Annotated[Path, typer.Option("--key", help="Your own key file (*.key.json).")],
    agent: Annotated[str, typer.Option("--agent", help="Your agent id (the key's agent).")],
    dispute: Annotated[str, typer.Option("--dispute", help="The dispute you prepared on.")],
    request: Annotated[
        Path, typer.Option("--request", help="The step body you posted to prepare (JSON).")
    ],
    resolves_with: Annotated[
        str | None,
        typer.Option(
            "--resolves-with",
            help="The terms a §6 resolution you sign resolves with (an acceptance: the "
            "proposal's terms; a panel step: the resolution put to the panel).",
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the signatures JSON here.")
    ] = None,
    allow_unsafe_permissions: Annotated[
        bool, typer.Option(help="Accept a key file others may read (not recommended).")
    ] = False,
) -> None:
    """Sign the payloads a prepared tier step awaits with your own key (prepare-then-sign)."""
    try:
        prepared = _prepared_of(_read(file))
        step = _read(request)
        if not isinstance(step, dict):
            raise _bad(request, "the JSON object of the step you posted")
        signer = signer_from_file(
            key, os.environ.get(PASSPHRASE_ENV), allow_unsafe_permissions=allow_unsafe_permissions
        )
        signed = sign_payloads(
            prepared,
            signer,
            agent_id=agent,
            dispute_id=dispute,
            step=step,
            resolves_with=resolves_with,
        )
        for payload in prepared.payloads:
            what = payload_of(
                payload.index, b64decode(payload.payload_b64)
            ).what  # from the bytes
            typer.echo(f"signed payloads[{payload.index}]: {what}", err=True)
        body = {"signatures": [s.model_dump() for s in signed]}
    except AccordError as exc:
        raise refused_exit(exc) from exc
    if out is None:
        print_json(body)
    else:
        out.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")


def _read(file: Path) -> Any:
    try:
        size = file.stat().st_size
        if size > MAX_FILE_BYTES:
            raise _bad(file, f"at most {MAX_FILE_BYTES:,} bytes")
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise _bad(file, f"a readable UTF-8 file ({exc.__class__.__name__})") from None
    return parse_json(text, Limits(), where=str(file))


def _prepared_of(data: Any) -> PreparedStep:
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
