"""Auditors verify the ledger and read its tail; Prometheus reads the metrics."""

from __future__ import annotations

import json
from pathlib import Path

from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy import update

from accord.app import Accord
from accord.cases import Case
from accord.ledger import ConsistencyProof
from accord.ledger.anchor import read_checkpoint_file
from accord.precedents import BundleDraft
from accord.store.tables import cases, precedent_bundles
from tests.api.conftest import Tokens, bearer
from tests.precedents.conftest import draft_data


def test_the_ledger_verifies_over_http(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    report = client.get("/api/v1/ledger/verify", headers=bearer(tokens.auditor)).json()
    assert report["verified"] is True
    # + the approval request, + the two reviewers' key registrations, + the 4 API keys issued
    assert report["entries"] == len(escalated.ledger_seqs) + 1 + 2 + 4
    assert report["cases"] == 1


def test_an_altered_case_row_is_reported_not_verified(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord
) -> None:
    with accord.db.write() as conn:
        conn.execute(update(cases).values(winner="agent:audit"))
    report = client.get("/api/v1/ledger/verify", headers=bearer(tokens.auditor)).json()
    assert report["verified"] is False
    assert report["code"] == "cases.mismatch"
    assert report["case_id"] == escalated.case_id


def test_an_altered_precedent_bundle_is_reported_not_verified_naming_its_table(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord
) -> None:
    accord.precedents.add(BundleDraft.model_validate(draft_data()))
    with accord.db.write() as conn:
        conn.execute(update(precedent_bundles).values(created_at="2020-01-01T00:00:00.000000Z"))
    report = client.get("/api/v1/ledger/verify", headers=bearer(tokens.auditor)).json()
    assert report["verified"] is False
    assert report["code"] == "precedent_bundles.mismatch"
    assert "created_at" in report["message"]


def test_the_tail_shows_the_newest_entries_oldest_first(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    tail = client.get("/api/v1/ledger/tail", params={"n": 2}, headers=bearer(tokens.auditor))
    entries = tail.json()["entries"]
    assert [e["seq"] for e in entries] == sorted(e["seq"] for e in entries)
    assert len(entries) == 2
    assert all(e["entry_hash"].startswith("sha256:") for e in entries)


def test_metrics_count_cases_queue_depth_and_request_latency(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    client.get("/health")
    text = client.get("/metrics", headers=bearer(tokens.auditor)).text
    assert (
        'accord_cases{kind="logical_conflict",status="escalated",tier="human_appeal"} 1.0' in text
    )
    assert "accord_approval_queue_depth 1.0" in text
    assert 'accord_http_request_duration_seconds_count{method="GET",route="/health"' in text


def test_metrics_need_an_auditor_or_admin_key(client: TestClient[Litestar], tokens: Tokens) -> None:
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", headers=bearer(tokens.agent)).status_code == 403


def test_an_inclusion_proof_over_http_checks_offline(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord
) -> None:
    from accord.ledger import InclusionProof

    seq = escalated.ledger_seqs[-1]
    answer = client.get(f"/api/v1/ledger/entries/{seq}/proof", headers=bearer(tokens.auditor))
    assert answer.status_code == 200
    proof = InclusionProof.model_validate(answer.json())
    proof.verify(accord.keyring.trusted_public_keys())
    missing = client.get("/api/v1/ledger/entries/999/proof", headers=bearer(tokens.auditor))
    assert missing.status_code == 404


def test_a_consistency_proof_links_two_checkpoints(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord
) -> None:
    from accord.ledger import ConsistencyProof

    old = accord.ledger.checkpoint().tree_size
    accord.settle("Ticket 9", [{"agent": "a:1", "output": "x"}, {"agent": "a:2", "output": "x"}])
    accord.ledger.checkpoint()
    answer = client.get(
        "/api/v1/ledger/consistency", params={"old_size": old}, headers=bearer(tokens.auditor)
    )
    assert answer.status_code == 200
    ConsistencyProof.model_validate(answer.json()).verify(accord.keyring.trusted_public_keys())
    unknown = client.get(
        "/api/v1/ledger/consistency", params={"old_size": 12345}, headers=bearer(tokens.auditor)
    )
    assert unknown.status_code == 404


def test_a_checkpoint_over_http_is_the_one_the_cli_prints_and_anchors_a_consistency_proof(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord, tmp_path: Path
) -> None:
    first = client.get("/api/v1/ledger/checkpoint", headers=bearer(tokens.auditor))
    assert first.status_code == 200
    old = first.json()
    assert old == accord.ledger.latest_checkpoint().to_json_dict()  # type: ignore[union-attr]
    assert old["tree_size"] == accord.ledger.size()
    # the body is a trusted-checkpoint file as `accord ledger checkpoint --out` writes it
    kept = tmp_path / "anchor.json"
    kept.write_text(json.dumps(old))
    anchor = read_checkpoint_file(kept)
    anchor.verify_signature(accord.keyring.trusted_public_keys())
    again = client.get("/api/v1/ledger/checkpoint", headers=bearer(tokens.admin)).json()
    assert again == old  # nothing appended since: the same checkpoint, not a new one
    accord.settle("Ticket 9", [{"agent": "a:1", "output": "x"}, {"agent": "a:2", "output": "x"}])
    newer = client.get("/api/v1/ledger/checkpoint", headers=bearer(tokens.auditor)).json()
    assert newer["tree_size"] > old["tree_size"]
    proof = client.get(
        "/api/v1/ledger/consistency",
        params={"old_size": old["tree_size"], "new_size": newer["tree_size"]},
        headers=bearer(tokens.auditor),
    ).json()
    assert proof["old_checkpoint"] == old
    assert proof["new_checkpoint"] == newer
    ConsistencyProof.model_validate(proof).verify(accord.keyring.trusted_public_keys())


def test_a_checkpoint_needs_an_auditor_or_admin_key(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    assert client.get("/api/v1/ledger/checkpoint").status_code == 401
    for token in (tokens.agent, tokens.reviewer):
        refused = client.get("/api/v1/ledger/checkpoint", headers=bearer(token))
        assert refused.status_code == 403
        assert refused.json()["field"] == "authorization"


def test_metrics_count_disputes_by_type_status_and_tier(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    def filing(dispute_type: str) -> dict[str, object]:
        return {
            "dispute_type": dispute_type,
            "severity": "medium",
            "complainant": "agent:billing",
            "respondents": ["agent:audit"],
            "subject": "both booked the GPU for tonight",
        }

    opened = accord.disputes.open_many([filing("resource_conflict"), filing("resource_conflict")])
    accord.disputes.open(filing("directive_conflict"))
    accord.disputes.escalate(opened[0].dispute_id, by="agent:audit", to_tier="human_appeal")
    text = client.get("/metrics", headers=bearer(tokens.auditor)).text
    lines = {line for line in text.splitlines() if line.startswith("accord_disputes{")}
    assert lines == {
        'accord_disputes{dispute_type="resource_conflict",status="open",'
        'tier="direct_negotiation"} 1.0',
        'accord_disputes{dispute_type="resource_conflict",status="appealing",'
        'tier="human_appeal"} 1.0',
        'accord_disputes{dispute_type="directive_conflict",status="open",'
        'tier="contextual_arbitration"} 1.0',
    }
