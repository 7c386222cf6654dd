"""Strategy benchmarks (issue: strategies): model tokens per settled case, and authority speed.

Scripted scenarios — a mix tier 1 settles (confidence gaps, majorities) and genuine
disagreements it cannot (critical contradictions, ties) — settled three ways:

(a) Accord, ``strategy: debate``: tier 1 first; only what it escalates is debated;
(b) Accord, ``strategy: hybrid``: tier 1 first; the review agent for what it escalates;
(c) the baseline a user would otherwise pay, "always debate": strategy chains
    (``conflict_resolution.chains``) that skip the tier-1 rungs, so every conflict goes straight
    to the debate.

The model is a deterministic ``ScriptedModel`` (tokens = ``len(text) * 0.25``) answering like a
careful one: a ~110-token argument per side, and a judge whose verdict follows the content
(consistent under the position swap), confident (0.9) except on yes/no contradictions (0.65):
there the debate (``min_confidence`` 0.5) decides and the hybrid (``clear_confidence`` 0.7)
asks people. Tokens are the cases' own ``tokens_in + tokens_out``; "per settled case" divides
all tokens spent by the cases that ended settled.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import re
import tempfile
import time
from importlib.resources import files
from pathlib import Path
from typing import Any

import yaml
from common import Result, settle_request

from accord.app import Accord
from accord.cases import SettleRequest, SettleStatus
from accord.clock import SystemClock
from accord.conflicts import Position
from accord.ladder import AuthorityStrategy, Conflict, StrategyContext
from accord.llm import ModelRequest, ScriptedModel
from accord.org import OrgChart, load_org_chart

LABELS = ("approve", "approve_with_changes", "needs_work", "duplicate")
ARGUMENT = (
    "My answer follows from the primary record, not from a summary of it. I checked the ledger "
    "line by line against the signed source document, and every figure reconciles; the opposing "
    "answer relies on a cached copy that predates the last correction. Where the two disagree the "
    "source is authoritative, and it is cited in my position. The opposing reasoning also skips "
    "the adjustment made at month end. I am confident in my position: 0.85."
)
REASONING = (
    "The winning argument cites the primary source and explains the discrepancy; the other "
    "relies on an outdated copy and does not address the correction."
)
_BLOCK = re.compile(r'<argument label="([A-Z])">\n(.*?)\n</argument>', re.DOTALL)
_ANSWER = re.compile(r"^Answer: (.*)$", re.MULTILINE)
ALWAYS_DEBATE_CHAINS = {
    "default": ["arbitration", "human"],
    "critical": ["source_verification", "arbitration", "human"],
}


def careful_model(calls: int = 100_000) -> ScriptedModel:
    """Arguments of a fixed length; a judge that picks by content (stable under the swap)."""

    def answer(request: ModelRequest) -> str | dict[str, Any]:
        if request.purpose == "argument":
            return ARGUMENT
        prompt = request.messages[-1].content
        blocks = {label: _ANSWER.search(body) for label, body in _BLOCK.findall(prompt)}
        answers = {k: m.group(1) if m else "" for k, m in blocks.items()}
        label = min(answers, key=lambda k: (answers[k], k))
        # sure of itself on totals and labels, less so on yes/no contradictions
        unsure = set(answers.values()) == {"true", "false"}
        return {"winner": label, "reasoning": REASONING, "confidence": 0.65 if unsure else 0.9}

    return ScriptedModel([answer] * calls, name="careful-scripted")


def scenarios(n: int, seed: int = 2026) -> list[SettleRequest]:
    """~70 % settle at tier 1 (confidence gaps, label majorities), ~30 % genuine disagreements."""
    rng = random.Random(seed)
    out: list[SettleRequest] = []
    for i in range(n):
        kind = i % 10
        if kind < 4:  # a confident total against a doubtful one: the confidence rung
            truth = rng.randint(100, 10_000)
            positions = [
                {"agent": "agent:billing", "output": truth, "confidence": 0.95},
                {"agent": "agent:ops", "output": round(truth * 1.3), "confidence": 0.6},
            ]
            task = "invoicing"
        elif kind < 7:  # three reviewers, two agree: the vote rung
            majority = rng.choice(LABELS)
            other = rng.choice([x for x in LABELS if x != majority])
            positions = [
                {"agent": "agent:rev-1", "output": majority},
                {"agent": "agent:rev-2", "output": majority},
                {"agent": "agent:rev-3", "output": other},
            ]
            task = "review"
        elif kind < 9:  # a critical contradiction and no source of truth
            positions = [
                {"agent": "agent:risk", "output": True, "confidence": 0.8},
                {"agent": "agent:sales", "output": False, "confidence": 0.8},
            ]
            task = "sanctions"
        else:  # one vote each, equally confident: a genuine tie
            a, b = rng.sample(LABELS, 2)
            positions = [
                {"agent": "agent:rev-1", "output": a, "confidence": 0.7},
                {"agent": "agent:rev-2", "output": b, "confidence": 0.7},
            ]
            task = "review"
        out.append(SettleRequest(subject=f"case {i}", positions=positions, task_type=task))
    return out


def _open(tmp: str, name: str, body: dict[str, Any]) -> Accord:
    config = Path(tmp) / f"{name}.yaml"
    settings = {
        "database": {"url": f"sqlite:///{tmp}/{name}.db", "sqlite_synchronous": "NORMAL"},
        "keys": {"directory": f"{tmp}/keys"},
        "learning": {"reliability": False},
        **body,
    }
    config.write_text(yaml.safe_dump(settings), encoding="utf-8")
    return Accord.open(config, clock=SystemClock(), model=careful_model())


@dataclasses.dataclass
class Run:
    label: str
    settled: int
    queued: int
    tokens: int
    calls: int
    tier_one: int
    seconds: float

    @property
    def per_settled(self) -> float:
        return self.tokens / self.settled if self.settled else float("inf")


def _settle_all(tmp: str, name: str, body: dict[str, Any], requests: list[SettleRequest]) -> Run:
    accord = _open(tmp, name, body)
    try:
        began = time.perf_counter()
        cases = [settle_request(accord, r) for r in requests]
        seconds = time.perf_counter() - began
        accord.verify(workers=1)
    finally:
        accord.close()
    settled = [c for c in cases if c.status is SettleStatus.SETTLED]
    return Run(
        label=name,
        settled=len(settled),
        queued=sum(1 for c in cases if c.approval_item_id is not None),
        tokens=sum(c.tokens_in + c.tokens_out for c in cases),
        calls=sum(c.model_calls for c in cases),
        tier_one=sum(1 for c in settled if c.strategy is None),
        seconds=seconds,
    )


def _example_org() -> OrgChart:
    return load_org_chart(Path(str(files("accord.examples").joinpath("org.yaml"))))


SENIORITY_PAIRS = (
    ("agent:backend", "agent:backend-lead"),
    ("agent:qa", "agent:eng-director"),
    ("agent:frontend", "agent:cto"),
    ("agent:billing-intern", "agent:billing"),
    ("agent:legacy-reports", "agent:cfo"),
    ("agent:audit", "agent:billing"),
)


def authority_rate(decisions: int) -> tuple[float, int, int]:
    """Authority decisions per second on prebuilt disputes; (rate, decided, tokens)."""
    org = _example_org()
    disputes = [
        Conflict.from_positions(
            f"case-{i}",
            "Is migration 0042 safe?",
            "deploy",
            [
                Position(agent=junior, output=True, confidence=0.8),
                Position(agent=senior, output=False, confidence=0.8),
            ],
        )
        for i, (junior, senior) in enumerate(SENIORITY_PAIRS)
    ]
    ctx = StrategyContext(org=org)
    strategy = AuthorityStrategy()

    async def loop() -> tuple[int, int]:
        decided = tokens = 0
        for i in range(decisions):
            outcome = await strategy.resolve(disputes[i % len(disputes)], ctx)
            decided += outcome.status == "decided"
            tokens += outcome.tokens_in + outcome.tokens_out + outcome.model_calls
        return decided, tokens

    began = time.perf_counter()
    decided, tokens = asyncio.run(loop())
    return decisions / (time.perf_counter() - began), decided, tokens


def run(quick: bool) -> list[Result]:
    n = 20 if quick else 50
    requests = scenarios(n)
    # critical contradictions go to people unless the conflict type opts in: the benchmark
    # measures what the strategies spend on them, so it opts in
    opt_in = {"direct_contradiction": {"critical_without_source": "strategy"}}
    debate = {
        "conflict_resolution": {
            "strategy": "debate",
            "debate": {"judge": "agent:arbiter"},
            "conflict_types": opt_in,
        }
    }
    hybrid = {"conflict_resolution": {"strategy": "hybrid", "conflict_types": opt_in}}
    always = {
        "conflict_resolution": {**debate["conflict_resolution"], "chains": ALWAYS_DEBATE_CHAINS}
    }
    with tempfile.TemporaryDirectory() as tmp:
        runs = {
            name: _settle_all(tmp, name, body, requests)
            for name, body in (("debate", debate), ("hybrid", hybrid), ("always", always))
        }
    base = runs["always"]
    baseline = f"always debate: {base.per_settled:,.0f} tokens/settled case"
    results = []
    for name, label in (
        ("debate", "Accord, strategy: debate (tier 1 first)"),
        ("hybrid", "Accord, strategy: hybrid (tier 1 first)"),
    ):
        r = runs[name]
        ratio = r.per_settled / base.per_settled
        results.append(
            Result(
                f"{label}: model tokens per settled case, {n} conflicts",
                r.per_settled,
                "tokens/case",
                baseline=baseline,
                ratio=ratio,
                target="< always debate",
                passed=ratio < 1.0,
                notes=f"{r.settled}/{n} settled ({r.tier_one} at tier 1), {r.queued} queued, "
                f"{r.calls} model calls, {r.tokens:,} tokens",
                extra=dataclasses.asdict(r),
            )
        )
    results.append(
        Result(
            f"always debate (tier 1 skipped): model tokens per settled case, {n} conflicts",
            base.per_settled,
            "tokens/case",
            notes=f"{base.settled}/{n} settled, {base.calls} model calls, {base.tokens:,} tokens",
            extra=dataclasses.asdict(base),
        )
    )
    count = 20_000 if quick else 100_000
    per_second, decided, tokens = authority_rate(count)
    results.append(
        Result(
            "AuthorityStrategy().resolve in memory (example org chart)",
            per_second,
            "decisions/s",
            target=">= 5,000 decisions/s, 0 tokens",
            passed=per_second >= 5_000 and decided == count and tokens == 0,
            notes=f"{decided:,}/{count:,} decided, {tokens} tokens",
        )
    )
    return results
