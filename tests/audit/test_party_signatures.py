"""``verify`` re-checks the signatures inside signed dispute records against the keys the
verified ledger registered: a party's step, a member's vote, a resolution's signatures.

Each forgery is what someone holding the service key (or database access and the key) could
write: the entry rewritten and the ledger re-signed from it on, so the chain still verifies
and only the party's, member's or principal's own signature can tell."""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete, insert, select

from accord.app import Accord
from accord.clock import FrozenClock
from accord.errors import VerificationFailed
from accord.ledger import Ledger
from accord.store.tables import ledger_checkpoints, ledger_entries

from ._disputes import AUDIT, BILLING, _filing, key_of
from .conftest import Populated

Record = dict[str, Any]
Forge = Callable[[Record], Record]


@pytest.fixture
def ledger_kept(populated: Populated) -> Iterator[Populated]:
    """The populated database; its ledger put back as it was after the test."""
    with populated.accord.db.read() as conn:
        entries = [dict(r._mapping) for r in conn.execute(select(ledger_entries))]
        checkpoints = [dict(r._mapping) for r in conn.execute(select(ledger_checkpoints))]
    yield populated
    with populated.accord.db.write() as conn:
        conn.execute(delete(ledger_checkpoints))
        conn.execute(delete(ledger_entries))
        conn.execute(insert(ledger_entries), entries)
        if checkpoints:
            conn.execute(insert(ledger_checkpoints), checkpoints)


def _first(populated: Populated, event_type: str, test: Callable[[Record], bool]) -> int:
    accord = populated.accord
    return next(
        e.seq for e in accord.ledger.entries() if e.event_type == event_type and test(e.record)
    )


def _rewrite_from(populated: Populated, seq: int, forge: Forge) -> None:
    """Entry ``seq`` rewritten by ``forge``, and the ledger re-signed by the service key from
    it on (the chain verifies)."""
    accord = populated.accord
    tail = [(e.event_type, dict(e.record)) for e in accord.ledger.entries(seq)]
    tail[0] = (tail[0][0], forge(tail[0][1]))
    with accord.db.write() as conn:
        conn.execute(delete(ledger_entries).where(ledger_entries.c.seq >= seq))
        conn.execute(delete(ledger_checkpoints).where(ledger_checkpoints.c.tree_size >= seq))
    Ledger(accord.db, accord.ledger.signer, accord.clock, checkpoint_every=None).append_many(tail)


def _failure(populated: Populated) -> VerificationFailed:
    with pytest.raises(VerificationFailed) as caught:
        populated.accord.verify(workers=1)
    return caught.value


def _flipped(sig_b64: str) -> str:
    raw = bytearray(base64.b64decode(sig_b64))
    raw[0] ^= 0x01
    return base64.b64encode(bytes(raw)).decode()


def _details(record: Record, change: Callable[[Record], Record]) -> Record:
    return {**record, "details": change(dict(record["details"]))}


def _other_party(details: Record, field: str) -> str:
    return "agent:audit" if details[field] == "agent:billing" else "agent:billing"


# -- 1. a party's signed step ------------------------------------------------------------------

STEP = "dispute_negotiation_proposal"
PARTY_STEPS = ["proposal", "acceptance", "counter_evidence", "coin_commit", "coin_reveal"]


def _step(kind: str) -> Callable[[Record], bool]:
    return lambda r: r["details"].get("step") == kind


def _signature_flipped(details: Record) -> Record:
    signature = dict(details["party_signature"])
    return {**details, "party_signature": {**signature, "sig_b64": _flipped(signature["sig_b64"])}}


def test_an_honest_run_with_every_kind_of_signed_record_verifies(populated: Populated) -> None:
    report = populated.accord.verify(workers=1)
    kinds = {e.record["details"].get("step") for e in populated.accord.ledger.entries()
             if e.event_type == STEP}  # fmt: skip
    assert set(PARTY_STEPS) <= kinds  # the honest run has each kind checked below
    assert report.disputes > 0


@pytest.mark.parametrize("kind", PARTY_STEPS)
def test_a_byte_changed_in_a_partys_step_signature_fails_naming_the_entry_and_field(
    ledger_kept: Populated, kind: str
) -> None:
    seq = _first(ledger_kept, STEP, _step(kind))
    _rewrite_from(ledger_kept, seq, lambda r: _details(r, _signature_flipped))
    error = _failure(ledger_kept)
    assert (error.code, error.context["seq"], error.context["field"]) == (
        "ledger_entries.bad_party_signature",
        seq,
        "record.details.party_signature",
    )
    assert kind in error.message


def test_changed_terms_under_a_partys_signature_fail_naming_the_step(
    ledger_kept: Populated,
) -> None:
    seq = _first(ledger_kept, STEP, _step("proposal"))
    _rewrite_from(ledger_kept, seq, lambda r: _details(r, lambda d: {**d, "terms": "forged"}))
    error = _failure(ledger_kept)
    assert (error.code, error.context["seq"], error.context["field"]) == (
        "ledger_entries.bad_party_signature",
        seq,
        "record.details.party_signature",
    )
    assert "does not verify" in error.context["rule"]


def test_a_step_put_in_the_other_partys_name_fails_on_the_signing_key(
    ledger_kept: Populated,
) -> None:
    seq = _first(ledger_kept, STEP, _step("acceptance"))
    _rewrite_from(
        ledger_kept,
        seq,
        lambda r: _details(r, lambda d: {**d, "agent_id": _other_party(d, "agent_id")}),
    )
    error = _failure(ledger_kept)
    assert (error.code, error.context["seq"], error.context["field"]) == (
        "ledger_entries.bad_party_signature",
        seq,
        "record.details.party_signature.kid",
    )


# -- 2. a member's vote ----------------------------------------------------------------------

VOTE = "arbitration_vote_cast"


def _vote(change: Callable[[Record], Record]) -> Forge:
    return lambda r: _details(r, lambda d: {**d, "vote": change(dict(d["vote"]))})


def _vote_signature_flipped(vote: Record) -> Record:
    signature = dict(vote["signature"])
    return {**vote, "signature": {**signature, "sig_b64": _flipped(signature["sig_b64"])}}


@pytest.mark.parametrize(
    ("forge", "field"),
    [
        (_vote(_vote_signature_flipped), "record.details.vote.signature"),
        (_vote(lambda v: {**v, "vote": "dissent" if v["vote"] == "approve" else "approve"}),
         "record.details.vote.signature"),
        (_vote(lambda v: {**v, "agent_id": "arb:02" if v["agent_id"] != "arb:02" else "arb:01"}),
         "record.details.vote.signature.kid"),
    ],
    ids=["signature byte", "signed content", "signer id"],
)  # fmt: skip
def test_a_forged_vote_fails_naming_the_entry_and_field(
    ledger_kept: Populated, forge: Forge, field: str
) -> None:
    seq = _first(ledger_kept, VOTE, lambda _r: True)
    _rewrite_from(ledger_kept, seq, forge)
    error = _failure(ledger_kept)
    assert (error.code, error.context["seq"], error.context["field"]) == (
        "ledger_entries.bad_vote_signature",
        seq,
        field,
    )


# -- 3. a resolution's signatures ------------------------------------------------------------

RESOLVED = "dispute_resolved"
LEVELS = ["direct_negotiation", "contextual_arbitration", "human_appeal"]


def _at_level(level: str) -> Callable[[Record], bool]:
    return lambda r: (
        r.get("protocol") == "dcp-07" and r["details"]["resolution"]["resolution_level"] == level
    )


def _resolution(change: Callable[[Record], Record]) -> Forge:
    return lambda r: _details(r, lambda d: {**d, "resolution": change(dict(d["resolution"]))})


def _first_signature(change: Callable[[Record], Record]) -> Callable[[Record], Record]:
    def forge(resolution: Record) -> Record:
        first, *rest = resolution["signatures"]
        return {**resolution, "signatures": [change(dict(first)), *rest]}

    return forge


@pytest.mark.parametrize("level", LEVELS)
def test_a_byte_changed_in_a_resolution_signature_fails_naming_the_entry(
    ledger_kept: Populated, level: str
) -> None:
    seq = _first(ledger_kept, RESOLVED, _at_level(level))
    forge = _first_signature(lambda s: {**s, "sig_b64": _flipped(s["sig_b64"])})
    _rewrite_from(ledger_kept, seq, _resolution(forge))
    error = _failure(ledger_kept)
    assert (error.code, error.context["seq"]) == ("ledger_entries.bad_resolution_signature", seq)
    assert error.context["field"].startswith("record.details.resolution.")


def test_a_changed_outcome_under_the_parties_signatures_fails(ledger_kept: Populated) -> None:
    seq = _first(ledger_kept, RESOLVED, _at_level("direct_negotiation"))
    forged = _resolution(lambda r: {**r, "reasoning": "forged after the parties signed"})
    _rewrite_from(ledger_kept, seq, forged)
    error = _failure(ledger_kept)
    assert (error.code, error.context["seq"]) == ("ledger_entries.bad_resolution_signature", seq)


def test_a_resolution_signature_put_in_another_signers_name_fails_on_its_key(
    ledger_kept: Populated,
) -> None:
    seq = _first(ledger_kept, RESOLVED, _at_level("direct_negotiation"))
    forge = _first_signature(lambda s: {**s, "agent_id": "agent:mallory"})
    _rewrite_from(ledger_kept, seq, _resolution(forge))
    error = _failure(ledger_kept)
    assert (error.code, error.context["seq"], error.context["field"]) == (
        "ledger_entries.bad_resolution_signature",
        seq,
        "record.details.resolution.signatures.kid",
    )


# -- a principal's reviewer-signed appeal steps ------------------------------------------------


@pytest.fixture
def appealed_in_turn(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock
) -> Iterator[Populated]:
    """A dispute the two principals decided in turn (a proposal, then a signature)."""
    accord = Accord.open(db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock)
    for party in (BILLING, AUDIT):
        principal = party["principal_id"]
        accord.ledger.register_key(key_of(principal).public_key, "reviewer", principal)
    dispute_id = accord.disputes.open(_filing("statutory deadline", {"booked": 1})).dispute_id
    accord.disputes.escalate(dispute_id, by=AUDIT["agent_id"], to_tier="human_appeal")
    appeal = accord.disputes.tiers.appeal
    proposed = appeal.propose_appeal(
        dispute_id, key_of(BILLING["principal_id"]), outcome="audit first", reasoning="statute"
    )
    appeal.sign_appeal(dispute_id, key_of(AUDIT["principal_id"]), proposed.proposal_id)
    yield Populated(accord, {})
    accord.close()


@pytest.mark.parametrize("kind", ["appeal_proposal", "appeal_signature"])
def test_a_principals_appeal_step_verifies_and_a_forged_one_fails_naming_it(
    appealed_in_turn: Populated, kind: str
) -> None:
    appealed_in_turn.accord.verify(workers=1)
    seq = _first(appealed_in_turn, STEP, _step(kind))
    _rewrite_from(
        appealed_in_turn,
        seq,
        lambda r: _details(r, lambda d: {**d, "principal_id": "human:mallory"}),
    )
    error = _failure(appealed_in_turn)
    assert (error.code, error.context["seq"], error.context["field"]) == (
        "ledger_entries.bad_party_signature",
        seq,
        "record.details.party_signature.kid",
    )
