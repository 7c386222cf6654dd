"""What the queue hands to ``on_event`` can be signed: canonical JSON, inside the transaction."""

from __future__ import annotations

from datetime import timedelta

from accord.approvals import (
    ApprovalQueue,
    EscalationChain,
    EscalationStep,
    Reviewer,
    Tiered,
    TierRule,
)
from accord.clock import FrozenClock
from accord.crypto.canonical import canonical_bytes
from tests.approvals.conftest import EventLog, ask


def test_every_event_is_canonical_json_and_emitted_in_its_transaction(
    queue: ApprovalQueue, frozen_clock: FrozenClock, event_log: EventLog, alice: Reviewer
) -> None:
    chain = EscalationChain(
        steps=(
            EscalationStep(role="lead", timeout_minutes=5),
            EscalationStep(role="reviewer", timeout_minutes=5),
        ),
        on_chain_exhausted="wait",
    )
    tiered = Tiered(tiers={"high": TierRule(timeout_minutes=5, on_timeout="deny")})
    decided = ask(queue)
    escalated = ask(queue, policy=chain)
    expired = ask(queue, policy=tiered, risk="high")
    cancelled = ask(queue)
    queue.decide(decided.item_id, alice, outcome="approved", choice="approve", reason="ok")
    queue.cancel(cancelled.item_id, cancelled_by="resolution")
    frozen_clock.advance(timedelta(minutes=5))
    queue.sweep()
    frozen_clock.advance(timedelta(minutes=5))
    queue.sweep()

    kinds_by_transaction = [sorted(kind for kind, _ in batch) for batch in event_log.batches]
    assert kinds_by_transaction == [
        *[["approval_requested"]] * 4,
        ["approval_decided"],
        ["approval_cancelled"],
        ["approval_escalated", "approval_expired"],  # one sweep, one transaction
        ["approval_deadline_cleared"],
    ]
    assert all(event_log.in_transaction)
    for batch in event_log.batches:
        for kind, record in batch:
            assert canonical_bytes({"type": kind, **record})

    [request] = [
        r for r in event_log.records("approval_requested") if r["item_id"] == escalated.item_id
    ]
    assert request["policy"]["steps"][0] == {"role": "lead", "timeout_minutes": 5}
    assert request["deadline"] == "2026-11-29T12:05:00.000000Z"
    [expiry] = event_log.records("approval_expired")
    assert (expiry["item_id"], expiry["via"], expiry["choice"]) == (
        expired.item_id,
        "timeout",
        "deny",
    )
    assert expiry["missed_deadline"] == "2026-11-29T12:05:00.000000Z"
