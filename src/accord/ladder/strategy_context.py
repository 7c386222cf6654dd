"""Everything a strategy may use besides the dispute: facts, a model, settings and ports."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from accord.ladder.ports import AgentDecisionPort, ApprovalGateway
from accord.llm import LanguageModel
from accord.org import OrgChart


@dataclass(frozen=True, slots=True)
class StrategyContext:
    """Read-only inputs of one ``resolve`` call; every part is optional.

    ``settings`` are this strategy's own YAML settings (plus ``analysis``: what earlier tiers
    tried, as a string or a list of strings, shown to people when a case is queued).
    """

    org: OrgChart | None = None
    model: LanguageModel | None = None
    settings: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    decision_port: AgentDecisionPort | None = None
    approvals: ApprovalGateway | None = None
