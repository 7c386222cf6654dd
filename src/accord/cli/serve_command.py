"""``accord serve``: the HTTP service (Litestar on uvicorn) with the deadline sweeper.

Graceful shutdown is uvicorn's: on SIGINT/SIGTERM it stops accepting connections, finishes
the requests in flight (up to ``--graceful-seconds``), then runs the app's shutdown — the
sweeper finishes its sweep and the database is closed.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from accord.api.app_factory import DEFAULT_MAX_BODY_BYTES, DEFAULT_SWEEP_SECONDS
from accord.api.serving import app_from_environment, serve_environment
from accord.cli.opening import open_accord
from accord.cli.options import ConfigOption, DbOption, KeysOption, default_config


def serve(
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535)] = 8000,
    workers: Annotated[int, typer.Option(min=1, max=64, help="Worker processes.")] = 1,
    no_sweeper: Annotated[
        bool, typer.Option("--no-sweeper", help="Do not sweep approval deadlines here.")
    ] = False,
    sweep_every: Annotated[
        float, typer.Option(min=0.1, help="Seconds between deadline sweeps.")
    ] = DEFAULT_SWEEP_SECONDS,
    max_body_bytes: Annotated[
        int, typer.Option(min=1024, help="Largest request body accepted (413 beyond).")
    ] = DEFAULT_MAX_BODY_BYTES,
    graceful_seconds: Annotated[
        int, typer.Option(min=0, help="How long shutdown waits for requests in flight.")
    ] = 10,
    access_log: Annotated[
        bool, typer.Option("--access-log/--no-access-log", help="Log every request line.")
    ] = True,
    behind_tls: Annotated[
        bool,
        typer.Option("--behind-tls", help="Served through HTTPS: mark the cookies Secure."),
    ] = False,
) -> None:
    """Serve the HTTP API and the reviewer page (Ctrl-C or SIGTERM stops it gracefully)."""
    import uvicorn

    config_path = default_config(config)
    # Open once here so a bad config or database exits 2 before any worker starts.
    open_accord(config_path, db, keys).close()
    with tempfile.TemporaryDirectory(prefix="accord-sessions-") as sessions:
        os.environ.update(
            serve_environment(
                config=str(config_path) if config_path else None,
                db=db,
                keys=str(Path(keys)) if keys else None,
                sweep_every=None if no_sweeper else sweep_every,
                max_body_bytes=max_body_bytes,
                secure_cookies=behind_tls,
                session_dir=sessions if workers > 1 else None,
            )
        )
        typer.echo(f"accord serving on http://{host}:{port} ({workers} worker(s))", err=True)
        uvicorn.run(
            f"{app_from_environment.__module__}:{app_from_environment.__name__}",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            timeout_graceful_shutdown=graceful_seconds,
            log_level="info",
            access_log=access_log,
        )
