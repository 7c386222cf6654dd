"""Tier 1 and the coin flip as the party-signed ``dispute_negotiation_proposal`` events state
them (``dispute_negotiation_steps``, ``dispute_coin_flips``, ``dispute_coin_steps``), and the
nominations the signed panel formation lists (``dispute_nominations``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Final

from pydantic import BaseModel

from accord.audit.disputes.checks import Description, Key, Signed
from accord.audit.disputes.signed import SignedLedger
from accord.dcp07.negotiation import Acceptance, Commit, CounterEvidence, Proposal, Reveal

TIER1: Final = "direct_negotiation"


def _instant(value: Any) -> datetime | None:
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None


def _same_instant(stored: Any, expected: Any) -> bool:
    return _instant(stored) is not None and _instant(stored) == _instant(expected)


def _same_model(stored: Any, expected: Any) -> bool:
    """A JSON body: the stored model equal to the one the signed step makes."""
    model, fields = expected
    try:
        return bool(model.model_validate_json(stored) == model.model_validate(fields))
    except ValueError:
        return False


def _about(name: str, says: str) -> Signed:
    return Signed(says, lambda a, _r: a.get(name))


NEGOTIATION_COLUMNS: Description = {
    "dispute_id": _about("dispute_id", "the party-signed step's dispute_id"),
    "position": _about(
        "position",
        "the step's place among the dispute's signed tier-1 steps (a proposal is followed by "
        "its proposer's acceptance)",
    ),
    "kind": _about("kind", "the signed step (proposal, acceptance, counter_evidence)"),
    "agent_id": _about("agent_id", "the agent that signed the step (party_signature)"),
    "body": Signed(
        "the proposal, acceptance or counter-evidence the signed step states (parsed, equal)",
        lambda a, _r: a["body"],
        _same_model,
    ),
    "recorded_at": Signed("the signed step's time", lambda a, _r: a.get("at"), _same_instant),
}
COIN_FLIP_COLUMNS: Description = {
    "dispute_id": _about("dispute_id", "the first signed coin_commit's dispute_id"),
    "options": Signed(
        "the proposal ids signed before the first coin_commit at tier 1 (none at tier 2; "
        "parsed JSON, equal)",
        lambda a, _r: a.get("options"),
        lambda stored, expected: _json(stored) == expected,
    ),
    "commit_deadline": Signed(
        "the first signed coin_commit's commit_deadline",
        lambda a, _r: a.get("commit_deadline"),
        _same_instant,
    ),
    "reveal_deadline": Signed(
        "the first signed coin_commit's reveal_deadline",
        lambda a, _r: a.get("reveal_deadline"),
        _same_instant,
    ),
    "opened_at": Signed(
        "the first signed coin_commit's time", lambda a, _r: a.get("at"), _same_instant
    ),
}
COIN_STEP_COLUMNS: Description = {
    "dispute_id": _about("dispute_id", "the party-signed coin step's dispute_id"),
    "kind": _about("kind", "commit for a signed coin_commit, reveal for a coin_reveal"),
    "agent_id": _about("agent_id", "the agent that signed the coin step"),
    "body": Signed(
        "the commitment, or the nonce and choice, the signed step states (parsed, equal)",
        lambda a, _r: a["body"],
        _same_model,
    ),
    "recorded_at": Signed("the signed step's time", lambda a, _r: a.get("at"), _same_instant),
}
NOMINATION_COLUMNS: Description = {
    "dispute_id": _about("dispute_id", "the dispute of the signed panel formation record"),
    "nominated_by": _about(
        "nominated_by",
        "a nomination the signed formation record lists (before the panel is seated: "
        "NOT_SIGNED_YET)",
    ),
    "agent_id": _about("agent_id", "that nomination's agent_id"),
    "nominated_at": Signed(
        "that nomination's nominated_at", lambda a, _r: a.get("nominated_at"), _same_instant
    ),
}
NOT_SIGNED_YET: Final = (
    "a nomination before its dispute's panel is seated: nominate writes no ledger entry, so "
    "nothing signs it until arbitration_panel_formed lists it (such rows are not compared; "
    "their dispute must be a signed one)"
)


def _json(text: Any) -> Any:
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return None


def _fields(details: Mapping[str, Any], model: type[BaseModel], **named: Any) -> dict[str, Any]:
    return {k: v for k, v in {**details, **named}.items() if k in model.model_fields}


def signed_negotiation_rows(ledger: SignedLedger) -> dict[str, dict[Key, Any]]:
    """What the signed steps say each tier-1, coin and nomination row holds."""
    steps: dict[Key, Any] = {}
    flips: dict[Key, Any] = {}
    coins: dict[Key, Any] = {}
    nominations: dict[Key, Any] = {}
    for dispute_id, dispute in ledger.disputes.items():
        position = 0
        proposals: list[Any] = []
        for step, tier in dispute.party_steps:
            d = step.details
            kind, agent, at = d.get("step"), d.get("agent_id"), d.get("at")
            made: list[tuple[str, type[BaseModel], dict[str, Any], Any]] = []
            if kind == "proposal":
                proposals.append(d.get("proposal_id"))
                made.append(("proposal", Proposal, _fields(d, Proposal, proposed_by=agent,
                             proposed_at=at), at))  # fmt: skip
                made.append(("acceptance", Acceptance, _fields(d, Acceptance, accepted_at=at), at))
            elif kind == "acceptance":
                made.append(("acceptance", Acceptance, _fields(d, Acceptance, accepted_at=at), at))
            elif kind == "counter_evidence":
                fields = _fields(d, CounterEvidence)
                made.append(("counter_evidence", CounterEvidence, fields, d.get("submitted_at")))
            elif kind in ("coin_commit", "coin_reveal"):
                if kind == "coin_commit" and (dispute_id,) not in flips:
                    flips[(dispute_id,)] = {
                        "dispute_id": dispute_id,
                        "options": list(proposals) if tier == TIER1 else [],
                        "commit_deadline": d.get("commit_deadline"),
                        "reveal_deadline": d.get("reveal_deadline"),
                        "at": at,
                    }
                short = "commit" if kind == "coin_commit" else "reveal"
                model: type[BaseModel] = Commit if short == "commit" else Reveal
                named = {"committed_at": at} if short == "commit" else {"revealed_at": at}
                coins[(dispute_id, short, agent)] = {
                    "dispute_id": dispute_id,
                    "kind": short,
                    "agent_id": agent,
                    "body": (model, _fields(d, model, **named)),
                    "at": at,
                }
            for row_kind, row_model, row_fields, row_at in made:
                position += 1
                steps[(dispute_id, position)] = {
                    "dispute_id": dispute_id,
                    "position": position,
                    "kind": row_kind,
                    "agent_id": agent,
                    "body": (row_model, row_fields),
                    "at": row_at,
                }
        formation = dispute.panel.details.get("formation") if dispute.panel else None
        if isinstance(formation, dict):
            for n in formation.get("nominations") or ():
                if isinstance(n, dict):
                    key = (dispute_id, n.get("nominated_by"), n.get("agent_id"))
                    nominations[key] = {"dispute_id": dispute_id, **n}
    return {
        "dispute_negotiation_steps": steps,
        "dispute_coin_flips": flips,
        "dispute_coin_steps": coins,
        "dispute_nominations": nominations,
    }


def unseated_nomination(ledger: SignedLedger) -> Any:
    """Whether a stored nomination row is one nothing signs yet (see ``NOT_SIGNED_YET``)."""

    def test(row: Mapping[str, Any]) -> bool:
        dispute = ledger.disputes.get(str(row.get("dispute_id")))
        return dispute is not None and dispute.opened_seq is not None and dispute.panel is None

    return test
