"""Forming a dispute's tier-2 panel (R10–R13, R32, R35) into one record.

Steps: check the threshold and the nominations (R10); check **every** nominee's eligibility and
keep the result per candidate (R11–R13, R32); draw ``n`` of the eligible nominees with the
verifiable selection (R35); seat them. The :class:`PanelFormation` record holds all of it, so
:func:`verify_formation` re-derives the candidates and the draw from the record alone.

``mode`` says what an M-of-N approval makes (R15): ``binding`` panels make a
``binding_resolution``; ``advisory`` panels — the policy marks a panel advisory when the
parties are to keep the last word — make a ``recommended_resolution`` the parties may accept or
escalate. Either way, fewer than M approvals is a ``split_decision`` (see ``tally``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum
from typing import Self

from pydantic import AwareDatetime, BaseModel, ConfigDict, model_validator

from accord.dcp07.negotiation.coin_flip import RevealedNonce
from accord.dcp07.panels.eligibility import (
    ActiveDisputes,
    CandidateEligibility,
    EligibilityRules,
    check_candidate,
)
from accord.dcp07.panels.nominations import Nomination, check_nominations
from accord.dcp07.panels.pool import ArbitratorPool, PoolMember
from accord.dcp07.panels.refusals import PanelRefused
from accord.dcp07.panels.selection import PanelSelection, select_panel, verify_selection
from accord.dcp07.panels.threshold import PanelThreshold
from accord.dcp07.parties import Party
from accord.ids import new_id
from accord.org.interactions import InteractionHistory


class PanelMode(StrEnum):
    """Whether M approvals bind the parties or only recommend (R15)."""

    BINDING = "binding"
    ADVISORY = "advisory"


class PanelFormation(BaseModel):
    """A seated panel and how it was seated: every nominee's eligibility, the draw, the members
    (in draw order), the threshold, the mode and the voting deadline."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    panel_id: str
    dispute_id: str
    parties: tuple[Party, ...]
    threshold: PanelThreshold
    mode: PanelMode
    pool_spans_organizations: bool
    nominations: tuple[Nomination, ...]
    eligibility: tuple[CandidateEligibility, ...]
    selection: PanelSelection
    members: tuple[PoolMember, ...]
    formed_at: AwareDatetime
    vote_deadline: AwareDatetime

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if tuple(m.agent_id for m in self.members) != self.selection.selected:
            raise ValueError("the members are the selection's result, in draw order")
        if len(self.members) != self.threshold.n:
            raise ValueError("a panel has exactly n members")
        if self.selection.dispute_id != self.dispute_id:
            raise ValueError("the selection belongs to this dispute")
        return self

    @property
    def member_ids(self) -> tuple[str, ...]:
        return tuple(m.agent_id for m in self.members)

    def is_member(self, agent_id: str) -> bool:
        return agent_id in self.member_ids


def form_panel(
    *,
    dispute_id: str,
    parties: Sequence[Party],
    pool: ArbitratorPool,
    nominations: Sequence[Nomination],
    nonces: Sequence[RevealedNonce],
    disputes: ActiveDisputes,
    interactions: InteractionHistory,
    now: datetime,
    vote_deadline: datetime,
    threshold: PanelThreshold | None = None,
    mode: PanelMode = PanelMode.BINDING,
    rules: EligibilityRules | None = None,
) -> PanelFormation:
    """Seat ``dispute_id``'s panel, or ``PanelRefused`` naming the broken rule."""
    threshold = threshold or PanelThreshold()
    party_ids = [p.agent_id for p in parties]
    if len(parties) < 2 or len(set(party_ids)) != len(party_ids):
        raise PanelRefused(
            "a panel decides between at least two distinct parties",
            code="panels.bad_parties",
            requirement="R10",
            field="parties",
            rule="two or more distinct parties",
        )
    strangers = sorted({n.agent_id for n in nonces} - set(party_ids))
    if strangers:
        raise PanelRefused(
            f"only the parties' nonces seed the draw, not {', '.join(strangers)}'s",
            code="panels.seed_nonce_not_a_party",
            requirement="R35",
            field="nonces",
            rule="seed = hash of the parties' revealed nonces and the dispute id",
            agent_ids=strangers,
        )
    if vote_deadline <= now:
        raise PanelRefused(
            "the voting deadline lies after the panel is formed",
            code="panels.bad_vote_deadline",
            requirement="R4",
            field="vote_deadline",
            rule="vote_deadline > formed_at",
        )
    nominees = check_nominations(nominations, parties=parties, pool=pool)
    eligibility = tuple(
        check_candidate(
            pool.member(agent_id),
            parties,
            disputes=disputes,
            interactions=interactions,
            now=now,
            rules=rules,
        )
        for agent_id in nominees
    )
    eligible = [e.agent_id for e in eligibility if e.eligible]
    if len(eligible) < threshold.n:
        raise PanelRefused(
            f"{len(eligible)} of {len(nominees)} nominee(s) are eligible; the panel needs "
            f"{threshold.n}",
            code="panels.too_few_eligible",
            requirement="R10",
            field="nominations",
            rule=f"at least {threshold.n} eligible nominees",
            eligibility=[e.model_dump(mode="json") for e in eligibility],
        )
    selection = select_panel(dispute_id, eligible, nonces, threshold.n)
    return PanelFormation(
        panel_id=new_id("panel", now),
        dispute_id=dispute_id,
        parties=tuple(parties),
        threshold=threshold,
        mode=mode,
        pool_spans_organizations=pool.spans_organizations,
        nominations=tuple(nominations),
        eligibility=eligibility,
        selection=selection,
        members=tuple(pool.member(agent_id) for agent_id in selection.selected),
        formed_at=now,
        vote_deadline=vote_deadline,
    )


def verify_formation(formation: PanelFormation) -> None:
    """Re-derive the panel from the record: the candidates are exactly the eligible nominees,
    and the draw over them gives the members (R35). Refuses with ``panels.selection_mismatch``."""
    nominees = sorted({n.agent_id for n in formation.nominations})
    checked = sorted(e.agent_id for e in formation.eligibility)
    eligible = tuple(sorted(e.agent_id for e in formation.eligibility if e.eligible))
    if checked != nominees or eligible != formation.selection.candidates:
        raise PanelRefused(
            f"the panel of {formation.dispute_id} was not drawn from its eligible nominees",
            code="panels.selection_mismatch",
            requirement="R35",
            field="selection.candidates",
            rule="candidates = the nominees found eligible, sorted by agent id",
        )
    verify_selection(formation.selection)
