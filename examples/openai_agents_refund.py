"""Accord as the OpenAI Agents SDK's approval gate: a refund tool people approve once.

Offline and in seconds (a scripted model, no key, no network): `python
examples/openai_agents_refund.py` after `make setup`. The agent calls `refund` for 18,000;
the run stops on the SDK's interruption, `park` asks people in Accord, a reviewer approves
with their reviewer key, and `resume` runs the refund — once: resuming the same saved run a
second time does not refund again. The decision comes back with a signed receipt that checks
offline with the service's public key.

Pass a directory to keep the database and keys (default: a temporary one).
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

import yaml

os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")  # offline: no trace export

from agents import Agent, Runner, function_tool
from agents.testing import ScriptedModel, assistant_message, function_call

from accord import Accord
from accord.crypto import Ed25519Signer
from accord.integrations.openai_agents import AccordApprovals

REFUNDED: list[tuple[int, float]] = []


async def run(accord: Accord) -> int:
    gate = AccordApprovals(
        accord,
        agent_id="agent:support",
        gate="refunds",
        requires_people=lambda _tool, args: float(args.get("amount", 0)) > 1000,
    )

    @function_tool(
        needs_approval=gate.needs_approval("refund"), tool_input_guardrails=[gate.guardrail()]
    )
    def refund(order: int, amount: float) -> str:
        """Refund an order."""
        REFUNDED.append((order, amount))
        return f"refunded {amount:.2f} on order {order}"

    model = ScriptedModel(
        [
            [function_call("refund", {"order": 991, "amount": 18000.0}, call_id="call-991")],
            [assistant_message("The refund is done.")],
            [assistant_message("Nothing more to do.")],
        ]
    )
    agent = Agent(name="support", model=model, tools=[refund])

    result = await Runner.run(agent, "Customer 5521 was charged twice on order 991: refund it.")
    parked = await gate.park(result, run_key="order-991")
    item_id = parked.items["call-991"]
    print(f"interrupted: people decide {item_id} (refund of 18000.00 on order 991)")
    print(f"resume before the decision: {await gate.resume(parked.task_id, agent=agent)}")

    alice = Ed25519Signer.generate()
    accord.register_reviewer_key(alice.public_key, "human:alice")
    accord.decide(item_id, alice, choice="approve", reason="double charge confirmed")

    resumed = await gate.resume(parked.task_id, agent=agent)
    assert resumed is not None
    print(f"resumed: {resumed.result.final_output} refunds run: {len(REFUNDED)}")
    again = await gate.resume(parked.task_id, agent=agent)  # the same saved run, resumed twice
    assert again is not None
    print(f"resumed the same run again: refunds run: {len(REFUNDED)}")

    receipt = resumed.receipts["call-991"]
    root = accord.trust_root()
    receipt.verify({root.kid: root.public_key})
    print(
        f"receipt: {receipt.verdict} {receipt.choice!r} by {receipt.decided_by}, ledger entry "
        f"{receipt.ledger_seq} ({receipt.entry_hash[:19]}…), verified offline"
    )
    return 0 if REFUNDED == [(991, 18000.0)] else 1


def main(directory: Path) -> int:
    config = directory / "accord.yaml"
    config.write_text(
        yaml.safe_dump({"approvals": {"principals": {"human:alice": []}}}), encoding="utf-8"
    )
    accord = Accord.open(
        config, db_url=f"sqlite:///{directory / 'accord.db'}", keys_dir=directory / "keys"
    )
    try:
        return asyncio.run(run(accord))
    finally:
        accord.close()


if __name__ == "__main__":
    if len(sys.argv) > 1:
        target = Path(sys.argv[1])
        target.mkdir(parents=True, exist_ok=True)
        sys.exit(main(target))
    with tempfile.TemporaryDirectory() as tmp:
        sys.exit(main(Path(tmp)))
