"""`accord demo-service` (what `make run` starts): the example company's database, with cases
in several states produced by real scenarios through the library (the scripted model judges
the debate), a reviewer key, and the HTTP service on loopback.

States: settled by a source of truth, by seniority and by a judged debate; merged; decided by
a person; expired by its deadline; and several waiting in the reviewer's queue. Beside the
cases, DCP-07 disputes (`demo_disputes`): negotiated to a resolution, waiting at direct
negotiation and at contextual arbitration, appealed to people, withdrawn.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Annotated

import typer

from accord.api.api_keys import ApiKeyStore
from accord.app import Accord
from accord.cases import Case
from accord.cli.demo import demo_config, pin_trust_root, run_day
from accord.cli.demo_disputes import file_demo_disputes
from accord.cli.key_commands import register_new_key
from accord.cli.problems import report_problem
from accord.cli.serve_command import serve
from accord.clock import FrozenClock, SystemClock
from accord.errors import AccordError

#: Escalated to people and left waiting: (subject, task type, two agents' answers + reasons).
WAITING = (
    ("Refund 2,400 to customer 8812", "approve", "reject", "first order, card flagged"),
    ("Write off invoice 5120", "approve", "reject", "client in receivership"),
    ("Extend credit line of ACME to 50,000", "approve", "reject", "two late payments"),
)
REVIEWER = "human:treasurer"  # configured as the demo's approver; owns no party agent
AGENT = "agent:billing"  # a party to the demo's cases and disputes
MARKER = ".accord-demo-service"
"""Left in the folder ``prepare`` makes: only a folder holding it is ever replaced."""
BUILT = "demo-built.json"
"""Written last by a build that finished: a folder holding it is reused, not rebuilt."""


@dataclass(frozen=True)
class DemoService:
    config: Path
    db_url: str
    keys: Path
    reviewer_token: str
    agent_token: str
    admin_token: str
    cases: int
    disputes: int
    reused: bool = False


def prepare(directory: Path, *, fresh: bool = False) -> DemoService:
    """The demo database in ``directory``: a finished earlier build is reused (with a new
    reviewer key) unless ``fresh``; a folder an earlier ``prepare`` made (it holds the marker)
    is otherwise replaced; any other existing folder is refused, never removed."""
    if directory.exists():
        if not (directory / MARKER).is_file():
            raise AccordError(
                f"{directory} exists and was not made by accord demo-service: refusing to "
                "replace it (name a new --dir, or remove it yourself)",
                code="demo.not_created_by_demo",
                path=str(directory),
            )
        if not fresh and (directory / BUILT).is_file():
            return _reopen(directory)
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    (directory / MARKER).write_text("made by accord demo-service\n", encoding="utf-8")
    config = demo_config(directory)
    db_url = f"sqlite:///{directory / 'accord-demo.db'}"
    keys = directory / "keys"
    now = SystemClock().now()
    clock = FrozenClock(now - timedelta(hours=5))  # the expired case waited 5 hours
    accord = Accord.open(config, db_url=db_url, keys_dir=keys, clock=clock)
    try:
        pin_trust_root(config, accord.ledger.signer.kid)  # what `accord verify` pins
        cases, _ = run_day(accord)
        stale = _refund(accord, "Refund 9,900 to customer 4410", "no receipt on file")
        clock.advance(now - clock.now())
        accord.sweep()  # its 4-hour deadline has passed: denied by the timeout policy
        for subject, yes, no, why in WAITING:
            clock.advance(timedelta(seconds=1))
            cases.append(_refund(accord, subject, why, yes=yes, no=no))
        cases.append(stale)
        disputes = file_demo_disputes(accord)
        register_new_key(accord, None, "reviewer", REVIEWER, None)  # signs their decisions
        tokens = _demo_keys(ApiKeyStore(accord.ledger, accord.clock))
        accord.ledger.checkpoint()
        accord.verify()
    finally:
        accord.close()
    built = {"cases": len(cases), "disputes": len(disputes), "built_at": now.isoformat()}
    (directory / BUILT).write_text(json.dumps(built) + "\n", encoding="utf-8")
    return DemoService(config, db_url, keys, *tokens, len(cases), len(disputes))


def _demo_keys(store: ApiKeyStore) -> tuple[str, str, str]:
    """The tokens of a new reviewer, agent and admin key, labelled ``make run``."""
    return (
        store.create("reviewer", principal_id=REVIEWER, label="make run")[1],
        store.create("agent", agent_id=AGENT, label="make run")[1],
        store.create("admin", label="make run")[1],
    )


def _reopen(directory: Path) -> DemoService:
    """The finished demo in ``directory`` as it was left, with new reviewer, agent and admin
    keys: the keys printed before are revoked (their tokens are stored only as hashes, so none
    can be shown again)."""
    try:
        built = json.loads((directory / BUILT).read_text(encoding="utf-8"))
        counts = (int(built["cases"]), int(built["disputes"]))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise AccordError(
            f"{directory / BUILT} is unreadable ({exc}): rebuild the demo with --fresh",
            code="demo.unreadable",
            path=str(directory / BUILT),
        ) from None
    config = directory / "accord.yaml"
    db_url = f"sqlite:///{directory / 'accord-demo.db'}"
    keys = directory / "keys"
    accord = Accord.open(config, db_url=db_url, keys_dir=keys)
    try:
        store = ApiKeyStore(accord.ledger, accord.clock)
        for key in store.list():
            if key.label == "make run" and key.revoked_at is None:
                store.revoke(key.key_id)
        tokens = _demo_keys(store)
    finally:
        accord.close()
    return DemoService(config, db_url, keys, *tokens, *counts, reused=True)


def _refund(
    accord: Accord, subject: str, why: str, *, yes: str = "approve", no: str = "reject"
) -> Case:
    return accord.settle(
        subject,
        [
            {"agent": "agent:billing", "output": yes, "confidence": 0.7, "reasoning": "loyal"},
            {"agent": "agent:audit", "output": no, "confidence": 0.65, "reasoning": why},
        ],
        task_type="refunds",
    )


def demo_service(
    directory: Annotated[
        Path, typer.Option("--dir", help="Where the demo database, config and keys go.")
    ] = Path(".accord-service"),
    fresh: Annotated[
        bool, typer.Option("--fresh", help="Rebuild the demo even when --dir holds one.")
    ] = False,
    host: Annotated[str, typer.Option()] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535)] = 8000,
) -> None:
    """Build the demo company's database and serve it (a reviewer, an agent and an admin API
    key are printed)."""
    try:
        demo = prepare(directory, fresh=fresh)
    except AccordError as exc:
        report_problem("error", exc)
        raise typer.Exit(2) from exc
    again = (
        f"  reused        {directory} as it was left (`make run FRESH=1` or --fresh rebuilds it)\n"
        if demo.reused
        else ""
    )
    typer.echo(
        f"\nAccord demo: {demo.cases} cases and {demo.disputes} disputes in {demo.db_url}\n"
        f"  folder        {directory}  (database, accord.yaml, keys/)\n"
        f"{again}"
        f"  open          http://{host}:{port}/  (API: /api/v1, OpenAPI: /schema)\n"
        f"  reviewer key  {demo.reviewer_token}   (signs in as {REVIEWER})\n"
        f"  agent key     {demo.agent_token}   (acts as {AGENT} over the API)\n"
        f"  admin key     {demo.admin_token}   (issues keys, enrols agents' public keys)\n"
    )
    serve(
        db=demo.db_url,
        keys=demo.keys,
        config=demo.config,
        host=host,
        port=port,
        workers=1,
        no_sweeper=False,
        sweep_every=30.0,
        max_body_bytes=1_000_000,
        graceful_seconds=10,
        access_log=True,
        behind_tls=False,
    )
