"""Every record the disputes room signs is a frozen, validated model; the case audit's
description of where each field is signed reads the same records."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from accord.audit.case_description import HANDED_OVER, SIGNED_PATHS
from accord.audit.paths import MISSING
from accord.cases import Case, DissentRecord
from accord.cases.human_decision import fold_human_decision
from accord.cases.ledger_records import case_events, case_records
from accord.cases.lifecycle import Outcome, transition
from accord.cases.records import (
    RECORD_TYPES,
    ByPerson,
    ByProbe,
    CaseAbandoned,
    CaseHandedOver,
    CaseResolved,
    SignedRecord,
    dispute_resolved,
)
from accord.cases.settle_on_winner import settle_on_winner
from accord.cases.tier_two import fold_outcome
from accord.conflicts import Tier
from accord.ladder.strategy_types import StrategyOutcome

from ._builders import NOW, decide_case, pos

LATER = NOW + timedelta(minutes=3)


def escalated() -> Case:
    return decide_case([pos("a", 1200.5, 0.6), pos("b", 800, 0.6)])


def by_strategy() -> Case:
    outcome = StrategyOutcome(strategy="judge", status="decided", group=0, winner="a")
    return fold_outcome(escalated(), outcome, (), department=None, now=LATER)


def by_person() -> Case:
    case = escalated()
    group = case.detection.groups[0]
    queued = transition(case, Outcome.QUEUED, approval_item_id="apr:1", tier=Tier.HUMAN_APPEAL)
    return settle_on_winner(
        queued,
        winners=group.agents,
        answer=group.answer,
        rung="human",
        tier=Tier.HUMAN_APPEAL,
        confidence=1.0,
        decided_by="human:alice",
        reasoning="",
        decided_at=LATER,
    ).case


def every_record() -> list[SignedRecord]:
    """One of each shape of every record type, from real cases."""
    records: list[SignedRecord] = []
    for case in (
        decide_case([pos("a", 0.5, 0.8), pos("b", 0.5)]),
        decide_case([pos("a", {"total": 10.25}), pos("b", {"currency": "EUR"})]),
        decide_case([pos("a", 1200.5, 0.9), pos("b", 800, 0.2)]),
        escalated(),
        by_strategy(),
    ):
        records += case_records(case, None)
    person = by_person()
    records.append(dispute_resolved(person, ByPerson("human:alice", "apr:1")))
    records.append(dispute_resolved(person, ByProbe("erp", "erp says", "bnd:1", "sha256:0")))
    queued = transition(escalated(), Outcome.QUEUED, approval_item_id="apr:2")
    denied = fold_human_decision(
        queued, outcome="denied", choice=None, decided_by="human:bob", reason="", decided_at=LATER
    )
    records.append(CaseAbandoned.of(denied, outcome="denied", decided_by="human:bob"))
    return records


def test_every_record_type_the_audit_describes_has_its_models_and_every_shape_is_built() -> None:
    kinds = {kind for kind in SIGNED_PATHS if kind != HANDED_OVER}
    assert kinds == set(RECORD_TYPES)
    built = {type(r) for r in every_record()}
    assert built == {model for models in RECORD_TYPES.values() for model in models}


def _audit_kind(record: SignedRecord) -> str:
    return HANDED_OVER if isinstance(record, CaseHandedOver) else record.event_type


def test_every_path_the_audit_folds_is_stated_by_a_record_of_its_type() -> None:
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for record in every_record():
        by_kind.setdefault(_audit_kind(record), []).append(record.record())
    for kind, paths in SIGNED_PATHS.items():
        for path, extract in paths.items():
            assert any(extract(r) is not MISSING for r in by_kind[kind]), (kind, path)


def test_records_round_trip_through_their_models_to_the_same_dict() -> None:
    for record in every_record():
        again = type(record).model_validate(record.record())
        assert again.record() == record.record()


def test_a_record_shares_each_answer_instead_of_copying_it() -> None:
    big = {"lines": list(range(1000))}
    case = decide_case([pos("a", big, 0.9), pos("b", {"lines": []}, 0.2)])
    [(_, opened), (_, resolved)] = case_events(case, None)
    assert opened["positions"][0]["answer"] is case.positions[0].output
    assert resolved["answer"] is case.decision.answer  # type: ignore[union-attr]


def _resolved_record() -> dict[str, Any]:
    return dispute_resolved(by_person(), ByPerson("human:alice", "apr:1")).record()


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        ({"winner": "z", "winners": ["z"]}, "not parties"),
        ({"winner": "b"}, "not among the winners"),
        ({"decided_at": "2026-11-29T12:09:00.000000Z"}, "one clock read"),
        ({"winner": None}, "only a person's written outcome names no winner"),
        (
            {"winner": None, "winners": [], "resolution_type": "timeout"},
            "only a person's written outcome names no winner",
        ),
    ],
)
def test_a_resolved_record_names_a_winner_among_the_parties_at_one_instant(
    change: dict[str, Any], rule: str
) -> None:
    record = {**_resolved_record(), **change}
    model = RECORD_TYPES["dispute_resolved"][1]
    with pytest.raises(ValueError, match=rule):
        model.model_validate(record)


def test_a_resolved_record_refuses_a_dissenter_who_won() -> None:
    record = _resolved_record()
    record["dissent"] = [{**record["dissent"][0], "agent_id": record["winner"]}]
    with pytest.raises(ValueError, match="not a losing party"):
        RECORD_TYPES["dispute_resolved"][1].model_validate(record)


def test_records_are_frozen_and_refuse_unknown_fields() -> None:
    record = dispute_resolved(by_person(), ByPerson("human:alice", "apr:1"))
    with pytest.raises(ValueError, match="frozen"):
        record.winner = "b"  # type: ignore[misc]
    with pytest.raises(ValueError, match="Extra inputs"):
        type(record).model_validate({**record.record(), "extra": 1})
    assert isinstance(record, CaseResolved)


def test_a_dissent_record_refuses_a_dissenter_who_won_or_is_not_a_party() -> None:
    case = by_person()
    data = case.dissent[0].model_dump()
    winner = case.decision.winner  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="among the winners"):
        DissentRecord.model_validate({**data, "winners": [data["agent_id"]]})
    with pytest.raises(ValueError, match="not z's"):
        DissentRecord.model_validate({**data, "agent_id": "z"})
    assert winner != data["agent_id"]


def test_a_case_refuses_a_dissenter_among_its_winners() -> None:
    case = by_person()
    data = {name: getattr(case, name) for name in Case.model_fields}
    decision = case.decision
    assert decision is not None
    everyone = decision.model_copy(update={"winners": ("a", "b")})
    with pytest.raises(ValueError, match="among the winners"):
        Case.model_validate({**data, "decision": everyone})
