"""Prepare-then-sign (issue 13): an agent signs its own tier steps with a key the service never
holds; the service shows the bytes, checks the signatures, and records the ordinary step."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer, RecordSignature, verify_record
from accord.disputes.negotiation import commitment
from accord.disputes.protocol import Disputes
from accord.disputes.tiers import UnknownActor
from accord.disputes.tiers.prepared import PayloadSignature, StepOutcome, sign_payloads
from accord.errors import AccordError, NotFound, SignatureInvalid
from accord.ledger import Ledger
from accord.precedents import Precedents, PrecedentSearch, PrecedentStore
from accord.store import Database
from accord.store.tables import dispute_negotiation_steps, dispute_prepared_steps, ledger_entries

A, B = "agent-a", "agent-b"


def _key(name: str) -> Ed25519Signer:
    return Ed25519Signer.from_seed(hashlib.sha256(f"own key of {name}".encode()).digest())


@pytest.fixture
def disputes(db: Database, ledger: Ledger, frozen_clock: FrozenClock) -> Disputes:
    precedents = Precedents(PrecedentStore(db, frozen_clock), PrecedentSearch(db), ledger.signer)
    for agent in (A, B):
        ledger.register_key(_key(agent).public_key, "agent", agent)
    return Disputes(ledger, frozen_clock, precedents=precedents)


def _open(disputes: Disputes) -> str:
    return disputes.open(
        dispute_type="resource_conflict",
        severity="medium",
        complainant=A,
        respondents=[B],
        subject="both booked the GPU for tonight",
        evidence=[
            {
                "evidence_type": "log",
                "reference": "log:1",
                "description": "booking",
                "content": {"booked": 1},
            }
        ],
    ).record.dispute_id


def _by_own_key(disputes: Disputes, dispute_id: str, agent: str, step: dict[str, Any]) -> Any:
    """Prepare ``step`` as ``agent``, sign every payload with its own key until it completes."""
    prepared = disputes.tiers.prepared.prepare(dispute_id, step, by=agent)
    while True:
        outcome = disputes.tiers.prepared.complete(
            prepared.prepared_id, sign_payloads(prepared, _key(agent)), by=agent
        )
        if outcome.status == "completed":
            return outcome.result
        prepared = outcome.prepared


def _count(db: Database, table: Any) -> int:
    with db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def test_agents_propose_and_accept_with_their_own_keys_and_the_dispute_resolves(
    disputes: Disputes,
) -> None:
    dispute_id = _open(disputes)
    proposal = _by_own_key(disputes, dispute_id, A, {"step": "propose", "terms": "A runs first"})
    step = _by_own_key(
        disputes, dispute_id, B, {"step": "accept", "proposal_id": proposal.proposal_id}
    )

    assert step.resolution is not None
    assert [s.agent_id for s in step.resolution.signatures] == [A, B]
    assert [s.kid for s in step.resolution.signatures] == [_key(A).kid, _key(B).kid]
    assert disputes.show(dispute_id).record.status == "resolved"
    assert disputes.verify_resolution(dispute_id) == step.resolution


def test_each_party_signed_event_carries_the_agents_own_signature(
    disputes: Disputes, ledger: Ledger
) -> None:
    dispute_id = _open(disputes)
    _by_own_key(disputes, dispute_id, A, {"step": "propose", "terms": "A runs first"})

    entry = ledger.tail(1)[0]
    details = entry.record["details"]
    assert details["step"] == "proposal"
    party = details["party_signature"]
    assert party["kid"] == _key(A).kid
    unsigned = {k: v for k, v in details.items() if k != "party_signature"}
    verify_record(unsigned, RecordSignature(**party), _key(A).public_key)


def test_a_proposal_takes_two_rounds_because_its_record_carries_the_draft_signature(
    disputes: Disputes, db: Database
) -> None:
    dispute_id = _open(disputes)
    prepared = disputes.tiers.prepared.prepare(
        dispute_id, {"step": "propose", "terms": "share it"}, by=A
    )
    assert [p.what.split(" ")[1] for p in prepared.payloads] == ["§6"]

    first = disputes.tiers.prepared.complete(
        prepared.prepared_id, sign_payloads(prepared, _key(A)), by=A
    )

    assert first.status == "awaiting_signatures"
    assert first.prepared.signed == 1
    assert "proposal step" in first.prepared.payloads[0].what
    assert _count(db, dispute_negotiation_steps) == 0


def test_preparing_writes_nothing_but_the_prepared_row(disputes: Disputes, db: Database) -> None:
    dispute_id = _open(disputes)
    entries = _count(db, ledger_entries)

    disputes.tiers.prepared.prepare(dispute_id, {"step": "propose", "terms": "share it"}, by=A)

    assert _count(db, ledger_entries) == entries
    assert _count(db, dispute_negotiation_steps) == 0
    assert _count(db, dispute_prepared_steps) == 1
    assert disputes.show(dispute_id).record.status == "open"


def test_a_dispute_that_moved_since_prepare_is_stale_and_nothing_is_written(
    disputes: Disputes, db: Database
) -> None:
    dispute_id = _open(disputes)
    prepared = disputes.tiers.prepared.prepare(
        dispute_id, {"step": "counter_evidence", "content_hash": "sha256:" + "cd" * 32,
                     "description": "the audit is statutory"}, by=A,
    )  # fmt: skip
    _by_own_key(disputes, dispute_id, B, {"step": "propose", "terms": "B runs first"})
    entries = _count(db, ledger_entries)

    with pytest.raises(AccordError) as refused:
        disputes.tiers.prepared.complete(
            prepared.prepared_id, sign_payloads(prepared, _key(A)), by=A
        )

    assert refused.value.code == "disputes.prepared_stale"
    assert _count(db, ledger_entries) == entries


def test_an_expired_prepared_step_is_refused(disputes: Disputes, frozen_clock: FrozenClock) -> None:
    dispute_id = _open(disputes)
    prepared = disputes.tiers.prepared.prepare(
        dispute_id, {"step": "propose", "terms": "share it"}, by=A
    )
    frozen_clock.advance(disputes.tiers.prepared.ttl)

    with pytest.raises(AccordError) as refused:
        disputes.tiers.prepared.complete(
            prepared.prepared_id, sign_payloads(prepared, _key(A)), by=A
        )

    assert refused.value.code == "disputes.prepared_expired"


def test_a_prepared_step_expires_no_later_than_the_tier_deadline(
    disputes: Disputes, frozen_clock: FrozenClock
) -> None:
    dispute_id = _open(disputes)
    deadline = datetime.fromisoformat(str(disputes.show(dispute_id).record.escalation_deadline))
    frozen_clock.advance(deadline - frozen_clock.now() - timedelta(seconds=30))

    prepared = disputes.tiers.prepared.prepare(
        dispute_id, {"step": "propose", "terms": "share it"}, by=A
    )

    assert prepared.expires_at == deadline
    assert prepared.expires_at - prepared.prepared_at < disputes.tiers.prepared.ttl


def test_a_second_completion_is_refused_and_records_nothing_twice(
    disputes: Disputes, db: Database
) -> None:
    dispute_id = _open(disputes)
    flip = {"step": "commit", "commitment": commitment(dispute_id, A, bytes(32), "x")}
    prepared = disputes.tiers.prepared.prepare(dispute_id, flip, by=A)
    signatures = sign_payloads(prepared, _key(A))
    done = disputes.tiers.prepared.complete(prepared.prepared_id, signatures, by=A)
    assert done.status == "completed"
    entries = _count(db, ledger_entries)

    with pytest.raises(AccordError) as refused:
        disputes.tiers.prepared.complete(prepared.prepared_id, signatures, by=A)

    assert refused.value.code == "disputes.prepared_consumed"
    assert _count(db, ledger_entries) == entries


def test_a_signature_by_another_key_is_refused_naming_the_payload(
    disputes: Disputes, db: Database
) -> None:
    dispute_id = _open(disputes)
    prepared = disputes.tiers.prepared.prepare(
        dispute_id, {"step": "propose", "terms": "share it"}, by=A
    )
    stranger = Ed25519Signer.from_seed(bytes(32))
    forged = [
        PayloadSignature(sha256=s.sha256, signature_b64=s.signature_b64)
        for s in sign_payloads(prepared.model_copy(update={"kid": stranger.kid}), stranger)
    ]
    entries = _count(db, ledger_entries)

    with pytest.raises(SignatureInvalid) as refused:
        disputes.tiers.prepared.complete(prepared.prepared_id, forged, by=A)

    assert refused.value.context["field"] == "signatures[0]"
    assert _count(db, ledger_entries) == entries
    again = disputes.tiers.prepared.complete(  # the prepared step is still usable
        prepared.prepared_id, sign_payloads(prepared, _key(A)), by=A
    )
    assert again.status == "awaiting_signatures"


def test_another_agent_cannot_complete_a_prepared_step(disputes: Disputes) -> None:
    dispute_id = _open(disputes)
    prepared = disputes.tiers.prepared.prepare(
        dispute_id, {"step": "propose", "terms": "share it"}, by=A
    )

    with pytest.raises(AccordError) as refused:
        disputes.tiers.prepared.complete(
            prepared.prepared_id, sign_payloads(prepared, _key(A)), by=B
        )

    assert refused.value.code == "disputes.prepared_not_yours"


def test_an_agent_without_a_registered_key_cannot_prepare(disputes: Disputes) -> None:
    dispute_id = _open(disputes)

    with pytest.raises(UnknownActor):
        disputes.tiers.prepared.prepare(
            dispute_id, {"step": "propose", "terms": "share it"}, by="agent-c"
        )


def test_a_step_the_tier_refuses_is_refused_at_prepare(disputes: Disputes, db: Database) -> None:
    dispute_id = _open(disputes)

    with pytest.raises(AccordError) as refused:
        disputes.tiers.prepared.prepare(
            dispute_id, {"step": "accept", "proposal_id": "prop:nothing"}, by=A
        )

    assert refused.value.code != "disputes.prepared_stale"
    assert _count(db, dispute_prepared_steps) == 0


def test_an_unknown_prepared_step_is_not_found(disputes: Disputes) -> None:
    with pytest.raises(NotFound):
        disputes.tiers.prepared.complete("prep:nothing", [], by=A)


def test_the_coin_flip_is_committed_and_revealed_with_the_agents_own_keys(
    disputes: Disputes, frozen_clock: FrozenClock
) -> None:
    dispute_id = _open(disputes)
    nonces = {agent: hashlib.sha256(agent.encode()).digest() for agent in (A, B)}
    for agent, nonce in nonces.items():
        made = commitment(dispute_id, agent, nonce, "heads")
        _by_own_key(disputes, dispute_id, agent, {"step": "commit", "commitment": made})
    frozen_clock.advance(timedelta(seconds=1))
    flip = None
    for agent, nonce in nonces.items():
        flip = _by_own_key(
            disputes, dispute_id, agent,
            {"step": "reveal", "nonce_hex": nonce.hex(), "choice": "heads"},
        )  # fmt: skip

    assert flip is not None
    assert {r.agent_id for r in flip.reveals} == {A, B}


def test_a_signature_must_name_the_payload_it_signs(disputes: Disputes) -> None:
    dispute_id = _open(disputes)
    prepared = disputes.tiers.prepared.prepare(
        dispute_id, {"step": "propose", "terms": "share it"}, by=A
    )
    signed = sign_payloads(prepared, _key(A))[0]

    with pytest.raises(AccordError) as refused:
        disputes.tiers.prepared.complete(
            prepared.prepared_id,
            [signed.model_copy(update={"sha256": "sha256:" + "00" * 32})],
            by=A,
        )

    assert refused.value.context["field"] == "signatures[0].sha256"


def test_outcomes_are_plain_models(disputes: Disputes) -> None:
    dispute_id = _open(disputes)
    made = commitment(dispute_id, A, bytes(32), "x")
    prepared = disputes.tiers.prepared.prepare(
        dispute_id, {"step": "commit", "commitment": made}, by=A
    )
    outcome = disputes.tiers.prepared.complete(
        prepared.prepared_id, sign_payloads(prepared, _key(A)), by=A
    )
    assert StepOutcome.model_validate_json(outcome.model_dump_json()).status == "completed"


def test_a_bad_signature_in_a_later_round_is_named_by_its_place_in_that_request(
    disputes: Disputes,
) -> None:
    dispute_id = _open(disputes)
    prepared = disputes.tiers.prepared.prepare(
        dispute_id, {"step": "propose", "terms": "share it"}, by=A
    )
    second = disputes.tiers.prepared.complete(
        prepared.prepared_id, sign_payloads(prepared, _key(A)), by=A
    ).prepared
    stranger = Ed25519Signer.from_seed(bytes(32))
    forged = sign_payloads(second.model_copy(update={"kid": stranger.kid}), stranger)

    with pytest.raises(SignatureInvalid) as refused:
        disputes.tiers.prepared.complete(second.prepared_id, forged, by=A)

    assert refused.value.context["field"] == "signatures[0]"
    assert refused.value.context["payload"] == 1
