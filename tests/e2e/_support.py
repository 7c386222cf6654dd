"""Builders for the end-to-end tests: accord.yaml files, org charts, positions, judges, ports.

Ports are injected when an Accord is opened (``open_accord(config, decision_port=port)``)."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Mapping, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

import yaml

from accord import Accord
from accord.crypto import Ed25519Signer
from accord.ladder import Conflict
from accord.ledger.key_events import KEY_EVENTS
from accord.ledger.trust import NO_END
from accord.llm import ScriptedModel
from accord.llm.tokens import estimate_tokens

EXAMPLE_ORG = Path(str(files("accord.examples").joinpath("org.yaml")))

TIER_ONE_EVENTS = frozenset({"dispute_opened", "dispute_escalated"})


def copy_example_org(directory: Path, name: str = "org.yaml") -> str:
    """The example agent company, copied beside the config; its file name for ``org:``."""
    shutil.copyfile(EXAMPLE_ORG, directory / name)
    return name


def write_org_with_agent_coo(directory: Path, name: str = "org-coo.yaml") -> str:
    """The example company with the CTO and CFO reporting to ``agent:coo`` (an agent).

    Engineering and finance stay different branches, so a conflict between them is
    cross-department, but their lowest common manager is now an agent the port can ask.
    """
    data = yaml.safe_load(EXAMPLE_ORG.read_text(encoding="utf-8"))
    for agent in data["agents"]:
        if agent["id"] in ("agent:cto", "agent:cfo"):
            agent["manager"] = "agent:coo"
    (directory / name).write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return name


def write_config(directory: Path, body: Mapping[str, Any], name: str = "accord.yaml") -> Path:
    """Write ``body`` as ``accord.yaml`` in ``directory``; the file's path."""
    path = directory / name
    path.write_text(yaml.safe_dump(dict(body), sort_keys=False), encoding="utf-8")
    return path


def scripted_model(*script: str) -> dict[str, Any]:
    """The ``model:`` section of an offline scripted model answering ``script`` in order."""
    return {"provider": "scripted", "model": "scripted-judge", "script": list(script)}


def verdict(winner: str, confidence: float = 0.9, reasoning: str = "the lines add up") -> str:
    """A judge's strict-JSON answer naming a positional label (``A``, ``B``) or ``neither``."""
    return json.dumps({"winner": winner, "reasoning": reasoning, "confidence": confidence})


def first_group_wins(confidence: float = 0.9, reasoning: str = "the lines add up") -> list[str]:
    """Both judge calls for the first answer group.

    The judge sees the groups' leads as ``A``, ``B`` in group order, then again reversed: the
    first group is ``A`` in the first call and ``B`` in the swapped one.
    """
    return [verdict("A", confidence, reasoning), verdict("B", confidence, reasoning)]


def second_group_wins(confidence: float = 0.9, reasoning: str = "shipping is owed") -> list[str]:
    return [verdict("B", confidence, reasoning), verdict("A", confidence, reasoning)]


def position_biased_judge(reasoning: str = "the first argument reads better") -> list[str]:
    """A judge that always picks whoever is shown first: inconsistent under the swap."""
    return [verdict("A", 0.9, reasoning), verdict("A", 0.9, reasoning)]


def contradiction(
    yes: str, no: str, *, yes_confidence: float = 0.8, no_confidence: float = 0.8
) -> list[dict[str, Any]]:
    """``yes`` says true, ``no`` says false: a critical contradiction tier 1 cannot settle
    without a source verifier, so the configured strategy runs."""
    return [
        {"agent": yes, "output": True, "confidence": yes_confidence, "reasoning": "it passed"},
        {"agent": no, "output": False, "confidence": no_confidence, "reasoning": "it failed"},
    ]


def numbers_tied(a: str, b: str, *, left: int = 1200, right: int = 1450) -> list[dict[str, Any]]:
    """Two totals at equal confidence: no confidence gap, one vote each (a genuine tie)."""
    return [
        {"agent": a, "output": left, "confidence": 0.8},
        {"agent": b, "output": right, "confidence": 0.8},
    ]


class FakeDecisionPort:
    """An ``AgentDecisionPort`` whose deciders answer from a table; records every question."""

    def __init__(self, answers: Mapping[str, str | None]) -> None:
        self.answers = dict(answers)
        self.asked: list[tuple[str, str, tuple[str, ...]]] = []

    async def ask(self, decider: str, dispute: Conflict, options: Sequence[str]) -> str | None:
        self.asked.append((decider, dispute.case_id, tuple(options)))
        return self.answers.get(decider)


def expected_usage(model: Any) -> tuple[int, int]:
    """Input tokens a scripted model counted for every request it was sent so far.

    ``ScriptedModel`` counts ``len(text) * 0.25`` tokens of the prompt (messages joined by
    newlines); output tokens depend on the scripted answer, so only input is recomputed.
    """
    assert isinstance(model, ScriptedModel)
    return (
        sum(estimate_tokens("\n".join(m.content for m in r.messages)) for r in model.requests),
        len(model.requests),
    )


def ledger_events(accord: Accord) -> dict[str, int]:
    """Verify the whole ledger (signatures, links, checkpoints) and count its event types
    (key registrations left out: tests register reviewer keys as they go)."""
    report = accord.verify(workers=1)
    counts = accord.ledger.count_by_event_type()
    assert report.entries == sum(counts.values())
    return {kind: n for kind, n in counts.items() if kind not in KEY_EVENTS}


def critical_opt_in(policy: Mapping[str, Any]) -> dict[str, Any]:
    """``policy`` letting its strategy settle critical direct contradictions (booleans) that no
    source verified; without it they go to people whatever the strategy."""
    types = dict(policy.get("conflict_types", {}))
    types["direct_contradiction"] = {
        **types.get("direct_contradiction", {}),
        "critical_without_source": "strategy",
    }
    return {**policy, "conflict_types": types}


def reviewer_key(accord: Accord, principal_id: str) -> Ed25519Signer:
    """``principal_id``'s reviewer key (one per principal), registered in the ledger on first
    use — what ``accord keys new --role reviewer`` does, without the key file."""
    signer = Ed25519Signer.from_seed(hashlib.sha256(principal_id.encode()).digest())
    if accord.ledger.key_registry().reviewer_at(signer.kid, NO_END) is None:
        accord.register_reviewer_key(signer.public_key, principal_id)
    return signer
