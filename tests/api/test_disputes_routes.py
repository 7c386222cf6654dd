"""DCP-07 disputes over HTTP: an agent files, adds evidence, escalates and withdraws as itself
(identity from the key, never the body), reads only its own disputes; refusals name the
field, the rule and the R-number; a refused call writes nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from accord.api import ApiKeyStore
from accord.app import Accord
from accord.clock import FrozenClock
from accord.dcp07 import verify_signed
from accord.precedents import BundleDraft
from tests.api.conftest import Tokens, bearer
from tests.precedents.conftest import draft_data

COMPLAINANT = "agent:billing"  # the conftest's agent key
RESPONDENT = "agent:audit"


def _evidence(n: int = 1, **changes: Any) -> dict[str, Any]:
    return {
        "evidence_type": "log",
        "reference": f"log:{n}",
        "description": f"booking log {n}",
        "content": {"booked": n},
        **changes,
    }


def _filing(**changes: Any) -> dict[str, Any]:
    return {
        "dispute_type": "resource_conflict",
        "severity": "medium",
        "respondents": [RESPONDENT],
        "subject": "both booked the GPU for tonight",
        "evidence": [_evidence(1)],
        **changes,
    }


@pytest.fixture
def respondent(keys: ApiKeyStore) -> str:
    return keys.create("agent", agent_id=RESPONDENT)[1]


@pytest.fixture
def stranger(keys: ApiKeyStore) -> str:
    return keys.create("agent", agent_id="agent:stranger")[1]


def _open(client: TestClient[Litestar], token: str, **changes: Any) -> dict[str, Any]:
    answer = client.post("/api/v1/disputes", json=_filing(**changes), headers=bearer(token))
    assert answer.status_code == 201, answer.text
    return answer.json()  # type: ignore[no-any-return]


def _ledger_size(accord: Accord) -> int:
    return accord.ledger.size()


def test_r02_r05_an_agent_files_a_dispute_as_its_own_complainant_signed_into_the_ledger(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    opened = _open(client, tokens.agent)
    record = opened["record"]
    assert record["complainant"]["agent_id"] == COMPLAINANT
    assert [r["agent_id"] for r in record["respondents"]] == [RESPONDENT]
    assert (record["status"], record["current_escalation_level"]) == ("open", "direct_negotiation")
    assert record["evidence"][0]["submitted_by"] == COMPLAINANT
    stored = accord.disputes.show(record["dispute_id"])
    verify_signed(stored.record, accord.ledger.signer.public_key)
    assert opened["ledger_seqs"] == list(stored.ledger_seqs)
    assert accord.ledger.get(stored.ledger_seqs[0]).event_type == "dispute_opened"
    shown = client.get(f"/api/v1/disputes/{record['dispute_id']}", headers=bearer(tokens.agent))
    assert shown.status_code == 200
    assert shown.json() == opened


def test_a_body_naming_the_complainant_is_refused_and_nothing_is_written(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    before = _ledger_size(accord)
    answer = client.post(
        "/api/v1/disputes",
        json=_filing(complainant="agent:audit"),
        headers=bearer(tokens.agent),
    )
    assert answer.status_code == 400
    assert answer.json()["field"] == "complainant"
    assert _ledger_size(accord) == before
    assert accord.disputes.list().items == ()


@pytest.mark.parametrize(
    ("changes", "field", "requirement"),
    [
        ({"dispute_type": "turf_war"}, "dispute_type", "R1"),
        ({"severity": "apocalyptic"}, "severity", "R3"),
        ({"evidence": [_evidence(1, content_hash="sha256:" + "0" * 64)]}, "evidence", "R33"),
        ({"severity": "critical", "evidence": []}, "evidence", "R34"),
        ({"severity": "low", "start_at_appeal": True}, "start_at_appeal", "R18"),
    ],
)
def test_a_filing_a_dcp_rule_refuses_names_field_rule_and_requirement_and_writes_nothing(
    client: TestClient[Litestar],
    tokens: Tokens,
    accord: Accord,
    changes: dict[str, Any],
    field: str,
    requirement: str,
) -> None:
    before = _ledger_size(accord)
    answer = client.post("/api/v1/disputes", json=_filing(**changes), headers=bearer(tokens.agent))
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert body["requirement"] == requirement
    assert body["field"].startswith(field)
    assert body["rule"]
    assert _ledger_size(accord) == before
    assert accord.disputes.list().items == ()


def test_r24_a_filing_over_http_states_sentence_conditions_and_cites_what_matched(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    bundle = accord.precedents.add(
        BundleDraft.model_validate(draft_data(conditions=["Both agents hold equal priority"]))
    )
    opened = _open(client, tokens.agent, conditions=["both agents  hold EQUAL priority"])
    (cited,) = opened["record"]["precedents_cited"]
    assert cited["jurisprudence_id"] == bundle.jurisprudence_id
    assert '"Both agents hold equal priority"' in cited["relevance"]
    before = _ledger_size(accord)
    blank = client.post(
        "/api/v1/disputes", json=_filing(conditions=["  "]), headers=bearer(tokens.agent)
    )
    assert blank.status_code == 422, blank.text
    assert blank.json()["field"].startswith("conditions")
    assert _ledger_size(accord) == before


def test_r34_the_eleventh_filing_in_a_day_is_refused(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    for n in range(10):
        _open(client, tokens.agent, subject=f"booking {n}")
    answer = client.post("/api/v1/disputes", json=_filing(), headers=bearer(tokens.agent))
    assert answer.status_code == 422
    assert answer.json()["requirement"] == "R34"


def test_r33_a_party_adds_evidence_as_itself_and_anyone_entitled_reads_its_content(
    client: TestClient[Litestar], tokens: Tokens, respondent: str
) -> None:
    dispute_id = _open(client, tokens.agent)["record"]["dispute_id"]
    added = client.post(
        f"/api/v1/disputes/{dispute_id}/evidence",
        json={"evidence": [_evidence(2, content={"booked": 2, "by": "audit"})]},
        headers=bearer(respondent),
    )
    assert added.status_code == 201, added.text
    evidence = added.json()["record"]["evidence"]
    assert [e["submitted_by"] for e in evidence] == [COMPLAINANT, RESPONDENT]
    assert added.json()["record"]["timeline"][-1]["event"] == "dispute_evidence_submitted"
    evidence_id = evidence[1]["evidence_id"]
    for token in (tokens.agent, tokens.auditor):
        content = client.get(
            f"/api/v1/disputes/{dispute_id}/evidence/{evidence_id}", headers=bearer(token)
        )
        assert content.status_code == 200
        assert content.json()["media"] == "json"
        assert content.json()["content"] == {"booked": 2, "by": "audit"}
    unknown = client.get(
        f"/api/v1/disputes/{dispute_id}/evidence/evid:nope", headers=bearer(tokens.agent)
    )
    assert unknown.status_code == 404
    assert unknown.json()["requirement"] == "R33"


def test_r33_several_pieces_of_evidence_are_one_event_and_one_bad_hash_adds_none(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    dispute_id = _open(client, tokens.agent)["record"]["dispute_id"]
    url = f"/api/v1/disputes/{dispute_id}/evidence"
    bad = [_evidence(2), _evidence(3, content_hash="sha256:" + "2" * 64)]
    refused = client.post(url, json={"evidence": bad}, headers=bearer(tokens.agent))
    assert refused.status_code == 422
    assert refused.json()["requirement"] == "R33"
    assert len(accord.disputes.show(dispute_id).record.evidence) == 1
    added = client.post(
        url, json={"evidence": [_evidence(2), _evidence(3)]}, headers=bearer(tokens.agent)
    )
    assert added.status_code == 201, added.text
    record = added.json()["record"]
    assert [e["reference"] for e in record["evidence"]] == ["log:1", "log:2", "log:3"]
    assert [t["event"] for t in record["timeline"]] == [
        "dispute_opened",
        "dispute_evidence_submitted",
    ]


def test_r33_evidence_that_does_not_hash_to_its_hash_is_refused_and_not_added(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    dispute_id = _open(client, tokens.agent)["record"]["dispute_id"]
    before = _ledger_size(accord)
    answer = client.post(
        f"/api/v1/disputes/{dispute_id}/evidence",
        json={"evidence": [_evidence(2, content_hash="sha256:" + "1" * 64)]},
        headers=bearer(tokens.agent),
    )
    assert answer.status_code == 422
    assert answer.json()["requirement"] == "R33"
    assert _ledger_size(accord) == before
    assert len(accord.disputes.show(dispute_id).record.evidence) == 1


def test_another_agents_key_can_neither_read_nor_act_on_a_dispute(
    client: TestClient[Litestar], tokens: Tokens, stranger: str, accord: Accord
) -> None:
    dispute_id = _open(client, tokens.agent)["record"]["dispute_id"]
    before = _ledger_size(accord)
    base = f"/api/v1/disputes/{dispute_id}"
    read = client.get(base, headers=bearer(stranger))
    assert read.status_code == 403
    assert read.json()["field"] == "dispute_id"
    assert client.get(f"{base}/export", headers=bearer(stranger)).status_code == 403
    evidence = client.post(
        f"{base}/evidence", json={"evidence": [_evidence(2)]}, headers=bearer(stranger)
    )
    assert evidence.status_code == 403
    assert (evidence.json()["code"], evidence.json()["field"]) == ("disputes.not_a_party", "by")
    escalated = client.post(f"{base}/escalate", json={}, headers=bearer(stranger))
    assert escalated.status_code == 403
    assert escalated.json()["requirement"] == "R17"
    assert client.post(f"{base}/withdraw", json={}, headers=bearer(stranger)).status_code == 403
    assert _ledger_size(accord) == before
    others = client.get("/api/v1/disputes", params={"party": COMPLAINANT}, headers=bearer(stranger))
    assert others.status_code == 403
    assert others.json()["field"] == "party"
    own = client.get("/api/v1/disputes", headers=bearer(stranger))
    assert own.json()["items"] == []


def test_only_agent_keys_act_and_overseers_read_every_dispute(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    assert client.post("/api/v1/disputes", json=_filing()).status_code == 401
    for token in (tokens.reviewer, tokens.auditor, tokens.admin):
        refused = client.post("/api/v1/disputes", json=_filing(), headers=bearer(token))
        assert refused.status_code == 403
        assert refused.json()["field"] == "authorization"
    dispute_id = _open(client, tokens.agent)["record"]["dispute_id"]
    for token in (tokens.reviewer, tokens.auditor, tokens.admin):
        assert (
            client.get(f"/api/v1/disputes/{dispute_id}", headers=bearer(token)).status_code == 200
        )
        listed = client.get("/api/v1/disputes", headers=bearer(token)).json()["items"]
        assert [d["dispute_id"] for d in listed] == [dispute_id]
        escalate = client.post(
            f"/api/v1/disputes/{dispute_id}/escalate", json={}, headers=bearer(token)
        )
        assert escalate.status_code == 403


def test_r17_a_party_escalates_to_human_appeal_at_any_time_and_then_nothing_is_above(
    client: TestClient[Litestar], tokens: Tokens, respondent: str
) -> None:
    dispute_id = _open(client, tokens.agent)["record"]["dispute_id"]
    escalated = client.post(
        f"/api/v1/disputes/{dispute_id}/escalate",
        json={"to_tier": "human_appeal", "reason": "the panel is too slow"},
        headers=bearer(respondent),
    )
    assert escalated.status_code == 200, escalated.text
    record = escalated.json()["record"]
    assert (record["status"], record["current_escalation_level"]) == ("appealing", "human_appeal")
    assert record["timeline"][-1] == {
        "event": "dispute_escalated",
        "timestamp": record["timeline"][-1]["timestamp"],
        "actor": RESPONDENT,
    }
    assert escalated.json()["party_escalated"] is True
    again = client.post(
        f"/api/v1/disputes/{dispute_id}/escalate", json={}, headers=bearer(tokens.agent)
    )
    assert again.status_code == 422
    assert (again.json()["field"], again.json()["requirement"]) == ("to_tier", "R38")


def test_r06_only_the_complainant_withdraws_and_a_withdrawn_dispute_takes_no_step(
    client: TestClient[Litestar], tokens: Tokens, respondent: str, accord: Accord
) -> None:
    dispute_id = _open(client, tokens.agent)["record"]["dispute_id"]
    base = f"/api/v1/disputes/{dispute_id}"
    by_respondent = client.post(f"{base}/withdraw", json={}, headers=bearer(respondent))
    assert by_respondent.status_code == 403
    assert by_respondent.json()["code"] == "disputes.not_complainant"
    withdrawn = client.post(
        f"{base}/withdraw", json={"reason": "settled it over coffee"}, headers=bearer(tokens.agent)
    )
    assert withdrawn.status_code == 200
    assert withdrawn.json()["record"]["status"] == "withdrawn"
    before = _ledger_size(accord)
    evidence = client.post(
        f"{base}/evidence", json={"evidence": [_evidence(2)]}, headers=bearer(tokens.agent)
    )
    assert evidence.status_code == 409
    assert (evidence.json()["code"], evidence.json()["requirement"]) == ("disputes.final", "R6")
    twice = client.post(f"{base}/withdraw", json={}, headers=bearer(tokens.agent))
    assert twice.status_code == 409
    assert (twice.json()["field"], twice.json()["requirement"]) == ("status", "R6")
    escalate = client.post(f"{base}/escalate", json={}, headers=bearer(tokens.agent))
    assert escalate.status_code == 409
    assert _ledger_size(accord) == before


def test_an_unknown_dispute_is_404_and_a_malformed_id_400(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    unknown = client.get(
        "/api/v1/disputes/disp:00000000-0000-7000-8000-000000000000", headers=bearer(tokens.admin)
    )
    assert unknown.status_code == 404
    assert unknown.json()["code"] == "disputes.not_found"
    malformed = client.get("/api/v1/disputes/nonsense", headers=bearer(tokens.admin))
    assert malformed.status_code == 400
    assert malformed.json()["field"] == "dispute_id"


def test_disputes_list_by_filter_in_pages_oldest_first(
    client: TestClient[Litestar], tokens: Tokens, frozen_clock: FrozenClock
) -> None:
    ids = []
    for n in range(4):  # ids order by opening time to the millisecond (UUIDv7)
        frozen_clock.advance(timedelta(seconds=1))
        kind = "policy_conflict" if n == 3 else "resource_conflict"
        ids.append(_open(client, tokens.agent, dispute_type=kind)["record"]["dispute_id"])
    *ids, policy = ids
    first = client.get("/api/v1/disputes", params={"limit": 2}, headers=bearer(tokens.agent))
    page = first.json()
    assert [d["dispute_id"] for d in page["items"]] == ids[:2]
    rest = client.get(
        "/api/v1/disputes",
        params={"limit": 2, "after": page["next_after"]},
        headers=bearer(tokens.agent),
    ).json()
    assert [d["dispute_id"] for d in rest["items"]] == [ids[2], policy]
    assert rest["next_after"] is None
    by_type = client.get(
        "/api/v1/disputes",
        params={"dispute_type": "policy_conflict"},
        headers=bearer(tokens.auditor),
    ).json()
    assert [d["dispute_id"] for d in by_type["items"]] == [policy]
    bad = client.get(
        "/api/v1/disputes", params={"status": "sulking"}, headers=bearer(tokens.auditor)
    )
    assert bad.status_code == 422
    assert bad.json()["field"] == "status"


def test_an_exported_sdk_record_imports_as_the_stored_dispute_and_a_tampered_one_is_refused(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    dispute_id = _open(client, tokens.agent)["record"]["dispute_id"]
    nonce = "ab" * 32
    exported = client.get(
        f"/api/v1/disputes/{dispute_id}/export",
        params={"session_nonce": nonce},
        headers=bearer(tokens.agent),
    )
    assert exported.status_code == 200, exported.text
    sdk = exported.json()
    assert (sdk["dispute_id"], sdk["session_nonce"]) == (dispute_id, nonce)
    before = _ledger_size(accord)
    imported = client.post(
        "/api/v1/disputes/import", json={"record": sdk}, headers=bearer(tokens.auditor)
    )
    assert imported.status_code == 200, imported.text
    assert imported.json()["agrees"] is True
    assert imported.json()["record"] == accord.disputes.show(dispute_id).record.model_dump(
        mode="json"
    )
    tampered = client.post(
        "/api/v1/disputes/import",
        json={"record": {**sdk, "dispute_type": "policy_conflict"}},
        headers=bearer(tokens.auditor),
    )
    assert tampered.status_code == 422
    assert tampered.json()["code"] == "crypto.signature_invalid"
    assert tampered.json()["field"] == "record.composite_sig"
    assert _ledger_size(accord) == before


def test_the_openapi_document_describes_every_dispute_route(client: TestClient[Litestar]) -> None:
    answer = client.get("/schema/openapi.json")
    assert answer.status_code == 200  # every record model a route answers has an OpenAPI form
    paths = answer.json()["paths"]
    for path in (
        "/api/v1/disputes",
        "/api/v1/disputes/{dispute_id}/evidence",
        "/api/v1/disputes/{dispute_id}/panel/signatures",
        "/api/v1/disputes/{dispute_id}/objections",
        "/api/v1/objections/{objection_id}/stay",
        "/api/v1/ledger/checkpoint",
    ):
        assert path in paths, path


# --- several filings in one transaction (Accord.disputes.open_many) ------------------------


def _batch(client: TestClient[Litestar], token: str, filings: list[dict[str, Any]]) -> Any:
    return client.post("/api/v1/disputes/batch", json={"filings": filings}, headers=bearer(token))


def test_an_agent_files_several_disputes_in_one_call_each_as_its_own_complainant(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    answer = _batch(client, tokens.agent, [_filing(subject=f"booking {n}") for n in range(3)])
    assert answer.status_code == 201, answer.text
    items = answer.json()["items"]
    assert [i["record"]["subject"]["description"] for i in items] == [
        f"booking {n}" for n in range(3)
    ]
    assert {i["record"]["complainant"]["agent_id"] for i in items} == {COMPLAINANT}
    stored = accord.disputes.list().items
    assert [d.dispute_id for d in stored] == [i["record"]["dispute_id"] for i in items]
    for item in items:
        entry = accord.ledger.get(item["ledger_seqs"][0])
        assert entry.event_type == "dispute_opened"


@pytest.mark.parametrize(
    ("second", "field", "requirement"),
    [
        ({"dispute_type": "turf_war"}, "filings[1].dispute_type", "R1"),
        ({"severity": "critical", "evidence": []}, "filings[1].evidence", "R34"),
    ],
)
def test_one_refused_filing_in_a_batch_files_none_and_names_its_index(
    client: TestClient[Litestar],
    tokens: Tokens,
    accord: Accord,
    second: dict[str, Any],
    field: str,
    requirement: str,
) -> None:
    before = _ledger_size(accord)
    answer = _batch(client, tokens.agent, [_filing(), _filing(**second), _filing()])
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert (body["field"], body["requirement"]) == (field, requirement)
    assert body["rule"]
    assert _ledger_size(accord) == before
    assert accord.disputes.list().items == ()


def test_a_batch_naming_a_complainant_or_malformed_is_refused_naming_the_field(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    before = _ledger_size(accord)
    foreign = _batch(client, tokens.agent, [_filing(), _filing(complainant=RESPONDENT)])
    assert foreign.status_code == 400  # who files is the key's agent: no body names it
    assert foreign.json()["field"] == "filings.1.complainant"
    empty = _batch(client, tokens.agent, [])
    assert empty.status_code == 400
    assert empty.json()["field"] == "filings"
    assert _ledger_size(accord) == before
    assert accord.disputes.list().items == ()


def test_only_agent_keys_file_batches(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    for token in (tokens.reviewer, tokens.auditor, tokens.admin):
        answer = _batch(client, token, [_filing()])
        assert answer.status_code == 403
        assert answer.json()["field"] == "authorization"
    assert _batch(client, "not-a-key", [_filing()]).status_code == 401
    assert accord.disputes.list().items == ()
