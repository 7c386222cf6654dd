"""The demo company with two reviewers who own no party agent, each with a registered
reviewer key in the server's key folder (what `accord keys new --role reviewer` makes)."""

from __future__ import annotations

import json
from pathlib import Path

from accord.app import Accord
from accord.cli.demo import demo_config
from accord.cli.key_commands import register_new_key

REVIEWERS = ("human:treasurer", "human:deputy")


def reviewer_config(directory: Path) -> Path:
    """``demo_config`` with both reviewers holding the demo's approver role."""
    path = demo_config(directory)
    config = json.loads(path.read_text(encoding="utf-8"))
    config["approvals"]["principals"] = {p: ["finance_approver"] for p in REVIEWERS}
    # the API tests settle cases of agents outside the example org chart too
    config.setdefault("settle", {})["allow_unknown_agents"] = True
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    return path


def register_reviewers(accord: Accord) -> None:
    for principal in REVIEWERS:
        register_new_key(accord, None, "reviewer", principal, None)
