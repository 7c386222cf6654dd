"""The ``arbitrators:`` section of ``accord.yaml``: the pre-approved pool (R10, R35), the panel
threshold (R39), the panel mode (R15) and the eligibility rules (R12, R32).

Limits: at most 500 pool members; ids as DCP identifiers (1–256 characters, no whitespace);
the threshold, the pool and the rules are checked here, so a bad section fails at load time
with the R-number, never at the first dispute.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from accord.dcp07.fields import Identifier
from accord.dcp07.panels.eligibility import EligibilityRules
from accord.dcp07.panels.formation import PanelMode
from accord.dcp07.panels.pool import ArbitratorKind, ArbitratorPool, PoolMember
from accord.dcp07.panels.refusals import PanelRefused
from accord.dcp07.panels.threshold import PanelThreshold, threshold_problem
from accord.org.agent import LifecycleState
from accord.org.chart import PANEL_MIN_VITALITY

MAX_POOL_MEMBERS = 500


class _Strict(BaseModel):
    # Not ``StrictSettings``: this section's YAML gives enums as strings and lists for
    # tuples, which pydantic's strict mode refuses; its integers are strict field by field.
    model_config = ConfigDict(frozen=True, extra="forbid")


class PoolMemberSettings(_Strict):
    """One pre-approved arbitrator as configured."""

    agent_id: Identifier
    principal_id: Identifier
    organization_id: Identifier
    vitality: int = Field(ge=0, le=1000, strict=True)
    lifecycle_state: LifecycleState = LifecycleState.ACTIVE
    kind: ArbitratorKind = ArbitratorKind.AGENT


class ThresholdSettings(_Strict):
    """M-of-N (default 2-of-3)."""

    m: int = Field(default=2, strict=True)
    n: int = Field(default=3, strict=True)


class ArbitratorSettings(_Strict):
    """The pool and the panel rules; see the module docstring."""

    members: tuple[PoolMemberSettings, ...] = Field(min_length=3, max_length=MAX_POOL_MEMBERS)
    single_organization: bool = False
    threshold: ThresholdSettings = ThresholdSettings()
    mode: PanelMode = PanelMode.BINDING
    min_vitality: int = Field(default=PANEL_MIN_VITALITY, ge=0, le=1000, strict=True)
    interaction_window_days: int = Field(default=30, ge=0, le=3650, strict=True)

    @model_validator(mode="after")
    def _checked(self) -> Self:
        problem = threshold_problem(self.threshold.m, self.threshold.n)
        if problem is not None:
            raise ValueError(f"threshold {self.threshold.m}-of-{self.threshold.n}: {problem} (R10)")
        if self.threshold.n > len(self.members):
            raise ValueError(f"a pool of {len(self.members)} cannot seat {self.threshold.n} (R10)")
        try:
            self.pool()
        except PanelRefused as error:
            raise ValueError(f"{error.message} ({error.context['requirement']})") from None
        return self

    def pool(self) -> ArbitratorPool:
        """The pool (``PanelRefused`` if it breaks R10 or R35)."""
        return ArbitratorPool.of(
            (PoolMember(**m.model_dump()) for m in self.members),
            single_organization=self.single_organization,
        )

    def panel_threshold(self) -> PanelThreshold:
        return PanelThreshold.of(self.threshold.m, self.threshold.n)

    def rules(self) -> EligibilityRules:
        return EligibilityRules(
            min_vitality=self.min_vitality,
            interaction_window=timedelta(days=self.interaction_window_days),
        )
