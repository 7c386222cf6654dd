"""An MCP client reaching Accord over stdio: `accord mcp --as agent:orchestrator`.

Offline and in seconds after `make setup`: `python examples/mcp_client.py`. The client settles
two agents' disagreeing totals, retries the call with the same idempotency key (as a client does
after a timeout) and gets the same case, parks its task, waits (bounded: `pending`), a reviewer
decides with their reviewer key, and the wait answers with the decision.

Pass a directory to keep the database and keys (default: a temporary one).
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml
from mcp import Client, StdioServerParameters

from accord import Accord
from accord.crypto import Ed25519Signer

POSITIONS = [
    {"agent": "agent:billing", "output": 1200, "confidence": 0.8},
    {"agent": "agent:audit", "output": 1450, "confidence": 0.8},
]


async def session(params: StdioServerParameters, accord: Accord) -> int:
    async with Client(params) as client:
        settle = {
            "subject": "Total of invoice 4411",
            "positions": POSITIONS,
            "idempotency_key": "i-4411",
        }
        first = await client.call_tool("settle", settle)
        retried = await client.call_tool("settle", settle)
        case: dict[str, Any] = first.structured_content or {}
        same = retried.structured_content == case
        print(
            f"settled: {case['status']} (case {case['case_id']}); "
            f"the retry got the same case: {same}"
        )
        parked = await client.call_tool(
            "park", {"case_id": case["case_id"], "context": {"step": "post-invoice"}}
        )
        print(f"parked as {(parked.structured_content or {})['agent_id']}")
        item_id = case["approval_item_id"]
        waited = await client.call_tool("wait_for_decision", {"item_id": item_id, "timeout_s": 0})
        print(f"waiting: {(waited.structured_content or {})['status']}")

        alice = Ed25519Signer.generate()
        accord.register_reviewer_key(alice.public_key, "human:alice")
        accord.decide(item_id, alice, choice="1450", reason="the surcharge is on the PO")

        decided = (
            await client.call_tool("wait_for_decision", {"item_id": item_id})
        ).structured_content
        assert decided is not None
        print(f"decided: {decided['status']}, choice {decided['decision']['choice']}")
        return 0 if same and decided["status"] == "approved" else 1


def main(directory: Path) -> int:
    config = directory / "accord.yaml"
    config.write_text(
        yaml.safe_dump(
            {
                "conflict_resolution": {"strategy": "human"},
                "approvals": {"principals": {"human:alice": []}},
            }
        ),
        encoding="utf-8",
    )
    db, keys = f"sqlite:///{directory / 'accord.db'}", directory / "keys"
    accord = Accord.open(config, db_url=db, keys_dir=keys)  # creates the database and keys
    params = StdioServerParameters(
        command=sys.executable,
        # the `accord` command, run by this interpreter (the same install, the same sys.path)
        args=[
            *("-c", "from accord.cli.main import app; app()", "mcp", "--as", "agent:orchestrator"),
            *("--config", str(config), "--db", db, "--keys", str(keys)),
        ],
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    try:
        return asyncio.run(session(params, accord))
    finally:
        accord.close()


if __name__ == "__main__":
    if len(sys.argv) > 1:
        target = Path(sys.argv[1])
        target.mkdir(parents=True, exist_ok=True)
        sys.exit(main(target))
    with tempfile.TemporaryDirectory() as tmp:
        sys.exit(main(Path(tmp)))
