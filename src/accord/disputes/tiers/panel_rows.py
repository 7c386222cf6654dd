"""The seated panel, its votes and its human members' ballot papers, in and out of
``dispute_panels`` / ``dispute_panel_votes`` / ``dispute_ballot_papers``."""

from __future__ import annotations

import json
from datetime import datetime

from pydantic import BaseModel, ConfigDict
from sqlalchemy import Connection, bindparam, select, update

from accord.clock import isoformat
from accord.dcp07.panels import PanelBallot, PanelFormation, PanelQuestion, PanelVote
from accord.dcp07.resolution_record import ResolutionRecord
from accord.disputes.tiers.step_rows import to_json
from accord.store.driver_query import DriverQuery
from accord.store.tables import dispute_ballot_papers, dispute_panel_votes, dispute_panels


class SeatedPanel(BaseModel):
    """A dispute's panel as stored: how it was formed, what it is asked, the votes so far and
    each voter's reasoning (kept permanently, dissent included: R35)."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    formation: PanelFormation
    """How the panel was formed: its members, threshold and selection."""
    question: PanelQuestion
    """What the panel is asked, and the resolution put to its vote."""
    votes: tuple[PanelVote, ...]
    """The members' signed votes so far."""
    reasoning: dict[str, str]
    """Each voter's reasoning, by agent id."""
    decision: str | None
    """The tally's decision, once tallied."""
    pending_resolution: ResolutionRecord | None = None
    """A decided panel's §6 record still short of M approving members' signatures."""
    recommendation: ResolutionRecord | None = None
    """A signed ``recommended_resolution`` awaiting the parties' acceptance (R15)."""
    accepted_by: tuple[str, ...] = ()
    """The parties who accepted :attr:`recommendation`, in order."""

    @property
    def ballot(self) -> PanelBallot:
        return PanelBallot(
            formation=self.formation,
            resolution_hash=self.question.resolution_hash,
            votes=self.votes,
        )


def panel_within(conn: Connection, dispute_id: str) -> SeatedPanel | None:
    row = conn.execute(
        select(dispute_panels).where(dispute_panels.c.dispute_id == dispute_id)
    ).first()
    if row is None:
        return None
    votes = conn.execute(
        select(
            dispute_panel_votes.c.agent_id,
            dispute_panel_votes.c.vote,
            dispute_panel_votes.c.reasoning,
        )
        .where(dispute_panel_votes.c.panel_id == row.panel_id)
        .order_by(dispute_panel_votes.c.cast_at, dispute_panel_votes.c.agent_id)
    ).all()
    return SeatedPanel(
        formation=PanelFormation.model_validate_json(row.formation),
        question=PanelQuestion.model_validate_json(row.question),
        votes=tuple(PanelVote.model_validate_json(v.vote) for v in votes),
        reasoning={v.agent_id: v.reasoning for v in votes},
        decision=row.decision,
        pending_resolution=(
            None
            if row.pending_resolution is None
            else ResolutionRecord.model_validate_json(row.pending_resolution)
        ),
        recommendation=(
            None
            if row.recommendation is None
            else ResolutionRecord.model_validate_json(row.recommendation)
        ),
        accepted_by=tuple(json.loads(row.accepted_by or "[]")),
    )


def seat_panel(conn: Connection, formation: PanelFormation, question: PanelQuestion) -> None:
    conn.execute(
        dispute_panels.insert().values(
            panel_id=formation.panel_id,
            dispute_id=formation.dispute_id,
            formation=to_json(formation),
            question=to_json(question),
            resolution_hash=question.resolution_hash,
            formed_at=isoformat(formation.formed_at),
            vote_deadline=isoformat(formation.vote_deadline),
        )
    )


def put_proposal(conn: Connection, panel_id: str, question: PanelQuestion) -> None:
    """The question with the proposal a member put in place of the one before (R14)."""
    conn.execute(
        update(dispute_panels)
        .where(dispute_panels.c.panel_id == panel_id)
        .values(question=to_json(question), resolution_hash=question.resolution_hash)
    )


def keep_recommendation(
    conn: Connection,
    panel_id: str,
    recommendation: ResolutionRecord | None,
    accepted_by: tuple[str, ...] = (),
) -> None:
    """Store (or, with None, clear) the recommendation awaiting the parties and who accepted."""
    conn.execute(
        update(dispute_panels)
        .where(dispute_panels.c.panel_id == panel_id)
        .values(
            recommendation=None if recommendation is None else to_json(recommendation),
            accepted_by=json.dumps(list(accepted_by)) if recommendation is not None else None,
        )
    )


def add_vote(conn: Connection, vote: PanelVote, reasoning: str, at: datetime) -> None:
    conn.execute(
        dispute_panel_votes.insert().values(
            panel_id=vote.panel_id,
            agent_id=vote.agent_id,
            dispute_id=vote.dispute_id,
            vote=to_json(vote),
            reasoning=reasoning,
            cast_at=isoformat(at),
        )
    )


def mark_tallied(conn: Connection, panel_id: str, decision: str, at: datetime) -> None:
    conn.execute(
        update(dispute_panels)
        .where(dispute_panels.c.panel_id == panel_id)
        .values(decision=decision, tallied_at=isoformat(at))
    )


def keep_pending(conn: Connection, panel_id: str, resolution: ResolutionRecord | None) -> None:
    """Store (or, with None, clear) the decided panel's record awaiting signatures."""
    conn.execute(
        update(dispute_panels)
        .where(dispute_panels.c.panel_id == panel_id)
        .values(pending_resolution=None if resolution is None else to_json(resolution))
    )


class BallotPaper(BaseModel):
    """The approval item through which a human member of a panel votes."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    item_id: str
    panel_id: str
    dispute_id: str
    agent_id: str


def add_ballot_paper(conn: Connection, paper: BallotPaper) -> None:
    conn.execute(dispute_ballot_papers.insert().values(**paper.model_dump()))


def ballot_paper_within(conn: Connection, item_id: str) -> BallotPaper | None:
    """The ballot paper ``item_id`` is, or None for any other approval item."""
    row = _PAPER.first(conn, {"item_id": item_id})
    return None if row is None else BallotPaper(**row)


#: Asked of every human decision (is this item a ballot paper?), so built once.
_PAPER = DriverQuery(
    select(dispute_ballot_papers).where(dispute_ballot_papers.c.item_id == bindparam("item_id"))
)


def ballot_papers_within(conn: Connection, panel_id: str) -> tuple[BallotPaper, ...]:
    """The panel's ballot papers, by member."""
    rows = conn.execute(
        select(dispute_ballot_papers)
        .where(dispute_ballot_papers.c.panel_id == panel_id)
        .order_by(dispute_ballot_papers.c.agent_id)
    ).mappings()
    return tuple(BallotPaper(**row) for row in rows)
