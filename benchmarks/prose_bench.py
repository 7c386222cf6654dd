"""Prose detection (issue 32): corpus rates by kind, and the cost of reading prose.

1. On the shipped corpus (``tests/conflicts/prose/prose_corpus.jsonl``), with no model: the
   false-conflict and missed-conflict rates of every kind (target ≤ 5 % each), and the same
   for the string comparison the facts replace (``text_mode: normalized``), in the same run.
2. The same with the local semantic layer (the ``accord[semantic]`` extra) when installed.
3. Cost: ``detect`` over a 3-answer case of ~100 words each (amounts, a percentage, absolute
   and relative dates, identifiers, a verdict), p50 and p99, against the string comparison of
   the same answers in the same run (target ≤ 5 ms p50). Every case has its own numbers and
   its own reference day, so no cache is warm for it: the figure is the cold cost.
"""

from __future__ import annotations

import random
import statistics
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from common import Result

from accord.conflicts import (
    DetectionSettings,
    EmbeddingComparator,
    Position,
    SemanticExtraMissing,
    detect,
    evaluate_prose,
    read_corpus,
)
from accord.conflicts.prose.evaluation import ProseEvaluation

CORPUS = Path(__file__).resolve().parents[1] / "tests/conflicts/prose/prose_corpus.jsonl"
TARGET_RATE = 0.05
TARGET_P50_MS = 5.0

ANSWERS = (
    "I reviewed invoice INV-{n} from Initech against purchase order PO-8812 and the delivery "
    "note. The total is {amount:,} EUR including {vat}% VAT, and payment is due on {due}. The "
    "line items match the order: {seats} licences for the analytics platform, the support plan "
    "and the onboarding workshop. Shipping was not charged, as agreed in the contract. The "
    "supplier's bank details are unchanged since the last payment run. I recommend we approve "
    "it for the payment run next Friday, since nothing in the document contradicts the order "
    "or the contract terms we signed with them last spring.",
    "Initech's invoice INV-{n} checks out against PO-8812 and the delivery note. It comes to "
    "€{amount:,}.00 with VAT at {vat} percent, payable by {due}. Every line matches the order — "
    "{seats} analytics licences, the support plan and the onboarding workshop — and, as the "
    "contract says, no shipping was billed. Their bank details have not changed since the last "
    "run. Approve: pay it next Friday with the regular payment run; nothing in the invoice "
    "conflicts with the purchase order or with the contract we signed last spring, and the "
    "figures reconcile.",
    "Approve INV-{n}. Checked against PO-8812 and the delivery note: total {amount} euros, VAT "
    "{vat}%, due {due}. The {seats} licences, the support plan and the workshop are exactly what "
    "we ordered, shipping is free as agreed, and the supplier's bank account is the same as in "
    "the previous payment run. It can go out next Friday in the normal payment run; I found no "
    "discrepancy with the order or the signed contract terms, so there is no reason to hold "
    "it back or to ask the supplier for a corrected invoice.",
)


def run(quick: bool) -> list[Result]:
    cases = read_corpus(CORPUS.read_text(encoding="utf-8").splitlines(), source=str(CORPUS))
    results = _rates("no model", evaluate_prose(cases))
    strings = evaluate_prose(cases, base=DetectionSettings(text_mode="normalized")).total
    results.append(
        Result(
            "corpus, string comparison (before): false conflicts",
            strings.false_conflict_rate * 100,
            "%",
            notes=f"missed {strings.missed_conflict_rate:.1%}, accuracy {strings.accuracy:.1%}",
        )
    )
    try:
        comparator = EmbeddingComparator.bundled()
    except SemanticExtraMissing:
        results.append(Result("corpus, semantic extra", 0, "-", notes="extra not installed"))
    else:
        started = time.perf_counter()
        evaluation = evaluate_prose(cases, semantic=comparator)
        seconds = time.perf_counter() - started
        results.extend(_rates("semantic extra", evaluation, f"corpus in {seconds:.1f} s"))
    results.extend(_cost(100 if quick else 400))
    return results


def _rates(label: str, evaluation: ProseEvaluation, note: str = "") -> list[Result]:
    found: list[Result] = []
    for rates in (*evaluation.by_kind, evaluation.total):
        notes = (
            f"{rates.cases} cases; accuracy {rates.accuracy:.1%}; not comparable "
            f"{rates.not_comparable_rate:.1%}"
        )
        for what, value in (
            ("false conflicts", rates.false_conflict_rate),
            ("missed conflicts", rates.missed_conflict_rate),
        ):
            found.append(
                Result(
                    f"corpus, {label}, {rates.name}: {what}",
                    value * 100,
                    "%",
                    target="≤ 5 %",
                    passed=value <= TARGET_RATE,
                    notes=notes + (f"; {note}" if note and rates.name == "all" else ""),
                )
            )
    return found


def _case(rng: random.Random, index: int) -> tuple[list[Position], datetime]:
    reference = datetime(2024, 1, 1, 9, tzinfo=UTC) + timedelta(days=index)
    due = (reference + timedelta(days=rng.randint(10, 60))).strftime("%B %-d, %Y")
    values = {
        "n": rng.randint(1000, 9999),
        "amount": rng.randint(200, 90_000),
        "vat": rng.choice((7, 10, 19, 20, 21)),
        "due": due,
        "seats": rng.randint(2, 40),
    }
    positions = [
        Position(agent=f"agent:{i}", output=text.format(**values))
        for i, text in enumerate(ANSWERS)
    ]
    return positions, reference


def _cost(count: int) -> list[Result]:
    rng = random.Random(32)
    facts = DetectionSettings()
    strings = DetectionSettings(text_mode="normalized")
    words = [len(text.split()) for text in ANSWERS]
    detect(*_case(rng, -1)[:1], facts)  # load the libraries and their data once
    timings: dict[str, list[float]] = {"facts": [], "strings": []}
    for index in range(count):
        positions, reference = _case(rng, index)
        for mode, settings in (("facts", facts), ("strings", strings)):
            started = time.perf_counter()
            found = detect(positions, settings, reference=reference)
            timings[mode].append((time.perf_counter() - started) * 1000)
            if mode == "facts" and found.has_conflict:
                raise AssertionError(f"the bench's paraphrases conflict: {found.description}")
    p50 = {m: statistics.median(t) for m, t in timings.items()}
    p99 = {m: statistics.quantiles(t, n=100)[98] for m, t in timings.items()}
    shape = f"3 answers of {min(words)}-{max(words)} words, {count} cases"
    return [
        Result(
            "prose detection, 3 answers x 100 words: p50",
            p50["facts"],
            "ms",
            baseline=f"strings {p50['strings']:.3f} ms",
            ratio=p50["facts"] / p50["strings"] if p50["strings"] else None,
            target=f"≤ {TARGET_P50_MS:g} ms",
            passed=p50["facts"] <= TARGET_P50_MS,
            notes=shape,
        ),
        Result(
            "prose detection, 3 answers x 100 words: p99",
            p99["facts"],
            "ms",
            baseline=f"strings {p99['strings']:.3f} ms",
            ratio=p99["facts"] / p99["strings"] if p99["strings"] else None,
            notes=shape,
        ),
    ]
