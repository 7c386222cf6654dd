"""What follows a resolution, as the signed entries state it: objections
(``dispute_objection_filed``), the binding resolution's required actions and their checks
(``dispute_resolved``, ``dispute_compliance_verified`` / ``_failed``, ``dispute_stay_ordered``)
and the non-compliance flags (``agent_noncompliance_flagged``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from accord.audit.disputes.checks import Description, Key, Signed, same_json
from accord.audit.disputes.signed import SignedLedger, SignedStep
from accord.audit.paths import Unsigned
from accord.crypto import canonical_bytes, sha256_prefixed

BINDING: Final = "binding_resolution"
_STATE = {"dispute_compliance_verified": "verified", "dispute_compliance_failed": "failed"}
FAILURE_CHARS: Final = 4000
"""How much of a failed check's problems the row keeps (``compliance/service.py``)."""


def _objection(name: str) -> Signed:
    return Signed(
        f"the signed §8 record's {name} (dispute_objection_filed)",
        lambda a, _r: a.details.get("objection", {}).get(name),
    )


def _record_hash(step: SignedStep, _row: Mapping[str, Any]) -> Any:
    objection = step.details.get("objection")
    try:
        return sha256_prefixed(canonical_bytes(objection))
    except (ValueError, TypeError):
        return None


OBJECTION_COLUMNS: Description = {
    "objection_id": _objection("objection_id"),
    "dispute_id": _objection("dispute_id"),
    "resolution_id": _objection("resolution_id"),
    "objection_type": _objection("objection_type"),
    "objecting_agent": Signed(
        "the signed §8 record's objecting_party.agent_id",
        lambda a, _r: a.details.get("objection", {}).get("objecting_party", {}).get("agent_id"),
    ),
    "status": _objection("status"),
    "routed_to": Signed(
        "the routed_to the signed dispute_objection_filed event states",
        lambda a, _r: a.details.get("routed_to"),
    ),
    "filed_at": _objection("filed_at"),
    "record_hash": Signed(
        "recomputed: sha256 over the signed §8 record's canonical bytes", _record_hash
    ),
    "ledger_seq": Signed("the seq of the dispute_objection_filed entry", lambda a, _r: a.seq),
    "document": Signed(
        "the §8 record dispute_objection_filed carries (parsed JSON, equal)",
        lambda a, _r: a.details.get("objection"),
        same_json,
    ),
}


@dataclass(frozen=True, slots=True)
class SignedAction:
    """One required action of a signed binding resolution, and the entries about it."""

    dispute_id: str
    resolved: SignedStep
    resolution: Mapping[str, Any]
    position: int
    required: Mapping[str, Any]
    checks: Mapping[str, tuple[str, SignedStep]]
    """Action id → the signed compliance check naming it (any of the dispute's)."""
    stayed: bool


def _check(action: SignedAction, row: Mapping[str, Any]) -> tuple[str, SignedStep] | None:
    """The signed check of this row's action: it names the row's action id and agrees on the
    resolution and the agent owing it."""
    found = action.checks.get(str(row.get("action_id")))
    if found is None:
        return None
    details = found[1].details
    if details.get("resolution_id") != action.resolution.get("resolution_id"):
        return None
    if details.get("agent_id") != action.required.get("agent_id"):
        return None
    return found


def _state(action: SignedAction, row: Mapping[str, Any]) -> str:
    check = _check(action, row)
    if check is not None:
        return _STATE[check[0]]
    return "stayed" if action.stayed else "pending"


def _check_seq(action: SignedAction, row: Mapping[str, Any]) -> int | None:
    check = _check(action, row)
    return None if check is None else check[1].seq


def _failure(action: SignedAction, row: Mapping[str, Any]) -> str | None:
    check = _check(action, row)
    if check is None or check[0] != "dispute_compliance_failed":
        return None
    problems = check[1].details.get("problems")
    return "; ".join(str(p) for p in problems or ())[:FAILURE_CHARS]


def _outcome(name: str) -> Any:
    def read(action: SignedAction, _row: Mapping[str, Any]) -> Any:
        return action.resolution.get("outcome", {}).get(name)

    return read


COMPLIANCE_ACTION_COLUMNS: Description = {
    "action_id": Unsigned(
        "the tracking id given when the resolution was recorded; no record names it until the "
        "action's check is signed (then state, ledger_seq and failure must match the check "
        "that names this id)"
    ),
    "dispute_id": Signed("the resolved dispute's id", lambda a, _r: a.dispute_id),
    "resolution_id": Signed(
        "the resolution_id of the §6 record dispute_resolved carries",
        lambda a, _r: a.resolution.get("resolution_id"),
    ),
    "position": Signed(
        "the action's index in that record's outcome.actions_required", lambda a, _r: a.position
    ),
    "agent_id": Signed(
        "the agent_id of that actions_required entry", lambda a, _r: a.required.get("agent_id")
    ),
    "action": Signed(
        "the action of that actions_required entry", lambda a, _r: a.required.get("action")
    ),
    "method": Signed(
        "the record's outcome.compliance_verification_method",
        _outcome("compliance_verification_method"),
    ),
    "due_at": Signed(
        "the deadline of that actions_required entry", lambda a, _r: a.required.get("deadline")
    ),
    "resolution_seq": Signed("the seq of the dispute_resolved entry", lambda a, _r: a.resolved.seq),
    "state": Signed(
        "verified / failed by the signed compliance check naming the action id, else stayed "
        "when a signed dispute_stay_ordered names the resolution, else pending",
        _state,
    ),
    "settled_at": Unsigned(
        "the service's clock reading when it settled the action, taken before the signed "
        "check's entry is written (its at may be later); the check itself is compared"
    ),
    "ledger_seq": Signed("the seq of the signed check naming the action id", _check_seq),
    "failure": Signed(
        "the problems of the signed dispute_compliance_failed check, joined with '; '",
        _failure,
    ),
    "followup_dispute_id": Unsigned(
        "the R21 dispute opened for a failure: it is a signed dispute of its own (checked on "
        "dcp_disputes) whose subject names the failed check's entry, but no record names its "
        "id next to the action"
    ),
}


def _flag(name: str) -> Signed:
    return Signed(
        f"the signed agent_noncompliance_flagged record's {name}",
        lambda a, _r: a[1].get(name),
    )


FLAG_COLUMNS: Description = {
    "flag_id": _flag("flag_id"),
    "agent_id": _flag("agent_id"),
    "failures": _flag("failures"),
    "threshold": _flag("threshold"),
    "dispute_id": _flag("dispute_id"),
    "flagged_at": _flag("flagged_at"),
    "ledger_seq": Signed("the seq of the agent_noncompliance_flagged entry", lambda a, _r: a[0]),
}


def signed_after_rows(ledger: SignedLedger) -> dict[str, dict[Key, Any]]:
    """What the signed records say each objection, required-action and flag row holds
    (required actions keyed by resolution id and position)."""
    objections: dict[Key, Any] = {}
    actions: dict[Key, Any] = {}
    for dispute_id, dispute in ledger.disputes.items():
        for objection_id, step in dispute.objections.items():
            objections[(objection_id,)] = step
        resolution, resolved = dispute.resolution, dispute.resolved
        if resolution is None or resolved is None:
            continue
        if resolution.get("resolution_type") != BINDING:
            continue
        outcome = resolution.get("outcome")
        required = outcome.get("actions_required") if isinstance(outcome, dict) else None
        resolution_id = resolution.get("resolution_id")
        checks = dispute.compliance
        stayed = str(resolution_id) in ledger.stays
        for position, entry in enumerate(required or ()):
            if isinstance(entry, dict):
                actions[(resolution_id, position)] = SignedAction(
                    dispute_id, resolved, resolution, position, entry, checks, stayed
                )
    flags = {(flag_id,): found for flag_id, found in ledger.flags.items()}
    return {
        "dispute_objections": objections,
        "compliance_actions": actions,
        "compliance_flags": flags,
    }
