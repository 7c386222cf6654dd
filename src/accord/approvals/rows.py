"""Approval items and parked tasks as table rows and back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from accord.approvals.item import ApprovalItem
from accord.clock import isoformat


def item_row(item: ApprovalItem) -> dict[str, Any]:
    """Every column of ``approval_items`` for ``item`` (the document is authoritative)."""
    decision = item.decision
    return {
        "item_id": item.item_id,
        "case_id": item.case_id,
        "status": item.status.value,
        "risk": item.risk,
        "policy_kind": item.policy.kind,
        "escalation_step": item.escalation_step,
        "offered_to_role": item.current_role,  # "current_role" is reserved in SQL
        "deadline": isoformat(item.deadline) if item.deadline else None,
        "created_at": isoformat(item.created_at),
        "decided_at": isoformat(decision.decided_at) if decision else None,
        "decided_by": decision.decided_by if decision else None,
        "version": item.version,
        "document": item.model_dump_json(),
    }


def item_from_row(row: Mapping[Any, Any]) -> ApprovalItem:
    return ApprovalItem.model_validate_json(row["document"])


#: Top-level fields only: each value stays its raw JSON text (never parsed, sent as it is).
_DOCUMENT = msgspec.json.Decoder(dict[str, msgspec.Raw])
_FIELDS = frozenset(ApprovalItem.model_fields)


def item_document(row: Mapping[Any, Any]) -> dict[str, msgspec.Raw]:
    """The item's stored document, each top-level field as its raw JSON text, without
    building the model or parsing the values: encoded again (``msgspec.json.encode``) it is
    ``item_from_row(row).model_dump(mode="json")`` (the document is that dump), at a
    fraction of the cost, for answering it as JSON. A document written before a field existed
    goes through the model, which fills in the field's default."""
    document = _DOCUMENT.decode(row["document"])
    if document.keys() != _FIELDS:
        return _DOCUMENT.decode(item_from_row(row).model_dump_json())
    return document
