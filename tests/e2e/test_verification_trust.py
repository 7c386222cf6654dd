"""Issue 9's trust holes, each reproduced as an attacker with write access to the database and
the key folder would try it, and each now failing closed (both engines)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete

import accord as accord_pkg
from accord import Accord
from accord.approvals import ConflictedDecider, UnconfiguredReviewer
from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer, sign_record
from accord.errors import CryptoError, KeyNotFound, VerificationFailed
from accord.ledger import Ledger
from accord.store.tables import ledger_checkpoints, ledger_entries

from ._support import copy_example_org, numbers_tied, reviewer_key, write_config
from .conftest import OpenAccord, RunCli

INVOICE = "Total of invoice 4411"
Record = dict[str, Any]


def human_config(tmp_path: Path, **extra: Any) -> Path:
    return write_config(
        tmp_path,
        {
            "org": copy_example_org(tmp_path),
            "conflict_resolution": {"strategy": "human", "tier1": ["source_verification"]},
            "approvals": {"principals": {"human:alice": [], "human:controller": []}},
            **extra,
        },
    )


def decided_case(accord: Accord) -> int:
    """A case decided by alice with her reviewer key; the seq of its approval_decided."""
    case = accord.settle(INVOICE, numbers_tied("agent:billing", "agent:audit"))
    accord.decide(str(case.approval_item_id), reviewer_key(accord, "human:alice"), choice="1450")
    return seq_of(accord, "approval_decided")


def seq_of(accord: Accord, event_type: str) -> int:
    return next(e.seq for e in accord.ledger.entries() if e.event_type == event_type)


def rewrite_from(
    accord: Accord,
    seq: int,
    signer: Ed25519Signer,
    forge: Callable[[Record], Record],
    clock: FrozenClock,
) -> None:
    """Re-sign the ledger from entry ``seq`` on with ``signer`` (the chain stays intact), the
    entry at ``seq`` rewritten by ``forge`` — what someone with database access would do."""
    tail = [(e.event_type, dict(e.record)) for e in accord.ledger.entries(seq)]
    tail[0] = (tail[0][0], forge(tail[0][1]))
    with accord.db.write() as conn:
        conn.execute(delete(ledger_entries).where(ledger_entries.c.seq >= seq))
        conn.execute(delete(ledger_checkpoints).where(ledger_checkpoints.c.tree_size >= seq))
    Ledger(accord.db, signer, clock, checkpoint_every=None).append_many(tail)


def failure(accord: Accord) -> VerificationFailed:
    with pytest.raises(VerificationFailed) as err:
        accord.verify(workers=1)
    return err.value


def forged_winner(record: Record) -> Record:
    return {**record, "winner": "agent:billing", "answer": 1200}


@pytest.mark.parametrize("key_name", ["agent:billing", "intruder"])
def test_a_forged_winner_re_signed_by_an_agent_or_a_dropped_in_key_fails_naming_the_entry(
    tmp_path: Path, open_accord: OpenAccord, frozen_clock: FrozenClock, key_name: str
) -> None:
    accord = open_accord(human_config(tmp_path))
    decided_case(accord)
    resolved = seq_of(accord, "dispute_resolved")
    accord.keyring.create(key_name)  # its *.pub.json sits in the key folder beside service's
    rewrite_from(accord, resolved, accord.keyring.signer(key_name), forged_winner, frozen_clock)

    error = failure(accord)

    assert (error.code, error.context["seq"]) == ("ledger.untrusted_signer", resolved)


def test_a_ledger_rebuilt_wholly_under_another_key_fails_at_entry_one(
    tmp_path: Path, open_accord: OpenAccord, frozen_clock: FrozenClock
) -> None:
    accord = open_accord(human_config(tmp_path))
    decided_case(accord)
    accord.keyring.create("intruder")
    rewrite_from(accord, 1, accord.keyring.signer("intruder"), dict, frozen_clock)
    error = failure(accord)
    assert (error.code, error.context["seq"]) == ("ledger.untrusted_signer", 1)


def test_a_forged_decided_by_re_signed_even_by_the_service_key_fails_naming_the_entry(
    tmp_path: Path, open_accord: OpenAccord, frozen_clock: FrozenClock
) -> None:
    accord = open_accord(human_config(tmp_path))
    decided = decided_case(accord)

    rewrite_from(
        accord,
        decided,
        accord.ledger.signer,
        lambda r: {**r, "decided_by": "human:controller"},
        frozen_clock,
    )

    error = failure(accord)
    assert (error.code, error.context["seq"], error.context["field"]) == (
        "ledger.forged_decider",
        decided,
        "record.decided_by",
    )


def test_a_decision_without_the_reviewer_signature_fails_naming_the_entry(
    tmp_path: Path, open_accord: OpenAccord, frozen_clock: FrozenClock
) -> None:
    accord = open_accord(human_config(tmp_path))
    decided = decided_case(accord)
    unsigned = {k: v for k, v in accord.ledger.get(decided).record.items() if k != "signature"}
    rewrite_from(accord, decided, accord.ledger.signer, lambda _: unsigned, frozen_clock)
    error = failure(accord)
    assert (error.code, error.context["seq"]) == ("ledger.unsigned_decision", decided)


def test_a_decision_re_signed_by_a_key_nobody_registered_fails_naming_the_entry(
    tmp_path: Path, open_accord: OpenAccord, frozen_clock: FrozenClock
) -> None:
    accord = open_accord(human_config(tmp_path))
    decided = decided_case(accord)
    mallory = Ed25519Signer.from_seed(b"\x66" * 32)

    def re_signed(record: Record) -> Record:
        forged = {**record, "choice": "1200"}
        forged["signature"] = sign_record(forged, mallory).model_dump()
        return forged

    rewrite_from(accord, decided, accord.ledger.signer, re_signed, frozen_clock)
    error = failure(accord)
    assert (error.code, error.context["seq"]) == ("ledger.untrusted_reviewer", decided)


def test_an_altered_choice_under_the_real_reviewer_signature_fails_naming_the_entry(
    tmp_path: Path, open_accord: OpenAccord, frozen_clock: FrozenClock
) -> None:
    accord = open_accord(human_config(tmp_path))
    decided = decided_case(accord)
    rewrite_from(
        accord, decided, accord.ledger.signer, lambda r: {**r, "choice": "1200"}, frozen_clock
    )
    error = failure(accord)
    assert (error.code, error.context["seq"]) == ("ledger.bad_reviewer_signature", decided)


def test_a_revoked_reviewer_key_can_no_longer_decide(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(human_config(tmp_path))
    case = accord.settle(INVOICE, numbers_tied("agent:billing", "agent:audit"))
    alice = reviewer_key(accord, "human:alice")
    accord.ledger.revoke_key(alice.kid, "laptop lost")
    with pytest.raises(UnconfiguredReviewer) as refused:
        accord.decide(str(case.approval_item_id), alice, choice="1450")
    assert refused.value.context["kid"] == alice.kid
    assert accord.approvals.get(str(case.approval_item_id)).is_pending


def test_an_unconfigured_principal_can_neither_register_a_reviewer_key_nor_decide(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(human_config(tmp_path))
    case = accord.settle(INVOICE, numbers_tied("agent:billing", "agent:audit"))
    stranger = Ed25519Signer.from_seed(b"\x44" * 32)
    with pytest.raises(UnconfiguredReviewer) as refused:
        accord.register_reviewer_key(stranger.public_key, "human:mallory")
    assert refused.value.context["principal_id"] == "human:mallory"
    # registered by someone holding the service key, still not a configured reviewer
    accord.ledger.register_key(stranger.public_key, "reviewer", "human:mallory")
    with pytest.raises(UnconfiguredReviewer):
        accord.decide(str(case.approval_item_id), stranger, choice="1450")
    assert accord.approvals.get(str(case.approval_item_id)).is_pending


def test_the_principal_who_owns_a_party_agent_cannot_decide_its_case(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(human_config(tmp_path))
    # agent:billing's principal in the example org is human:controller
    case = accord.settle(INVOICE, numbers_tied("agent:billing", "agent:audit"))
    with pytest.raises(ConflictedDecider) as refused:
        accord.decide(
            str(case.approval_item_id), reviewer_key(accord, "human:controller"), choice="1200"
        )
    assert refused.value.code == "approvals.conflicted_decider"
    assert refused.value.context["principal_id"] == "human:controller"
    assert refused.value.context["party"] == "agent:billing"
    assert accord.approvals.get(str(case.approval_item_id)).is_pending


def test_a_principal_who_is_a_party_cannot_decide_its_case(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    # a person filing a position herself is not in the org chart of agents
    accord = open_accord(human_config(tmp_path, settle={"allow_unknown_agents": True}))
    case = accord.settle(INVOICE, numbers_tied("human:alice", "agent:audit"))
    with pytest.raises(ConflictedDecider) as refused:
        accord.decide(
            str(case.approval_item_id), reviewer_key(accord, "human:alice"), choice="1200"
        )
    assert refused.value.context["party"] == "human:alice"


# --- auditor mode ------------------------------------------------------------------------


def public_only(keys: Path, auditor: Path) -> Path:
    auditor.mkdir(mode=0o700, exist_ok=True)
    for public in keys.glob("*.pub.json"):
        shutil.copyfile(public, auditor / public.name)
    return auditor


def test_an_auditor_verifies_with_public_keys_only_even_when_the_service_key_is_sealed(
    tmp_path: Path,
    database_url: str,
    frozen_clock: FrozenClock,
    monkeypatch: pytest.MonkeyPatch,
    cli: RunCli,
) -> None:
    monkeypatch.setenv("ACCORD_KEY_PASSPHRASE", "correct horse")
    accord = Accord.open(
        human_config(tmp_path), db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock
    )
    decided_case(accord)
    kid = accord.ledger.signer.kid
    accord.close()
    monkeypatch.delenv("ACCORD_KEY_PASSPHRASE")
    (tmp_path / "accord.yaml").unlink()
    auditor = public_only(tmp_path / "keys", tmp_path / "auditor")

    report = accord_pkg.verify_ledger(database_url, auditor, kid, workers=1)
    assert report.trust_root == kid
    assert report.signed_decisions == 1
    assert report.cases == 1

    shown = cli("verify", "--public-keys", "auditor", "--signer", kid, "--db", database_url)
    assert shown.exit_code == 0, shown.output
    assert "VERIFIED" in shown.output
    with pytest.raises(KeyNotFound):
        accord_pkg.verify_ledger(database_url, auditor, "0" * 32)
    assert cli("verify", "--public-keys", "auditor", "--db", database_url).exit_code == 2


def test_two_hosts_default_service_keys_share_one_auditor_folder(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock
) -> None:
    hosts = []
    for host in ("east", "west"):
        url = database_url if host == "east" else f"sqlite:///{tmp_path / 'west.db'}"
        opened = Accord.open(db_url=url, keys_dir=tmp_path / host, clock=frozen_clock)
        opened.ledger.append("dispute_opened", {"host": host})
        hosts.append((url, opened.ledger.signer.kid))
        opened.close()
    auditor = public_only(tmp_path / "east", tmp_path / "auditor")
    public_only(tmp_path / "west", auditor)
    assert len(list(auditor.glob("service-*.pub.json"))) == 2

    for url, kid in hosts:
        assert accord_pkg.verify_ledger(url, auditor, kid, workers=1).entries == 1
    (east_url, _), (_, west_kid) = hosts
    with pytest.raises(VerificationFailed) as err:
        accord_pkg.verify_ledger(east_url, auditor, west_kid, workers=1)
    assert (err.value.code, err.value.context["seq"]) == ("ledger.untrusted_signer", 1)


def test_the_auditor_library_never_imports_the_application_or_a_configured_probe(
    tmp_path: Path,
) -> None:
    script = (
        "import sys, accord\n"
        "try:\n"
        "    accord.verify_ledger(sys.argv[1], sys.argv[2], '0' * 32)\n"
        "except accord.AccordError:\n"
        "    pass\n"
        "banned = ('accord.app', 'accord.plugins', 'probe_x')\n"
        "print(sorted(m for m in sys.modules if m in banned))\n"
    )
    (tmp_path / "probe_x.py").write_text("raise SystemExit('probe imported')\n")
    (tmp_path / "accord.yaml").write_text("boundary: {probes: {x: 'probe_x:run'}}\n")
    (tmp_path / "keys").mkdir(mode=0o700)
    env = dict(os.environ, PYTHONPATH=f"{Path(accord_pkg.__file__).parents[1]}:{tmp_path}")
    done = subprocess.run(
        [sys.executable, "-c", script, f"sqlite:///{tmp_path / 'none.db'}", str(tmp_path / "keys")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


# --- unsafe permissions ------------------------------------------------------------------


def test_a_key_folder_writable_by_others_is_refused_naming_the_path_and_mode(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock
) -> None:
    Accord.open(db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock).close()
    os.chmod(tmp_path / "keys", 0o777)
    with pytest.raises(CryptoError) as refused:
        Accord.open(db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock)
    assert refused.value.code == "crypto.unsafe_permissions"
    assert refused.value.context["path"] == str(tmp_path / "keys")
    assert refused.value.context["mode"] == "0777"


def test_a_private_key_readable_by_others_is_refused_unless_the_config_only_warns(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock, caplog: pytest.LogCaptureFixture
) -> None:
    Accord.open(db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock).close()
    private = tmp_path / "keys" / "service.key.json"
    os.chmod(private, 0o644)
    with pytest.raises(CryptoError) as refused:
        Accord.open(db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock)
    assert refused.value.context == {
        "path": str(private),
        "mode": "0644",
        "rule": "no 0o77 permission bits",
    }
    config = write_config(tmp_path, {"keys": {"allow_unsafe_permissions": True}})
    Accord.open(config, db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock).close()
    assert "unsafe key permissions" in caplog.text
    assert stat.S_IMODE(private.stat().st_mode) == 0o644  # reported, never changed


def test_an_auditor_folder_writable_by_others_is_refused_unless_opted_out(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock, cli: RunCli
) -> None:
    opened = Accord.open(db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock)
    opened.ledger.append("dispute_opened", {"n": 1})
    kid = opened.ledger.signer.kid
    opened.close()
    auditor = public_only(tmp_path / "keys", tmp_path / "auditor")
    os.chmod(auditor, 0o777)
    common = ("verify", "--public-keys", "auditor", "--signer", kid, "--db", database_url)
    refused = cli(*common)
    assert refused.exit_code == 2
    assert "crypto.unsafe_permissions" in refused.output
    assert cli(*common, "--allow-unsafe-key-permissions").exit_code == 0
