"""``accord keys api new | list | revoke``: API keys of the HTTP service.

The token is printed once, on stdout, when the key is created; only its hash is stored.
"""

from __future__ import annotations

import json
import sys
from datetime import timedelta
from typing import Annotated

import typer
from rich.console import Console

from accord.api.api_keys import ApiKeyStore, Role
from accord.cli.opening import open_accord
from accord.cli.options import ConfigOption, DbOption, JsonOption, KeysOption
from accord.cli.problems import report_problem
from accord.cli.tables import listing
from accord.errors import AccordError

api_keys_app = typer.Typer(no_args_is_help=True, help="API keys of the HTTP service.")


@api_keys_app.command("new")
def api_key_new(
    role: Annotated[Role, typer.Option(help="agent | reviewer | auditor | admin")],
    agent: Annotated[str | None, typer.Option(help="The agent id (role agent).")] = None,
    principal: Annotated[
        str | None, typer.Option(help="The principal id (role reviewer).")
    ] = None,
    label: Annotated[str, typer.Option(help="A note for `list`.")] = "",
    expires_in_days: Annotated[int | None, typer.Option(min=1)] = None,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Create a key and print its token once (store it: it cannot be shown again)."""
    accord = open_accord(config, db, keys)
    try:
        expires = (
            None
            if expires_in_days is None
            else accord.clock.now() + timedelta(days=expires_in_days)
        )
        key, token = ApiKeyStore(accord.ledger, accord.clock).create(
            role, agent_id=agent, principal_id=principal, label=label, expires_at=expires
        )
    except AccordError as exc:
        report_problem("invalid input", exc)
        raise typer.Exit(2) from exc
    finally:
        accord.close()
    bound = key.agent_id or key.principal_id
    Console(stderr=True).print(
        f"created {key.role.value} key {key.key_id}" + (f" for {bound}" if bound else "")
    )
    sys.stdout.write(token + "\n")


@api_keys_app.command("list")
def api_key_list(
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Every key (never the tokens)."""
    accord = open_accord(config, db, keys, must_exist=True)
    try:
        found = ApiKeyStore(accord.ledger, accord.clock).list()
    finally:
        accord.close()
    if as_json:
        sys.stdout.write(json.dumps([k.model_dump(mode="json") for k in found], indent=2) + "\n")
        return
    table = listing("key", "role", "bound to", "label", "created", "expires", "revoked")
    for k in found:
        table.add_row(
            k.key_id,
            k.role.value,
            k.agent_id or k.principal_id or "-",
            k.label or "-",
            k.created_at.isoformat(),
            k.expires_at.isoformat() if k.expires_at else "-",
            k.revoked_at.isoformat() if k.revoked_at else "-",
        )
    Console().print(table)


@api_keys_app.command("revoke")
def api_key_revoke(
    key_id: str, db: DbOption = None, keys: KeysOption = None, config: ConfigOption = None
) -> None:
    """Revoke a key: requests with it get 401 from now on. Exit 1 if there is no such key."""
    accord = open_accord(config, db, keys, must_exist=True)
    try:
        key = ApiKeyStore(accord.ledger, accord.clock).revoke(key_id)
    except AccordError as exc:
        report_problem("error", exc)
        raise typer.Exit(1) from exc
    finally:
        accord.close()
    assert key.revoked_at is not None
    Console().print(f"{key.key_id} revoked at {key.revoked_at.isoformat()}")
