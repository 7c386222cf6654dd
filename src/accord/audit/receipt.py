"""Decision receipts: what people decided on an approval item, checkable offline.

A receipt copies the decision (item, case, outcome, verdict, choice or written outcome, reason,
decider, time) and names the ledger entry that recorded it (``ledger_seq``, ``entry_hash``,
the signing ``kid``); it carries that entry's inclusion proof — the document ``accord ledger
proof`` prints — so with the service's public key alone anyone can check that the signed entry
is in the signed tree and that every field of the receipt is what the entry says.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, TypeAdapter
from pydantic import ValidationError as PydanticValidationError
from sqlalchemy import Connection

from accord.approvals import (
    ApprovalDecision,
    ApprovalItem,
    ApprovalStatus,
    DecisionVerdict,
    verdict_of_decision,
)
from accord.crypto import canonical_bytes
from accord.errors import AccordError, NotFound, VerificationFailed
from accord.ledger import Checkpoint, InclusionProof, Ledger

#: The ledger events that record a decision on an item (a person's, or its timeout's).
DECISION_EVENTS = ("approval_decided", "approval_expired")
#: Receipt fields copied from the signed entry's record, as named there.
_COPIED = ("item_id", "case_id", "outcome", "choice", "written_outcome", "reason", "decided_by")


class DecisionReceipt(BaseModel):
    """A signed decision on one approval item and the proof that the ledger holds it."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    receipt: Literal["accord-receipt-v1"] = "accord-receipt-v1"
    """The receipt format: ``accord-receipt-v1``."""
    item_id: str
    """The approval item decided."""
    case_id: str
    """The case the item belongs to."""
    outcome: Literal["approved", "denied", "expired"]
    """approved, denied or expired, as the ledger entry records it (branch on ``verdict``)."""
    verdict: DecisionVerdict
    """chosen, written, denied, expired or cancelled."""
    choice: str | None
    """The option chosen, if one was."""
    written_outcome: str | None
    """The outcome the reviewer wrote instead of choosing an option, if so."""
    reason: str
    """The decider's reasoning, as recorded."""
    decided_by: str
    """Who decided: a reviewer, or ``system:timeout``."""
    decided_at: AwareDatetime
    """When it was decided."""
    via: Literal["human", "timeout"]
    """A person's decision (``human``) or the item's timeout policy (``timeout``)."""
    ledger_seq: int
    """The sequence number of the ledger entry that records the decision."""
    entry_hash: str
    """That entry's hash."""
    kid: str
    """The id of the key that signed the entry."""
    proof: InclusionProof
    """The entry's inclusion proof (as ``accord ledger proof`` prints it)."""

    def verify(self, trusted_keys: Mapping[str, bytes]) -> Checkpoint:
        """Check the receipt with public keys only: the proof (entry signature, audit path,
        signed checkpoint), then every field against the signed entry. ``VerificationFailed``
        names the first field that does not match; the checkpoint on success."""
        try:
            checkpoint = self.proof.verify(trusted_keys)
        except VerificationFailed as exc:
            raise VerificationFailed(
                f"proof: {exc.message}",
                code=exc.code,
                **{**exc.context, "field": f"proof.{exc.context.get('field', '')}".rstrip(".")},
            ) from exc
        entry = self.proof.entry
        record = entry.get("record")
        if not isinstance(record, dict) or entry.get("event_type") not in DECISION_EVENTS:
            raise _mismatch("proof.entry", "the proved entry does not record a decision")
        expected = _fields_of(entry, record)
        actual = self.model_dump(mode="json", exclude={"receipt", "proof"})
        for name, value in actual.items():
            if expected.get(name, _ABSENT) != value:
                raise _mismatch(name, f"{name} is not what the signed ledger entry says")
        return checkpoint


_ABSENT = object()
_TIME: TypeAdapter[datetime] = TypeAdapter(AwareDatetime)


def _mismatch(field: str, message: str) -> VerificationFailed:
    return VerificationFailed(
        f"receipt does not verify: {message}", code="receipt.mismatch", field=field
    )


def _fields_of(entry: Mapping[str, Any], record: Mapping[str, Any]) -> dict[str, Any]:
    """The receipt's fields as the signed entry states them (JSON form)."""
    fields = {name: record.get(name) for name in _COPIED}
    try:
        decision = ApprovalDecision.model_validate(
            {
                **{k: record.get(k) for k in ("outcome", "choice", "written_outcome")},
                "decided_by": record.get("decided_by"),
                "reason": record.get("reason") or "",
                "decided_at": record.get("decided_at"),
                "via": record.get("via"),
            }
        )
    except PydanticValidationError:
        raise _mismatch("proof.entry", "the signed record is not a decision") from None
    signature = entry.get("signature")
    return {
        **fields,
        "reason": decision.reason,
        "verdict": verdict_of_decision(decision),
        "decided_at": _json_time(decision.decided_at),
        "via": decision.via,
        "ledger_seq": entry.get("seq"),
        "entry_hash": "sha256:" + hashlib.sha256(canonical_bytes(dict(entry))).hexdigest(),
        "kid": signature.get("kid") if isinstance(signature, Mapping) else None,
    }


def _json_time(value: datetime) -> Any:
    """A time as the receipt's JSON dump writes it (compared in that form)."""
    return _TIME.dump_python(value, mode="json")


def decision_entry_within(conn: Connection, ledger: Ledger, item_id: str) -> int:
    """The seq of the entry that recorded ``item_id``'s decision (newest first)."""
    seq = ledger.find_record_within(conn, DECISION_EVENTS, "item_id", item_id)
    if seq is None:
        raise NotFound(
            f"no ledger entry records the decision on {item_id}",
            code="receipt.no_entry",
            field="item_id",
            item_id=item_id,
        )
    return seq


def decided(item: ApprovalItem) -> ApprovalDecision:
    """``item``'s decision; a receipt is refused while it waits (``approvals.pending``) or
    when it was cancelled without one (``receipt.no_decision``)."""
    if item.decision is not None:
        return item.decision
    pending = item.status is ApprovalStatus.PENDING
    raise AccordError(
        f"approval item {item.item_id} is "
        + ("not decided yet" if pending else f"{item.status.value} without a decision")
        + ": a receipt is for a decision",
        code="approvals.pending" if pending else "receipt.no_decision",
        field="item_id",
        item_id=item.item_id,
        status=item.status.value,
    )


def receipt_for(item: ApprovalItem, ledger: Ledger, seq: int) -> DecisionReceipt:
    """The receipt of decided ``item`` from entry ``seq``, the one that recorded it."""
    decision = decided(item)
    proof = ledger.inclusion_proof(seq)
    entry = proof.entry
    return DecisionReceipt(
        item_id=item.item_id,
        case_id=item.case_id,
        outcome=decision.outcome,
        verdict=verdict_of_decision(decision),
        choice=decision.choice,
        written_outcome=decision.written_outcome,
        reason=decision.reason,
        decided_by=decision.decided_by,
        decided_at=decision.decided_at,
        via=decision.via,
        ledger_seq=seq,
        entry_hash="sha256:" + hashlib.sha256(canonical_bytes(entry)).hexdigest(),
        kid=str(entry["signature"]["kid"]),
        proof=proof,
    )
