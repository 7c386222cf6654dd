"""`accord keys api new | list | revoke` and `accord serve` as a real process."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.cli.conftest import Run


def test_a_key_is_created_printed_once_listed_and_revoked(run: Run) -> None:
    created = run("keys", "api", "new", "--role", "reviewer", "--principal", "human:ada")
    assert created.exit_code == 0, created.output
    token = created.stdout.strip().splitlines()[-1]
    assert token.startswith("acc_")
    listed = run("keys", "api", "list", "--json")
    keys = json.loads(listed.stdout)
    assert [(k["role"], k["principal_id"]) for k in keys] == [("reviewer", "human:ada")]
    assert token not in listed.stdout
    revoked = run("keys", "api", "revoke", keys[0]["key_id"])
    assert revoked.exit_code == 0
    assert json.loads(run("keys", "api", "list", "--json").stdout)[0]["revoked_at"]
    assert "revoked" in run("keys", "api", "list").stdout


def test_an_agent_key_without_its_agent_exits_2(run: Run) -> None:
    result = run("keys", "api", "new", "--role", "agent")
    assert result.exit_code == 2
    assert "auth.bad_key_binding" in result.stderr


def test_revoking_an_unknown_key_exits_1(run: Run) -> None:
    run("keys", "api", "new", "--role", "admin")
    assert run("keys", "api", "revoke", "key:nope").exit_code == 1


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_until_up(url: str, process: subprocess.Popen[bytes], limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"accord serve exited with {process.returncode}")
        try:
            if httpx.get(url, timeout=1.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)  # waiting for another process to bind, not for time to pass
    raise AssertionError("accord serve did not come up")


@contextmanager
def _serving(tmp_path: Path, *options: str, own_group: bool = False) -> Iterator[ServeProcess]:
    """A real `accord serve` on a free port (its output piped), killed if a test leaves it up;
    ``own_group``: in a process group of its own, as a terminal's foreground job."""
    port = _free_port()
    accord = Path(sys.executable).with_name("accord")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACCORD_")}
    process = subprocess.Popen(
        [str(accord), "serve", "--keys", str(tmp_path / "keys"), "--port", str(port), *options],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=own_group,
    )
    try:
        _wait_until_up(f"http://127.0.0.1:{port}/health", process)
        yield ServeProcess(process, f"http://127.0.0.1:{port}")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


@dataclass(frozen=True)
class ServeProcess:
    process: subprocess.Popen[bytes]
    url: str


@pytest.mark.slow
def test_serve_answers_and_shuts_down_gracefully_on_sigterm(
    database_url: str, tmp_path: Path
) -> None:
    with _serving(tmp_path, "--db", database_url, "--sweep-every", "0.5") as served:
        ready = httpx.get(f"{served.url}/ready", timeout=5.0)
        assert ready.json()["status"] == "ready"
        served.process.send_signal(signal.SIGTERM)
        output, _ = served.process.communicate(timeout=60)
    log = output.decode()
    assert "Application shutdown complete" in log
    assert served.process.returncode in (0, -signal.SIGTERM, 128 + signal.SIGTERM)


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


@pytest.mark.slow
def test_a_ctrl_c_to_the_whole_process_group_stops_serve_without_a_traceback(
    tmp_path: Path,
) -> None:
    database = f"sqlite:///{tmp_path / 'a.db'}"
    with _serving(tmp_path, "--db", database, "--no-sweeper", own_group=True) as served:
        pid = served.process.pid
        deadline = time.monotonic() + 60
        # the refit worker (maybe still importing) and multiprocessing's resource tracker:
        # what a Ctrl-C also reaches
        while len(_children(pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        os.killpg(pid, signal.SIGINT)
        output, _ = served.process.communicate(timeout=60)
    log = output.decode()
    assert "Application shutdown complete" in log
    assert "Traceback" not in log, log


def test_serve_with_an_unusable_database_exits_2(run: Run) -> None:
    result = run("serve", "--db", "mysql://nowhere/db")
    assert result.exit_code == 2


def test_the_demo_service_database_has_cases_in_several_states_and_a_reviewer_key(
    tmp_path: Path,
) -> None:
    from accord.api import ApiKeyStore
    from accord.app import Accord
    from accord.cli.demo_service import WAITING, prepare

    demo = prepare(tmp_path / "svc")
    accord = Accord.open(demo.config, db_url=demo.db_url, keys_dir=demo.keys)
    try:
        statuses = [i.status.value for i in accord.approvals.list()]
        assert statuses.count("pending") == len(WAITING)
        assert statuses.count("expired") == 1
        assert statuses.count("approved") == 1
        kinds = {c["status"] for c in accord.cases.find(limit=100)}
        assert {"settled", "merged", "escalated"} <= kinds
        keys = ApiKeyStore(accord.ledger, accord.clock)
        key = keys.authenticate(demo.reviewer_token)
        assert key.principal_id == "human:treasurer"
        assert keys.authenticate(demo.agent_token).agent_id == "agent:billing"
        assert keys.authenticate(demo.admin_token).role.value == "admin"
        assert accord.verify().cases == demo.cases
        assert accord.config.settings.keys.trust_root == accord.ledger.signer.kid  # pinned
    finally:
        accord.close()


def test_the_demo_service_database_has_disputes_at_every_tier_and_a_negotiated_resolution(
    tmp_path: Path,
) -> None:
    from accord.app import Accord
    from accord.cli.demo_service import prepare

    demo = prepare(tmp_path / "svc")
    accord = Accord.open(demo.config, db_url=demo.db_url, keys_dir=demo.keys)
    try:
        stored = accord.disputes.list().items
        assert len(stored) == demo.disputes == 5
        states = {(d.status, d.tier) for d in stored}
        assert {
            ("resolved", "direct_negotiation"),
            ("open", "direct_negotiation"),
            ("open", "contextual_arbitration"),
            ("appealing", "human_appeal"),
            ("withdrawn", "direct_negotiation"),
        } == {(str(status), str(tier)) for status, tier in states}
        assert len(accord.config.settings.arbitrators.members) == 3  # type: ignore[union-attr]
        accord.verify()
    finally:
        accord.close()


def test_a_finished_demo_is_reused_with_a_new_reviewer_key_and_the_old_one_revoked(
    tmp_path: Path,
) -> None:
    from accord.api import ApiKeyStore
    from accord.app import Accord
    from accord.cli.demo_service import prepare
    from accord.errors import AccordError

    first = prepare(tmp_path / "svc")
    accord = Accord.open(first.config, db_url=first.db_url, keys_dir=first.keys)
    try:
        waiting = [i for i in accord.approvals.list() if i.status.value == "pending"]
        cases = accord.verify().cases
    finally:
        accord.close()

    again = prepare(tmp_path / "svc")

    assert again.reused
    assert not first.reused
    assert (again.cases, again.disputes) == (first.cases, first.disputes)
    accord = Accord.open(again.config, db_url=again.db_url, keys_dir=again.keys)
    try:
        assert [i.item_id for i in accord.approvals.list() if i.status.value == "pending"] == [
            i.item_id for i in waiting
        ]
        assert accord.verify().cases == cases  # the same database, not a rebuilt one
        keys = ApiKeyStore(accord.ledger, accord.clock)
        assert keys.authenticate(again.reviewer_token).principal_id == "human:treasurer"
        assert keys.authenticate(again.agent_token).agent_id == "agent:billing"
        for old in (first.reviewer_token, first.agent_token, first.admin_token):
            with pytest.raises(AccordError):
                keys.authenticate(old)
    finally:
        accord.close()


def test_a_fresh_demo_replaces_the_one_before(tmp_path: Path) -> None:
    from accord.cli.demo_service import BUILT, prepare

    first = prepare(tmp_path / "svc")
    (tmp_path / "svc" / "accord-demo.db").write_bytes(b"")  # a broken database

    rebuilt = prepare(tmp_path / "svc", fresh=True)

    assert not rebuilt.reused
    assert rebuilt.reviewer_token != first.reviewer_token
    assert (tmp_path / "svc" / "accord-demo.db").stat().st_size > 0
    assert (tmp_path / "svc" / BUILT).is_file()
