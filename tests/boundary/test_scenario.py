"""A scripted session: long debates close into small boundaries a successor settles cheaply.

Three unresolved cases with realistic transcripts (long reasoning per agent, tool output as
evidence, two debate rounds). Each boundary must be under 5 % of the transcript it replaces,
and a fresh successor settles each with exactly one probe call and zero model tokens.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from accord.boundary import (
    BoundaryService,
    BoundaryStore,
    CaseView,
    ModelTextCrux,
    ProbeRegistry,
    ProbeResult,
    TieBreaker,
    transcript_bytes_of,
)
from accord.clock import FrozenClock
from accord.conflicts import Evidence, Position, detect
from accord.crypto import Ed25519Signer
from accord.ledger import Ledger, TrustRoot
from accord.llm import ScriptedModel

_WORDS = [
    "the",
    "invoice",
    "header",
    "lists",
    "currency",
    "totals",
    "ledger",
    "booking",
    "purchase",
    "order",
    "line",
    "tax",
    "net",
    "gross",
    "vendor",
    "contract",
    "clause",
    "rate",
    "conversion",
    "posted",
    "period",
    "approval",
    "workflow",
    "audit",
    "trail",
    "discrepancy",
    "rounding",
    "shipment",
    "receipt",
    "matched",
    "three",
    "way",
    "match",
    "tolerance",
    "policy",
    "exception",
    "reviewer",
    "evidence",
    "extract",
    "field",
    "schema",
    "assumption",
    "response",
    "status",
    "payload",
    "error",
    "body",
    "endpoint",
    "retried",
    "deployment",
    "health",
    "check",
    "replica",
    "timestamp",
    "window",
]


def _prose(seed: int, words: int) -> str:
    rng = random.Random(seed)
    sentences = []
    while words > 0:
        n = rng.randint(9, 22)
        sentences.append(" ".join(rng.choice(_WORDS) for _ in range(n)).capitalize() + ".")
        words -= n
    return " ".join(sentences)


def _invoice_document(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    return {
        "lines": [
            {
                "sku": f"SKU-{i:04d}",
                "qty": rng.randint(1, 40),
                "unit_cents": rng.randint(100, 9000),
                "description": _prose(seed * 100 + i, 12),
            }
            for i in range(30)
        ],
        "header": {"invoice": "INV-4411", "vendor": "ACME GmbH", "terms": "NET30"},
    }


def _position(agent: str, output: Any, seed: int, assumptions: list[str]) -> Position:
    return Position(
        agent=agent,
        output=output,
        confidence=0.7,
        reasoning=_prose(seed, 700),
        assumptions=assumptions,
        evidence=[
            Evidence.of("tool_output", _invoice_document(seed), reference="erp://invoices/4411"),
            Evidence.of("log", {"lines": [_prose(seed + i, 30) for i in range(15)]}),
        ],
    )


def _transcript(view: CaseView) -> int:
    """The whole case as an orchestrator would persist it: positions, debate rounds, detection."""
    debate = [
        {"round": r, "agent": p.agent, "argument": _prose(1000 * r + i, 450)}
        for r in range(2)
        for i, p in enumerate(view.positions)
    ]
    return transcript_bytes_of({"case": view.model_dump(mode="json"), "debate": debate})


def _cases() -> list[CaseView]:
    invoice = [
        _position(
            "agent:billing",
            {
                "total": {"amount_cents": 120_000, "currency": "EUR"},
                "vendor": "ACME GmbH",
                "due": "2026-12-30",
            },
            1,
            ["prices are net", "currency comes from the purchase order"],
        ),
        _position(
            "agent:audit",
            {
                "total": {"amount_cents": 120_000, "currency": "USD"},
                "vendor": "ACME GmbH",
                "due": "2026-12-30",
            },
            2,
            ["prices are net", "currency comes from the invoice header"],
        ),
    ]
    deploy = [
        _position("agent:deployer", True, 3, ["HTTP 200 means success"]),
        _position("agent:verifier", False, 4, ["an error payload in the body means failure"]),
    ]
    stock = [
        _position("agent:planner", 140, 5, ["the nightly snapshot is current"]),
        _position("agent:picker", 95, 6, ["the warehouse scan of this morning is current"]),
        _position("agent:buyer", 140, 7, ["the nightly snapshot is current"]),
    ]
    return [
        CaseView(
            case_id="case:invoice",
            subject="INV-4411 total",
            task_type="invoice.total",
            positions=tuple(invoice),
            detection=detect(invoice),
        ),
        CaseView(
            case_id="case:deploy",
            subject="release 42 rollout",
            task_type="deploy.check",
            positions=tuple(deploy),
            detection=detect(deploy),
            hints={
                "deploy.check": TieBreaker(
                    probe="http.check",
                    arguments={"url": "https://status.internal/release/42", "inspect": "body"},
                    description="GET the release endpoint, inspect the body for an error payload",
                    winner_by_result={
                        "clean": ("agent:deployer",),
                        "error_payload": ("agent:verifier",),
                    },
                )
            },
        ),
        CaseView(
            case_id="case:stock",
            subject="SKU-0042 on hand",
            task_type="stock.count",
            positions=tuple(stock),
            detection=detect(stock),
        ),
    ]


class _Probe:
    def __init__(self, name: str, value: str) -> None:
        self.name = name
        self.description = name
        self.value = value
        self.calls = 0

    def run(self, arguments: Mapping[str, Any]) -> ProbeResult:
        self.calls += 1
        return ProbeResult(
            value=self.value, detail=f"{self.name} {dict(arguments)}", evidence={"seen": self.value}
        )


HINTS = {
    "invoice.total:total.currency": TieBreaker(
        probe="erp.lookup",
        arguments={"table": "invoices", "id": "INV-4411", "column": "currency"},
        description="Read the booked currency of INV-4411 from the ERP",
    ),
    "stock.count": TieBreaker(
        probe="db.query",
        arguments={
            "sql": "select on_hand from stock where sku = :sku",
            "params": {"sku": "SKU-0042"},
        },
        description="Query the live stock table for SKU-0042",
    ),
}


def test_boundaries_are_small_and_a_successor_settles_each_with_one_probe(
    store: BoundaryStore,
    frozen_clock: FrozenClock,
    ledger: Ledger,
    signer: Ed25519Signer,
) -> None:
    cases = _cases()
    sizes = {view.case_id: _transcript(view) for view in cases}
    probes = [
        _Probe("erp.lookup", "USD"),
        _Probe("http.check", "error_payload"),
        _Probe("db.query", "95"),
    ]
    registry = ProbeRegistry({p.name: p for p in probes})
    closing = BoundaryService(store, registry, frozen_clock, hints=HINTS)
    recorded = closing.close("session:orchestrator-1", cases, sizes)
    assert [b.status for b in recorded] == ["pending", "pending", "pending"]

    ratios = {line.case_id: line.ratio_bp for line in closing.budget("session:orchestrator-1")}
    for boundary in recorded:
        assert boundary.transcript_bytes > 40_000
        assert boundary.budget_ratio < 0.05, (boundary.case_id, boundary.budget_ratio)
    print("budget (basis points):", ratios)

    model = ScriptedModel([])  # the successor has a model, and must not need it
    successor = BoundaryService(store, registry, frozen_clock, text_crux=ModelTextCrux(model))
    receipts = {
        b.case_id: successor.resolve(b.boundary_id)
        for b in successor.pending("session:orchestrator-1")
    }
    assert [p.calls for p in probes] == [1, 1, 1]
    assert model.requests == []
    assert receipts["case:invoice"].winner_agents == ("agent:audit",)
    assert receipts["case:deploy"].winner_agents == ("agent:verifier",)
    assert receipts["case:deploy"].winning_answer is False
    assert receipts["case:stock"].winner_agents == ("agent:picker",)
    assert receipts["case:stock"].loser_agents == ("agent:planner", "agent:buyer")
    assert successor.pending() == []
    assert ledger.verify(TrustRoot(signer.kid, signer.public_key)).entries == 3 + 3 * 2
