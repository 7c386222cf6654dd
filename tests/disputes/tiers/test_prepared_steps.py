"""Prepare-then-sign (issue 13): an agent signs its own tier steps with a key the service never
holds; the service shows the bytes, checks the signatures, and records the ordinary step."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from accord.clock import FrozenClock
from accord.crypto import DISPUTE_SIG_TAG, Ed25519Signer, RecordSignature, verify_record
from accord.crypto.canonical import canonical_bytes
from accord.crypto.domain import domain_separated_message
from accord.dcp07.negotiation import commitment
from accord.dcp07.panels.votes import reasoning_hash
from accord.disputes import Disputes
from accord.disputes.tiers import UnknownActor
from accord.disputes.tiers.prepared import (
    PayloadSignature,
    PreparedStep,
    StepOutcome,
    sign_payloads,
)
from accord.disputes.tiers.prepared.models import payload_of
from accord.errors import AccordError, NotFound, SignatureInvalid
from accord.ledger import Ledger
from accord.precedents import Precedents, PrecedentSearch, PrecedentStore
from accord.store import Database
from accord.store.tables import dispute_negotiation_steps, dispute_prepared_steps, ledger_entries

A, B = "agent-a", "agent-b"
SHARE = {"step": "propose", "terms": "share it"}
EVIDENCE = {
    "step": "counter_evidence",
    "content_hash": "sha256:" + "cd" * 32,
    "description": "the audit is statutory",
}


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


def _by_own_key(
    disputes: Disputes,
    dispute_id: str,
    agent: str,
    step: dict[str, Any],
    resolves_with: str | None = None,
) -> Any:
    """Prepare ``step`` as ``agent``, sign every payload with its own key until it completes."""
    prepared = disputes.tiers.prepared.prepare(dispute_id, step, by=agent)
    while True:
        signed = _sign(prepared, agent, step, resolves_with)
        outcome = disputes.tiers.prepared.complete(prepared.prepared_id, signed, by=agent)
        if outcome.status == "completed":
            return outcome.result
        prepared = outcome.prepared


def _sign(
    prepared: PreparedStep,
    agent: str,
    step: Mapping[str, Any],
    resolves_with: str | None = None,
    signer: Ed25519Signer | None = None,
) -> list[PayloadSignature]:
    """``agent``'s signatures of ``prepared``, checked against the ``step`` it asked for."""
    return sign_payloads(
        prepared,
        signer or _key(agent),
        agent_id=agent,
        dispute_id=prepared.dispute_id,
        step=step,
        resolves_with=resolves_with,
    )


def _count(db: Database, table: Any) -> int:
    with db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def test_agents_propose_and_accept_with_their_own_keys_and_the_dispute_resolves(
    disputes: Disputes,
) -> None:
    dispute_id = _open(disputes)
    proposal = _by_own_key(disputes, dispute_id, A, {"step": "propose", "terms": "A runs first"})
    step = _by_own_key(
        disputes,
        dispute_id,
        B,
        {"step": "accept", "proposal_id": proposal.proposal_id},
        resolves_with="A runs first",
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

    first = disputes.tiers.prepared.complete(prepared.prepared_id, _sign(prepared, A, SHARE), by=A)

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
    prepared = disputes.tiers.prepared.prepare(dispute_id, EVIDENCE, by=A)
    _by_own_key(disputes, dispute_id, B, {"step": "propose", "terms": "B runs first"})
    entries = _count(db, ledger_entries)

    with pytest.raises(AccordError) as refused:
        disputes.tiers.prepared.complete(prepared.prepared_id, _sign(prepared, A, EVIDENCE), by=A)

    assert refused.value.code == "disputes.prepared_stale"
    assert _count(db, ledger_entries) == entries


def test_an_expired_prepared_step_is_refused(disputes: Disputes, frozen_clock: FrozenClock) -> None:
    dispute_id = _open(disputes)
    prepared = disputes.tiers.prepared.prepare(
        dispute_id, {"step": "propose", "terms": "share it"}, by=A
    )
    frozen_clock.advance(disputes.tiers.prepared.ttl)

    with pytest.raises(AccordError) as refused:
        disputes.tiers.prepared.complete(prepared.prepared_id, _sign(prepared, A, SHARE), by=A)

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
    signatures = _sign(prepared, A, flip)
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
        for s in _sign(prepared.model_copy(update={"kid": stranger.kid}), A, SHARE, signer=stranger)
    ]
    entries = _count(db, ledger_entries)

    with pytest.raises(SignatureInvalid) as refused:
        disputes.tiers.prepared.complete(prepared.prepared_id, forged, by=A)

    assert refused.value.context["field"] == "signatures[0]"
    assert _count(db, ledger_entries) == entries
    again = disputes.tiers.prepared.complete(  # the prepared step is still usable
        prepared.prepared_id, _sign(prepared, A, SHARE), by=A
    )
    assert again.status == "awaiting_signatures"


def test_another_agent_cannot_complete_a_prepared_step(disputes: Disputes) -> None:
    dispute_id = _open(disputes)
    prepared = disputes.tiers.prepared.prepare(
        dispute_id, {"step": "propose", "terms": "share it"}, by=A
    )

    with pytest.raises(AccordError) as refused:
        disputes.tiers.prepared.complete(prepared.prepared_id, _sign(prepared, A, SHARE), by=B)

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
    signed = _sign(prepared, A, SHARE)[0]

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
        prepared.prepared_id, _sign(prepared, A, {"step": "commit", "commitment": made}), by=A
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
        prepared.prepared_id, _sign(prepared, A, SHARE), by=A
    ).prepared
    stranger = Ed25519Signer.from_seed(bytes(32))
    forged = _sign(second.model_copy(update={"kid": stranger.kid}), A, SHARE, signer=stranger)

    with pytest.raises(SignatureInvalid) as refused:
        disputes.tiers.prepared.complete(second.prepared_id, forged, by=A)

    assert refused.value.context["field"] == "signatures[0]"
    assert refused.value.context["payload"] == 1


# -- what a malicious server could show: a correct sha256 and tag over another record -------

D = "disp:0197aaaa-0000-7000-8000-0000000000d1"
OTHER = "disp:0197aaaa-0000-7000-8000-0000000000d2"
COMMIT = {"step": "commit", "commitment": "sha256:" + "11" * 32}
ACCEPT = {"step": "accept", "proposal_id": "prop:1"}
VOTE = {"step": "vote", "vote": "approve", "reasoning": "billing was first"}
_RECORDS: dict[str, dict[str, Any]] = {
    "propose": {"record_type": "arbitration_resolution", "dispute_id": D,
                "resolution_level": "direct_negotiation", "outcome": {"description": "share it"}},
    "accept": {"dispute_id": D, "step": "acceptance", "agent_id": A, "proposal_id": "prop:1"},
    "commit": {"dispute_id": D, "step": "coin_commit", "agent_id": A,
               "commitment": COMMIT["commitment"]},
    "vote": {"record_type": "dcp07_panel_vote", "dispute_id": D, "panel_id": "panel:1",
             "agent_id": A, "vote": "approve", "reasoning_hash": reasoning_hash(VOTE["reasoning"])},
}  # fmt: skip
_ASKED = {"propose": SHARE, "accept": ACCEPT, "commit": COMMIT, "vote": VOTE}


def _shown_by_server(step: str, record: dict[str, Any]) -> PreparedStep:
    """A prepared step as any server could answer it: any record, its true sha256 and tag."""
    message = domain_separated_message(DISPUTE_SIG_TAG, canonical_bytes(record))
    moment = datetime(2026, 1, 1, tzinfo=UTC)
    return PreparedStep(
        prepared_id="prep:x", dispute_id=D, step=step, actor_id=A, role="agent",
        kid=_key(A).kid, prepared_at=moment, expires_at=moment, signed=0,
        payloads=(payload_of(0, message),),
    )  # fmt: skip


@pytest.mark.parametrize("step", sorted(_RECORDS))
def test_a_payload_matching_the_step_asked_for_is_signed(step: str) -> None:
    signed = sign_payloads(
        _shown_by_server(step, _RECORDS[step]), _key(A), agent_id=A, dispute_id=D,
        step=_ASKED[step],
    )  # fmt: skip

    assert len(signed) == 1


@pytest.mark.parametrize(
    ("step", "change", "field"),
    [
        ("propose", {"outcome": {"description": "A keeps everything"}}, "outcome.description"),
        ("propose", {"resolution_level": "contextual_arbitration"}, "resolution_level"),
        ("accept", {"proposal_id": "prop:2"}, "proposal_id"),
        ("vote", {"vote": "dissent"}, "vote"),
        ("vote", {"reasoning_hash": reasoning_hash("audit was first")}, "reasoning_hash"),
        ("commit", {"dispute_id": OTHER}, "dispute_id"),
        ("commit", {"agent_id": B}, "agent_id"),
        ("commit", {"commitment": "sha256:" + "22" * 32}, "commitment"),
        ("commit", {"step": "coin_reveal"}, "step"),
    ],
)
def test_a_payload_the_server_altered_is_refused_naming_the_field(
    step: str, change: dict[str, Any], field: str
) -> None:
    shown = _shown_by_server(step, {**_RECORDS[step], **change})

    with pytest.raises(AccordError) as refused:
        sign_payloads(shown, _key(A), agent_id=A, dispute_id=D, step=_ASKED[step])

    assert refused.value.code == "disputes.prepared_payload_refused"
    assert refused.value.context["field"] == f"payloads[0].{field}"


def test_a_resolution_an_acceptance_signs_must_resolve_with_the_terms_the_agent_names() -> None:
    draft = {**_RECORDS["propose"], "outcome": {"description": "B pays"}}
    shown = _shown_by_server("accept", draft)

    for named in (None, "share it"):
        with pytest.raises(AccordError) as refused:
            sign_payloads(
                shown, _key(A), agent_id=A, dispute_id=D, step=ACCEPT, resolves_with=named
            )
        assert refused.value.context["field"] == "payloads[0].outcome.description"
    assert sign_payloads(shown, _key(A), agent_id=A, dispute_id=D, step=ACCEPT,
                         resolves_with="B pays")  # fmt: skip


def test_an_answer_about_another_dispute_or_step_than_asked_is_refused() -> None:
    shown = _shown_by_server("commit", _RECORDS["commit"])

    for asked in ({"dispute_id": OTHER, "step": COMMIT}, {"dispute_id": D, "step": ACCEPT}):
        with pytest.raises(AccordError) as refused:
            sign_payloads(shown, _key(A), agent_id=A, **asked)
        assert refused.value.code == "disputes.prepared_payload_refused"


# -- a step's own window bounds its prepared step ---------------------------------------------


def test_a_commit_expires_at_the_flips_commit_deadline_and_is_refused_after_it(
    disputes: Disputes, db: Database, frozen_clock: FrozenClock
) -> None:
    dispute_id = _open(disputes)
    opened = {"step": "commit", "commitment": commitment(dispute_id, B, bytes(32), "y")}
    flip = _by_own_key(disputes, dispute_id, B, opened)
    frozen_clock.advance(flip.commit_deadline - frozen_clock.now() - timedelta(seconds=30))
    step = {"step": "commit", "commitment": commitment(dispute_id, A, bytes(32), "x")}
    prepared = disputes.tiers.prepared.prepare(dispute_id, step, by=A)
    assert prepared.expires_at == flip.commit_deadline
    assert prepared.expires_at < prepared.prepared_at + disputes.tiers.prepared.ttl
    frozen_clock.advance(timedelta(seconds=31))
    entries = _count(db, ledger_entries)

    with pytest.raises(AccordError) as refused:
        disputes.tiers.prepared.complete(prepared.prepared_id, _sign(prepared, A, step), by=A)

    assert refused.value.code == "disputes.prepared_expired"
    assert _count(db, ledger_entries) == entries
    assert [c.agent_id for c in disputes.tiers.negotiation.coin_flip(dispute_id).commits] == [B]


class _ClockThatMovesOn:
    """A clock that reads ``first`` once, then ``later``: time passes during a request."""

    def __init__(self, first: datetime, later: datetime) -> None:
        self._reads = [first]
        self._later = later

    def now(self) -> datetime:
        return self._reads.pop() if self._reads else self._later


def test_expiry_is_checked_again_inside_the_completing_transaction(
    disputes: Disputes, db: Database, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    dispute_id = _open(disputes)
    step = {"step": "commit", "commitment": commitment(dispute_id, A, bytes(32), "x")}
    prepared = disputes.tiers.prepared.prepare(dispute_id, step, by=A)
    late = Disputes(ledger, _ClockThatMovesOn(frozen_clock.now(), prepared.expires_at))
    entries = _count(db, ledger_entries)

    with pytest.raises(AccordError) as refused:
        late.tiers.prepared.complete(prepared.prepared_id, _sign(prepared, A, step), by=A)

    assert refused.value.code == "disputes.prepared_expired"
    assert _count(db, ledger_entries) == entries
