"""Tier rows in and out: JSON bodies of the pure models, keyed by dispute id.

Everything is read and written inside the caller's transaction (``conn``), so a step's rows,
its ledger entry and any resolution commit together or not at all.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pydantic import BaseModel
from sqlalchemy import Connection, func, select, update

from accord.clock import isoformat
from accord.dcp07.negotiation import (
    Acceptance,
    CoinFlip,
    Commit,
    CounterEvidence,
    Negotiation,
    Proposal,
    Reveal,
)
from accord.dcp07.panels import Nomination
from accord.dcp07.resolution_record import ResolutionRecord
from accord.store.tables import (
    dispute_agreement_drafts,
    dispute_coin_flips,
    dispute_coin_steps,
    dispute_negotiation_steps,
    dispute_nominations,
)

PROPOSAL = "proposal"
ACCEPTANCE = "acceptance"
COUNTER_EVIDENCE = "counter_evidence"
COMMIT = "commit"
REVEAL = "reveal"


def to_json(model: BaseModel) -> str:
    return json.dumps(model.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))


def negotiation_within(
    conn: Connection, dispute_id: str, parties: Sequence[str], deadline: datetime
) -> Negotiation:
    """The tier-1 state replayed from its rows."""
    rows = conn.execute(
        select(dispute_negotiation_steps.c.kind, dispute_negotiation_steps.c.body)
        .where(dispute_negotiation_steps.c.dispute_id == dispute_id)
        .order_by(dispute_negotiation_steps.c.position)
    ).all()
    proposals: list[Proposal] = []
    acceptances: list[Acceptance] = []
    evidence: list[CounterEvidence] = []
    for kind, body in rows:
        if kind == PROPOSAL:
            proposals.append(Proposal.model_validate_json(body))
        elif kind == ACCEPTANCE:
            acceptances.append(Acceptance.model_validate_json(body))
        else:
            evidence.append(CounterEvidence.model_validate_json(body))
    return Negotiation(
        dispute_id=dispute_id,
        parties=tuple(parties),
        deadline=deadline,
        proposals=tuple(proposals),
        acceptances=tuple(acceptances),
        counter_evidence=tuple(evidence),
    )


def add_negotiation_steps(
    conn: Connection, dispute_id: str, steps: Sequence[tuple[str, str, BaseModel]], at: datetime
) -> None:
    """Append ``(kind, agent_id, model)`` steps after the dispute's last one."""
    last = conn.execute(
        select(func.max(dispute_negotiation_steps.c.position)).where(
            dispute_negotiation_steps.c.dispute_id == dispute_id
        )
    ).scalar_one_or_none()
    position = 0 if last is None else int(last)
    for kind, agent_id, model in steps:
        position += 1
        conn.execute(
            dispute_negotiation_steps.insert().values(
                dispute_id=dispute_id,
                position=position,
                kind=kind,
                agent_id=agent_id,
                body=to_json(model),
                recorded_at=isoformat(at),
            )
        )


def coin_flip_within(conn: Connection, dispute_id: str, parties: Sequence[str]) -> CoinFlip | None:
    """The dispute's coin flip replayed from its rows; None before the first commit."""
    opened = conn.execute(
        select(dispute_coin_flips).where(dispute_coin_flips.c.dispute_id == dispute_id)
    ).first()
    if opened is None:
        return None
    steps = conn.execute(
        select(dispute_coin_steps.c.kind, dispute_coin_steps.c.body)
        .where(dispute_coin_steps.c.dispute_id == dispute_id)
        .order_by(dispute_coin_steps.c.recorded_at, dispute_coin_steps.c.agent_id)
    ).all()
    return CoinFlip(
        dispute_id=dispute_id,
        parties=tuple(parties),
        commit_deadline=datetime.fromisoformat(opened.commit_deadline),
        reveal_deadline=datetime.fromisoformat(opened.reveal_deadline),
        options=tuple(json.loads(opened.options)),
        commits=tuple(Commit.model_validate_json(b) for k, b in steps if k == COMMIT),
        reveals=tuple(Reveal.model_validate_json(b) for k, b in steps if k == REVEAL),
    )


def open_coin_flip(conn: Connection, flip: CoinFlip, at: datetime) -> None:
    conn.execute(
        dispute_coin_flips.insert().values(
            dispute_id=flip.dispute_id,
            options=json.dumps(list(flip.options)),
            commit_deadline=isoformat(flip.commit_deadline),
            reveal_deadline=isoformat(flip.reveal_deadline),
            opened_at=isoformat(at),
        )
    )


def add_coin_step(
    conn: Connection, dispute_id: str, kind: str, agent_id: str, model: BaseModel, at: datetime
) -> None:
    conn.execute(
        dispute_coin_steps.insert().values(
            dispute_id=dispute_id,
            kind=kind,
            agent_id=agent_id,
            body=to_json(model),
            recorded_at=isoformat(at),
        )
    )


def nominations_within(conn: Connection, dispute_id: str) -> tuple[Nomination, ...]:
    rows = conn.execute(
        select(dispute_nominations)
        .where(dispute_nominations.c.dispute_id == dispute_id)
        .order_by(dispute_nominations.c.nominated_at, dispute_nominations.c.nominated_by)
    ).all()
    return tuple(
        Nomination(
            nominated_by=r.nominated_by,
            agent_id=r.agent_id,
            nominated_at=datetime.fromisoformat(r.nominated_at),
        )
        for r in rows
    )


def add_nominations(conn: Connection, dispute_id: str, nominations: Sequence[Nomination]) -> None:
    for n in nominations:
        conn.execute(
            dispute_nominations.insert().values(
                dispute_id=dispute_id,
                nominated_by=n.nominated_by,
                agent_id=n.agent_id,
                nominated_at=isoformat(n.nominated_at),
            )
        )


def json_of(model: BaseModel) -> dict[str, Any]:
    return model.model_dump(mode="json")


def agreement_draft_within(conn: Connection, proposal_id: str) -> ResolutionRecord | None:
    """The §6 resolution ``proposal_id`` would be, as signed by its acceptors so far."""
    found = conn.execute(
        select(dispute_agreement_drafts.c.resolution).where(
            dispute_agreement_drafts.c.proposal_id == proposal_id
        )
    ).scalar_one_or_none()
    return None if found is None else ResolutionRecord.model_validate_json(found)


def keep_agreement_draft(
    conn: Connection, dispute_id: str, proposal_id: str, resolution: ResolutionRecord
) -> None:
    """Store (first signature) or update (each later one) the proposal's signed draft."""
    body = to_json(resolution)
    changed = conn.execute(
        update(dispute_agreement_drafts)
        .where(dispute_agreement_drafts.c.proposal_id == proposal_id)
        .values(resolution=body)
    )
    if changed.rowcount == 0:
        conn.execute(
            dispute_agreement_drafts.insert().values(
                proposal_id=proposal_id, dispute_id=dispute_id, resolution=body
            )
        )
