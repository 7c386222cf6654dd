"""`accord init`: create what a new installation needs, and say exactly what it wrote or kept."""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from accord.app import Accord
from accord.cli.opening import open_accord
from accord.cli.options import DbOption, KeysOption, key_directory
from accord.cli.problems import report_problem
from accord.config import LoadedConfig, load_config
from accord.crypto import private_path
from accord.errors import AccordError
from accord.store import resolve_database_url

CONFIG_TEMPLATE = """\
# Accord configuration; see docs/configuration.md
database:
  url: {url}
keys:
  directory: {keys}
  service_key: service{trust_root}
ledger:
  checkpoint_every: 1024
org: org.yaml
"""


def init(
    db: DbOption = None,
    keys: KeysOption = None,
    config: Annotated[Path, typer.Option("--config", "-c")] = Path("accord.yaml"),
) -> None:
    """Create the database, the service key and an example accord.yaml + org.yaml.

    Files that already exist are kept as they are; each line says what was written or kept.
    """
    lines: list[str] = []
    written: dict[str, str] | None = None  # the template written now, pinned once the key exists
    if config.exists():
        lines.append(f"kept     {config} (already there)")
    else:
        org_path = config.with_name("org.yaml")
        if org_path.exists():
            lines.append(f"kept     {org_path} (already there; {config} refers to it)")
        else:
            example = files("accord").joinpath("examples/org.yaml").read_text(encoding="utf-8")
            org_path.write_text(example, encoding="utf-8")
            lines.append(f"wrote    {org_path} (an example 16-member agent company)")
        url = resolve_database_url(db or os.environ.get("ACCORD_DB"))
        written = {"url": url, "keys": str(keys or "accord-keys")}
        config.write_text(CONFIG_TEMPLATE.format(**written, trust_root=""), encoding="utf-8")
        lines.append(f"wrote    {config} (database {url}, keys in {keys or 'accord-keys'})")
    loaded = _load(config)
    directory = key_directory(loaded, keys)
    service_name = loaded.settings.keys.service_key
    key_existed = private_path(directory, service_name).is_file()
    accord, db_existed = _open(config, db, keys)
    try:
        service = accord.keyring.info(service_name)
        shown_url = accord.db.url.render_as_string(hide_password=True)
    finally:
        accord.close()
    lines.append(
        f"{'kept' if db_existed else 'created':<8} database {shown_url} (migrations applied)"
    )
    lines.append(
        f"{'kept' if key_existed else 'created':<8} service key {service.name} "
        f"(kid {service.kid}) in {accord.keyring.directory}"
    )
    warning = None
    if written is not None:
        config.write_text(
            CONFIG_TEMPLATE.format(
                **written, trust_root=f"\n  trust_root: {service.kid}  # verify pins this key"
            ),
            encoding="utf-8",
        )
        lines.append(f"pinned   keys.trust_root {service.kid} in {config}")
    elif loaded.settings.keys.trust_root is None:
        warning = (
            f"WARNING  {config} pins no trust root: `accord verify` trusts whatever service "
            "key the key folder holds, so a ledger re-signed under a replaced "
            f"service.key.json verifies. Fix: add `trust_root: {service.kid}` under `keys:` "
            "(after checking that kid against one you kept elsewhere)."
        )
    console = Console(soft_wrap=True)
    for line in lines:
        console.print(line, markup=False, highlight=False)
    if warning is not None:
        Console(stderr=True, soft_wrap=True).print(warning, markup=False, highlight=False)


def _load(config: Path) -> LoadedConfig:
    try:
        return load_config(config)
    except AccordError as exc:
        report_problem("error", exc)
        raise typer.Exit(2) from exc


def _open(config: Path, db: str | None, keys: Path | None) -> tuple[Accord, bool]:
    """The opened installation, and whether its database was there before."""
    try:
        return Accord.open(config, db_url=db, keys_dir=keys, must_exist=True), True
    except AccordError as exc:
        if exc.code != "store.no_database":
            report_problem("error", exc)
            raise typer.Exit(2) from exc
    return open_accord(config, db, keys), False
