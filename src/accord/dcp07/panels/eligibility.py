"""Whether a pool member may sit on a dispute's panel, with every reason it may not.

Checked for each candidate, all rules every time (a record lists every reason, not the first):

* the candidate is not a party (R32: independent of the parties);
* no active dispute with any party (R11), asked of the injected :class:`ActiveDisputes` port;
* no shared responsible principal with any party (R32);
* no A2A interaction with any party within the window (R32; 30 days by default,
  configurable), asked of the interaction log (:class:`accord.org.interactions.InteractionHistory`);
  an interaction exactly ``window`` ago is outside it;
* vitality strictly above the minimum (R12; 600 on the DCP-05 scale);
* lifecycle state ``active`` (R13).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Protocol, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from accord.clock import isoformat
from accord.dcp07.panels.pool import PoolMember
from accord.dcp07.parties import Party
from accord.org.agent import LifecycleState
from accord.org.chart import PANEL_MIN_VITALITY
from accord.org.interactions import InteractionHistory

DEFAULT_INTERACTION_WINDOW = timedelta(days=30)


class ActiveDisputes(Protocol):
    """The dispute ids still active (not resolved, withdrawn or abandoned) between two agents."""

    def active_between(self, a: str, b: str) -> Sequence[str]: ...


class EligibilityRules(BaseModel):
    """The configurable parts of eligibility: R12's vitality floor and R32's window."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    min_vitality: int = Field(default=PANEL_MIN_VITALITY, ge=0, le=1000, strict=True)
    interaction_window: timedelta = DEFAULT_INTERACTION_WINDOW

    @model_validator(mode="after")
    def _window(self) -> Self:
        if self.interaction_window < timedelta(0):
            raise ValueError("the interaction window is not negative")
        return self


class IneligibilityReason(BaseModel):
    """One rule a candidate breaks: the requirement, the rule, and the party concerned."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    requirement: str
    rule: str
    detail: str
    party: str | None = None


class CandidateEligibility(BaseModel):
    """A candidate's eligibility as checked at ``checked_at``; eligible iff no reason."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_id: str
    eligible: bool
    reasons: tuple[IneligibilityReason, ...]
    checked_at: datetime

    @model_validator(mode="after")
    def _eligible_iff_no_reason(self) -> Self:
        if self.eligible == bool(self.reasons):
            raise ValueError("a candidate is eligible exactly when no reason is given")
        return self

    def breaks(self, requirement: str) -> bool:
        """True when one of the reasons is ``requirement`` (e.g. ``"R11"``)."""
        return any(r.requirement == requirement for r in self.reasons)


def check_candidate(
    candidate: PoolMember,
    parties: Sequence[Party],
    *,
    disputes: ActiveDisputes,
    interactions: InteractionHistory,
    now: datetime,
    rules: EligibilityRules | None = None,
) -> CandidateEligibility:
    """Every reason ``candidate`` may not sit on a panel between ``parties`` (see above)."""
    rules = rules or EligibilityRules()
    reasons: list[IneligibilityReason] = []
    for party in parties:
        reasons += _independence(candidate, party, disputes, interactions, now, rules)
    if candidate.vitality <= rules.min_vitality:
        reasons.append(
            IneligibilityReason(
                requirement="R12",
                rule=f"vitality above {rules.min_vitality}",
                detail=f"vitality is {candidate.vitality}",
            )
        )
    if candidate.lifecycle_state is not LifecycleState.ACTIVE:
        reasons.append(
            IneligibilityReason(
                requirement="R13",
                rule="lifecycle state active",
                detail=f"lifecycle state is {candidate.lifecycle_state.value}",
            )
        )
    return CandidateEligibility(
        agent_id=candidate.agent_id, eligible=not reasons, reasons=tuple(reasons), checked_at=now
    )


def _independence(
    candidate: PoolMember,
    party: Party,
    disputes: ActiveDisputes,
    interactions: InteractionHistory,
    now: datetime,
    rules: EligibilityRules,
) -> list[IneligibilityReason]:
    found: list[IneligibilityReason] = []
    if candidate.agent_id == party.agent_id:
        found.append(
            IneligibilityReason(
                requirement="R32",
                rule="independent of the parties",
                detail="the candidate is a party",
                party=party.agent_id,
            )
        )
        return found
    active = list(disputes.active_between(candidate.agent_id, party.agent_id))
    if active:
        found.append(
            IneligibilityReason(
                requirement="R11",
                rule="no active dispute with any party",
                detail=f"active dispute(s) with {party.agent_id}: {', '.join(sorted(active))}",
                party=party.agent_id,
            )
        )
    if candidate.principal_id == party.principal_id:
        found.append(
            IneligibilityReason(
                requirement="R32",
                rule="no shared principal with any party",
                detail=f"shares principal {party.principal_id} with {party.agent_id}",
                party=party.agent_id,
            )
        )
    last = interactions.last_interaction(candidate.agent_id, party.agent_id)
    if last is not None and now - last < rules.interaction_window:
        found.append(
            IneligibilityReason(
                requirement="R32",
                rule=f"no A2A interaction with any party within {rules.interaction_window}",
                detail=f"interacted with {party.agent_id} at {isoformat(last)}",
                party=party.agent_id,
            )
        )
    return found
