"""The dispute, its parties, its timeline and its evidence, as the signed §4 records state
them (``dcp_disputes``, ``dcp_dispute_parties``, ``dcp_dispute_events``,
``dcp_dispute_evidence``, ``dcp_evidence_contents``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from accord.audit.disputes.checks import Description, Key, Signed, same_json
from accord.audit.disputes.signed import SignedDispute, SignedLedger
from accord.audit.paths import Unsigned
from accord.crypto import sha256_prefixed
from accord.dcp07.evidence_check import evidence_content_hash


def _latest(*path: str) -> Signed:
    """A field of the latest signed §4 record."""

    def read(signed: SignedDispute, _row: Mapping[str, Any]) -> Any:
        value: Any = signed.record
        for name in path:
            value = value.get(name) if isinstance(value, dict) else None
        return value

    return Signed(f"the latest signed §4 record's {'.'.join(path)}", read)


def _resolution_id(signed: SignedDispute, _row: Mapping[str, Any]) -> Any:
    return signed.resolution.get("resolution_id") if signed.resolution else None


def _against_complainant(signed: SignedDispute, _row: Mapping[str, Any]) -> bool:
    if signed.resolved is None:
        return False
    against = signed.resolved.details.get("resolved_against")
    complainant = signed.record.get("complainant")
    agent = complainant.get("agent_id") if isinstance(complainant, dict) else None
    return isinstance(against, list) and agent in against


DISPUTE_COLUMNS: Description = {
    "dispute_id": _latest("dispute_id"),
    "opened_seq": Signed(
        "the seq of the dispute's signed dispute_opened entry", lambda s, _r: s.opened_seq
    ),
    "dispute_type": _latest("dispute_type"),
    "severity": _latest("severity"),
    "status": _latest("status"),
    "tier": _latest("current_escalation_level"),
    "complainant_id": _latest("complainant", "agent_id"),
    "opened_at": _latest("opened_at"),
    "updated_at": Signed("the at of the dispute's latest signed event", lambda s, _r: s.latest.at),
    "escalation_deadline": _latest("escalation_deadline"),
    "party_escalated": Signed(
        "whether a signed dispute_escalated event was a party's (details.by = party)",
        lambda s, _r: s.party_escalated,
    ),
    "resolution_id": Signed(
        "the resolution_id of the §6 record the signed dispute_resolved event carries",
        _resolution_id,
    ),
    "resolved_against_complainant": Signed(
        "whether the complainant is in the signed dispute_resolved event's resolved_against",
        _against_complainant,
    ),
    "version": Signed(
        "how many signed events the dispute has (each step adds one)",
        lambda s, _r: len(s.events),
    ),
    "document": Signed(
        "the whole §4 record the latest signed event carries (parsed JSON, equal)",
        lambda s, _r: s.record,
        same_json,
    ),
    "resolution": Signed(
        "the whole §6 record the signed dispute_resolved event carries (parsed JSON, equal)",
        lambda s, _r: s.resolution,
        same_json,
    ),
}

PARTY_COLUMNS: Description = {
    "dispute_id": Signed("the latest signed §4 record's dispute_id", lambda a, _r: a[0]),
    "agent_id": Signed(
        "the agent_id of the record's complainant or a respondent",
        lambda a, _r: a[2].get("agent_id"),
    ),
    "role": Signed(
        "complainant for the record's complainant, respondent for its respondents",
        lambda a, _r: a[1],
    ),
    "principal_id": Signed("that party's principal_id", lambda a, _r: a[2].get("principal_id")),
    "organization_id": Signed(
        "that party's organization_id", lambda a, _r: a[2].get("organization_id")
    ),
}

EVENT_COLUMNS: Description = {
    "dispute_id": Signed("the signed event's dispute_id", lambda a, _r: a[0]),
    "position": Signed(
        "the event's place in the timeline of the §4 record its entry carries", lambda a, _r: a[1]
    ),
    "event_type": Signed("the entry's event type", lambda a, _r: a[2].event_type),
    "actor": Signed("the signed event's actor", lambda a, _r: a[2].actor),
    "at": Signed("the signed event's at", lambda a, _r: a[2].at),
    "status": Signed("the status of the §4 record the entry carries", lambda a, _r: a[2].status),
    "tier": Signed(
        "the current_escalation_level of the §4 record the entry carries", lambda a, _r: a[2].tier
    ),
    "ledger_seq": Signed("the seq of the entry signing the event", lambda a, _r: a[2].seq),
}


def _item(name: str) -> Signed:
    return Signed(
        f"the evidence item's {name} in the latest signed §4 record",
        lambda a, _r: a[1].get(name),
    )


EVIDENCE_COLUMNS: Description = {
    "dispute_id": Signed("the signed record's dispute_id", lambda a, _r: a[0]),
    "evidence_id": _item("evidence_id"),
    "submitted_by": _item("submitted_by"),
    "evidence_type": _item("evidence_type"),
    "reference": _item("reference"),
    "description": _item("description"),
    "content_hash": _item("content_hash"),
    "submitted_at": _item("submitted_at"),
    "ledger_seq": Signed(
        "the seq of the first signed event whose §4 record lists the item",
        lambda a, _r: a[2],
    ),
}


def _rehashes(content: Any, key: Any) -> bool:
    """Stored content hashes to the signed content hash (bytes, or canonical JSON bytes; JSON
    the canonical form cannot carry is hashed by the DCP rule over its parsed value)."""
    if not isinstance(content, bytes | bytearray | memoryview):
        return False
    data = bytes(content)
    if sha256_prefixed(data) == key:
        return True
    try:
        return bool(evidence_content_hash(json.loads(data)) == key)
    except (ValueError, TypeError, ArithmeticError):
        return False


def _content_size(_key: Any, row: Mapping[str, Any]) -> Any:
    content = row.get("content")
    return len(content) if isinstance(content, bytes | bytearray | memoryview) else None


CONTENT_COLUMNS: Description = {
    "content_hash": Signed(
        "the content_hash of an evidence item of a signed §4 record", lambda key, _r: key
    ),
    "media": Unsigned(
        "how the content is served (bytes, or a JSON value); the signed hash covers the bytes, "
        "and canonical JSON hashes like the same bytes, so no record tells the two apart"
    ),
    "size": Signed("the length of the content, which is rehashed", _content_size),
    "content": Signed(
        "rehashed: the content must hash to the signed content_hash it is stored under",
        lambda key, _r: key,
        _rehashes,
    ),
}


def signed_dispute_rows(ledger: SignedLedger) -> dict[str, dict[Key, Any]]:
    """What the signed records say each row of the five tables holds, by row key."""
    disputes: dict[Key, Any] = {}
    parties: dict[Key, Any] = {}
    events: dict[Key, Any] = {}
    evidence: dict[Key, Any] = {}
    contents: dict[Key, Any] = {}
    for dispute_id, signed in ledger.disputes.items():
        if signed.opened_seq is None:
            continue
        disputes[(dispute_id,)] = signed
        record = signed.record
        complainant = record.get("complainant")
        if isinstance(complainant, dict):
            parties[(dispute_id, complainant.get("agent_id"))] = (
                dispute_id,
                "complainant",
                complainant,
            )
        for respondent in record.get("respondents") or ():
            if isinstance(respondent, dict):
                parties[(dispute_id, respondent.get("agent_id"))] = (
                    dispute_id,
                    "respondent",
                    respondent,
                )
        for position, event in signed.events.items():
            events[(dispute_id, position)] = (dispute_id, position, event)
        for item in record.get("evidence") or ():
            if isinstance(item, dict):
                evidence_id = item.get("evidence_id")
                seq = signed.evidence_seq.get(str(evidence_id))
                evidence[(dispute_id, evidence_id)] = (dispute_id, item, seq)
                contents[(item.get("content_hash"),)] = item.get("content_hash")
    return {
        "dcp_disputes": disputes,
        "dcp_dispute_parties": parties,
        "dcp_dispute_events": events,
        "dcp_dispute_evidence": evidence,
        "dcp_evidence_contents": contents,
    }
