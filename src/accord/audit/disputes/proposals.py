"""A panel's votes and decision held against the proposed §6 resolution they were on (R14,
R19): the proposal in force (the last member-signed ``panel_proposal`` step before the vote,
else the question ``arbitration_panel_formed`` carries) must hash to the ``resolution_hash``
the step states; each signed vote must name that hash; the §6 record the panel decided (its
``dispute_resolved`` or ``arbitration_resolution_recommended``) must carry the proposal's
description, required actions, compliance method and deadline and precedents applied. So
rewriting a proposal's actions, or a vote's proposal hash, fails verification even where a
row and its signed step were rewritten together."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from pydantic import ValidationError as PydanticValidationError

from accord.audit.disputes.signed import SignedDispute, SignedStep
from accord.audit.paths import RowProblem
from accord.dcp07.panels import PanelQuestion
from accord.errors import AccordError

TABLE: Final = "ledger_entries"
_OUTCOME: Final = (
    ("description", "description"),
    ("actions_required", "actions_required"),
    ("compliance_verification_method", "compliance_verification_method"),
    ("compliance_deadline", "compliance_deadline"),
)


def proposal_problem(dispute_id: str, dispute: SignedDispute) -> RowProblem | None:
    """The first vote or decided record that is not on the proposal in force; None if all are."""
    for step in [s for s in (dispute.panel, *dispute.proposals) if s is not None]:
        if _question(step) is None:
            return _problem(
                step,
                "details.resolution_hash",
                f"dispute {dispute_id}: the proposed resolution does not hash to the "
                "resolution_hash the step states",
            )
    for vote_step in dispute.vote_steps:
        in_force = dispute.question_in_force(before=vote_step.seq)
        vote = vote_step.details.get("vote")
        named = vote.get("resolution_hash") if isinstance(vote, Mapping) else None
        if in_force is not None and named != in_force.details.get("resolution_hash"):
            return _problem(
                vote_step,
                "details.vote.resolution_hash",
                f"dispute {dispute_id}: the vote names {named}, not the proposal put to the "
                "panel before it",
            )
    for decided, path in (
        (dispute.recommended, "details.resolution"),
        (dispute.resolved, "details.resolution"),
    ):
        problem = _decision_problem(dispute_id, dispute, decided, path)
        if problem is not None:
            return problem
    return None


def _decision_problem(
    dispute_id: str, dispute: SignedDispute, decided: SignedStep | None, path: str
) -> RowProblem | None:
    if decided is None:
        return None
    record = decided.details.get("resolution")
    if not isinstance(record, Mapping) or not isinstance(record.get("panel"), Mapping):
        return None
    in_force = dispute.question_in_force(before=decided.seq)
    question = None if in_force is None else _question(in_force)
    if question is None:
        return None
    proposal = question.proposal.model_dump(mode="json")
    outcome = record.get("outcome")
    outcome = outcome if isinstance(outcome, Mapping) else {}
    stated: dict[str, Any] = {k: outcome.get(v) for k, v in _OUTCOME}
    stated["actions_required"] = stated["actions_required"] or []
    stated["precedents_applied"] = record.get("precedents_applied") or []
    for name, value in stated.items():
        if value != proposal.get(name):
            return _problem(
                decided,
                f"{path}.{'outcome.' if name != 'precedents_applied' else ''}{name}",
                f"dispute {dispute_id}: the panel's §6 record does not carry the {name} of the "
                "proposal its members voted on",
            )
    return None


def _question(step: SignedStep) -> PanelQuestion | None:
    """The step's question, when it hashes to the resolution_hash the step states."""
    try:
        question = PanelQuestion.model_validate(step.details.get("question"))
    except (PydanticValidationError, AccordError):
        return None
    if question.resolution_hash != step.details.get("resolution_hash"):
        return None
    return question


def _problem(step: SignedStep, field: str, rule: str) -> RowProblem:
    return RowProblem(
        code=f"{TABLE}.not_on_proposal",
        table=TABLE,
        key=str(step.seq),
        column=f"record.{field}",
        rule=rule,
        seq=step.seq,
    )
