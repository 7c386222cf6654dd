"""``accord disputes sign-prepared FILE --key KEYFILE``: an agent signs a prepared tier step
by hand with its own key file, which the service never sees."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from accord.app import Accord
from accord.clock import SystemClock
from accord.crypto import Keyring
from accord.crypto.canonical import canonical_bytes
from accord.crypto.domain import domain_separated_message
from accord.crypto.encoding import b64decode
from accord.crypto.keyring import signer_from_file
from accord.disputes.tiers.prepared import PayloadSignature, PreparedStep
from accord.disputes.tiers.prepared.models import payload_of

from .conftest import Run

DB = "sqlite:///prepared.db"
AGENT = "agent:billing"


def _own_key(accord: Accord, agent: str) -> str:
    """A key made in the agent's own folder; only its public half is registered in the
    service's ledger."""
    Keyring(Path("own"), SystemClock()).create("mine")
    path = "own/mine.key.json"
    accord.ledger.register_key(signer_from_file(Path(path)).public_key, "agent", agent)
    return path


EVIDENCE = {"step": "counter_evidence", "content_hash": "sha256:" + "ab" * 32,
            "description": "the audit window is statutory"}  # fmt: skip


def _asked(dispute_id: str) -> list[str]:
    """The request the agent itself sent (written to its own file), as CLI options."""
    Path("request.json").write_text(json.dumps(EVIDENCE), encoding="utf-8")
    return ["--agent", AGENT, "--dispute", dispute_id, "--request", "request.json"]


def _prepared(accord: Accord) -> PreparedStep:
    dispute = accord.disputes.open(
        dispute_type="resource_conflict",
        severity="medium",
        complainant=AGENT,
        respondents=["agent:audit"],
        subject="both booked the GPU for tonight",
        evidence=[{"evidence_type": "log", "reference": "l:1", "description": "b", "content": {}}],
    )
    return accord.disputes.tiers.prepared.prepare(dispute.record.dispute_id, EVIDENCE, by=AGENT)


def test_an_agent_signs_a_prepared_step_with_its_own_key_file_and_it_completes(run: Run) -> None:
    accord = Accord.open(db_url=DB, keys_dir=Path("server-keys"))
    try:
        key = _own_key(accord, AGENT)
        prepared = _prepared(accord)
        Path("prepared.json").write_text(prepared.model_dump_json(), encoding="utf-8")

        signed = run(
            "disputes", "sign-prepared", "prepared.json", "--key", key, "--out", "s.json",
            *_asked(prepared.dispute_id),
        )  # fmt: skip

        assert signed.exit_code == 0, signed.output
        assert "counter_evidence step" in signed.stderr
        body = json.loads(Path("s.json").read_text(encoding="utf-8"))
        signatures = [PayloadSignature.model_validate(s) for s in body["signatures"]]
        outcome = accord.disputes.tiers.prepared.complete(
            prepared.prepared_id, signatures, by=AGENT
        )
        assert outcome.status == "completed"
        assert not list(Path("server-keys").glob("mine*"))  # the service never held it
        assert accord.verify().entries > 0
    finally:
        accord.close()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"dispute_id": "disp:01a2272d-2600-7219-9125-25fc7be646b6"}, "dispute_id"),
        ({"agent_id": "agent:audit"}, "agent_id"),
        ({"description": "the audit window is optional"}, "description"),
        ({"step": "proposal", "terms": "billing keeps the GPU"}, "step"),
    ],
)
def test_a_payload_a_malicious_server_altered_is_refused_and_nothing_signed(
    run: Run, change: dict[str, Any], field: str
) -> None:
    accord = Accord.open(db_url=DB, keys_dir=Path("server-keys"))
    try:
        key = _own_key(accord, AGENT)
        prepared = _prepared(accord)
    finally:
        accord.close()
    tag, _, body = b64decode(prepared.payloads[0].payload_b64).partition(b"\x00")
    record = {**json.loads(body), **change}
    forged = payload_of(0, domain_separated_message(tag.decode(), canonical_bytes(record)))
    shown = prepared.model_copy(update={"payloads": (forged,)})  # its sha256 and tag are right
    Path("prepared.json").write_text(shown.model_dump_json(), encoding="utf-8")

    signed = run(
        "disputes", "sign-prepared", "prepared.json", "--key", key, *_asked(prepared.dispute_id)
    )

    assert signed.exit_code == 2
    assert "disputes.prepared_payload_refused" in signed.output
    assert f"payloads[0].{field}" in signed.output
    assert signed.stdout == ""


def test_an_answer_about_another_dispute_than_asked_is_refused(run: Run) -> None:
    accord = Accord.open(db_url=DB, keys_dir=Path("server-keys"))
    try:
        key = _own_key(accord, AGENT)
        prepared = _prepared(accord)
    finally:
        accord.close()
    Path("prepared.json").write_text(prepared.model_dump_json(), encoding="utf-8")
    asked = _asked("disp:01a2272d-2600-7219-9125-25fc7be646b6")

    signed = run("disputes", "sign-prepared", "prepared.json", "--key", key, *asked)

    assert signed.exit_code == 2
    assert "disputes.prepared_payload_refused" in signed.output
    assert signed.stdout == ""


def test_a_file_that_is_not_a_prepared_step_is_refused(run: Run) -> None:
    Keyring(Path("own"), SystemClock()).create("mine")
    key = "own/mine.key.json"
    Path("prepared.json").write_text('{"signatures": []}', encoding="utf-8")

    asked = _asked("disp:01a2272d-2600-7219-9125-25fc7be646b6")

    signed = run("disputes", "sign-prepared", "prepared.json", "--key", key, *asked)

    assert signed.exit_code == 2
    assert signed.stdout == ""
