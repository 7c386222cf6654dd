"""Prepare-then-sign tier steps: an agent signs its own DCP-07 steps with its own key (see
:mod:`accord.disputes.tiers.prepared.service`); :mod:`.agent_side` is what the agent runs
where its key lives."""

from __future__ import annotations

from accord.disputes.tiers.prepared.agent_side import sign_payloads
from accord.disputes.tiers.prepared.models import (
    Payload,
    PayloadSignature,
    PreparedStep,
    StepOutcome,
)
from accord.disputes.tiers.prepared.service import DEFAULT_TTL, PreparedSteps
from accord.disputes.tiers.prepared.step_kinds import Nominations, PreparedStepArgs, StepResult

__all__ = [
    "DEFAULT_TTL",
    "Nominations",
    "Payload",
    "PayloadSignature",
    "PreparedStep",
    "PreparedStepArgs",
    "PreparedSteps",
    "StepOutcome",
    "StepResult",
    "sign_payloads",
]
