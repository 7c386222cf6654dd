"""``Case.summary``: the flat decision view ``accord settle`` prints."""

from __future__ import annotations

from ._builders import decide_case, pos


def test_a_settled_cases_summary_names_the_decision() -> None:
    case = decide_case([pos("a", 100, 0.9), pos("b", 200, 0.2)], duration_ms=3)

    summary = case.summary()

    assert (
        summary.items()
        >= {
            "case_id": case.case_id,
            "status": "settled",
            "winner": "a",
            "winners": ["a"],
            "answer": 100,
            "rung": "confidence",
            "kind": "numerical_inconsistency",
            "severity": "high",
            "dispute_type": "capability_conflict",
            "tier": "direct_negotiation",
            "confidence": 0.9,
            "dissent_ids": list(case.dissent_ids),
            "escalation_reason": None,
            "next_step": None,
            "duration_ms": 3,
            "ledger_seqs": [],
        }.items()
    )


def test_an_escalated_cases_summary_gives_the_reason_and_next_step() -> None:
    summary = decide_case([pos("a", 100, 0.6), pos("b", 200, 0.6)]).summary()

    assert summary["status"] == "escalated"
    assert summary["winner"] is None
    assert summary["winners"] == []
    assert summary["answer"] is None
    assert summary["rung"] is None
    assert summary["confidence"] == 0.0
    assert summary["tier"] == "contextual_arbitration"
    assert summary["escalation_reason"] == "no tier-1 rung could decide"
    assert summary["next_step"] == "arbitration"


def test_an_agreed_cases_summary_has_no_conflict_kind() -> None:
    summary = decide_case([pos("a", "ok"), pos("b", "ok")]).summary()

    assert (summary["kind"], summary["severity"], summary["dispute_type"]) == (None, None, None)
    assert summary["winners"] == ["a", "b"]
