"""Builders for the boundary room's tests: positions, views, probes that count their calls."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any

from accord.boundary import CaseView, ProbeResult, TieBreaker
from accord.conflicts import DetectionSettings, Evidence, Position, detect

TASK = "invoice.total"


RECORDED_BEFORE_PROSE = DetectionSettings(text_mode="normalized")
"""Cases as detection recorded them before prose detection: a stylistic rewording was still
a conflict then, and a session closing over older cases meets such cases."""

def pos(agent: str, output: Any, **fields: Any) -> Position:
    return Position(agent=agent, output=output, **fields)


def view(
    case_id: str,
    *positions: Position,
    task_type: str = TASK,
    subject: str = "invoice 4411",
    hints: Mapping[str, TieBreaker] | None = None,
) -> CaseView:
    return CaseView(
        case_id=case_id,
        subject=subject,
        task_type=task_type,
        positions=positions,
        detection=detect(positions, RECORDED_BEFORE_PROSE),
        hints=dict(hints or {}),
    )


def currency_split(case_id: str = "case:1") -> CaseView:
    """Two agents disagreeing on ``total.currency``, agreeing on the amount and the vendor."""
    return view(
        case_id,
        pos(
            "agent:billing",
            {"total": {"amount": 1200, "currency": "EUR"}, "vendor": "ACME"},
            assumptions=["prices are net", "currency comes from the PO"],
            evidence=[Evidence.of("po", {"po": "PO-9", "currency": "EUR"})],
        ),
        pos(
            "agent:audit",
            {"total": {"amount": 1200, "currency": "USD"}, "vendor": "ACME"},
            assumptions=["prices are net", "currency comes from the invoice header"],
            evidence=[Evidence.of("invoice", {"header": "USD 1200"})],
        ),
    )


def erp_hint(**overrides: Any) -> TieBreaker:
    fields: dict[str, Any] = {
        "probe": "erp.currency",
        "arguments": {"invoice": 4411, "field": "currency"},
        "description": "Read invoice 4411's booked currency from the ERP",
    }
    fields.update(overrides)
    return TieBreaker(**fields)


class FixedProbe:
    """Answers ``value`` every time and counts its runs."""

    def __init__(self, name: str, value: str, evidence: Any = None) -> None:
        self.name = name
        self.description = f"answers {value}"
        self.value = value
        self.evidence = evidence
        self.calls: list[dict[str, Any]] = []

    def run(self, arguments: Mapping[str, Any]) -> ProbeResult:
        self.calls.append(dict(arguments))
        return ProbeResult(value=self.value, detail="looked it up", evidence=self.evidence)


class FailingProbe:
    def __init__(self, name: str = "erp.currency") -> None:
        self.name = name
        self.description = "always fails"
        self.calls = 0

    def run(self, arguments: Mapping[str, Any]) -> ProbeResult:
        self.calls += 1
        raise ConnectionError("ERP unreachable")


class HangingProbe:
    """Blocks until ``release`` is set (tests set it in teardown; nobody sleeps)."""

    def __init__(self, name: str = "erp.currency") -> None:
        self.name = name
        self.description = "hangs"
        self.release = threading.Event()

    def run(self, arguments: Mapping[str, Any]) -> ProbeResult:
        self.release.wait(timeout=30)
        return ProbeResult(value="EUR")


class WrongTypeProbe:
    name = "erp.currency"
    description = "answers a plain string"

    def run(self, arguments: Mapping[str, Any]) -> Any:
        return "EUR"


def agents(entries: Sequence[Any]) -> list[str]:
    return [entry.agent_id for entry in entries]
