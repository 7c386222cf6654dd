"""Every column of every table ``Accord.verify`` vouches for, and how it is checked.

For the case and approval tables each column names the document field the project's row
builder derives it from (the document itself is compared with the signed records); for the
ledger tables, the check ``ledger/verify.py`` applies. A column no check covers is declared
:class:`Unsigned` with the reason. A test introspects ``store/tables.py``: a table that gains
a column fails it until the column is listed here.
"""

from __future__ import annotations

from collections.abc import Mapping

from accord.disputes.approval_audit import APPROVAL_COLUMNS
from accord.disputes.audit_paths import Unsigned
from accord.disputes.boundary_audit import ATTEMPT_COLUMNS, BOUNDARY_COLUMNS
from accord.disputes.case_description import CASE_COLUMNS, DISSENT_COLUMNS, PARTY_COLUMNS
from accord.disputes.precedent_audit import PRECEDENT_COLUMNS
from accord.disputes.stay_audit import STAY_COLUMNS

_REBUILT = "rebuilt into the signed body and compared byte for byte"

LEDGER_ENTRY_COLUMNS: Mapping[str, str] = {
    "seq": "the chain position: entries 1..head, no gap (rows with seq <= 0 are reported)",
    "event_type": _REBUILT,
    "timestamp": _REBUILT,
    "signer_kid": _REBUILT + "; names the key the signature must verify under",
    "body": "the signed bytes; the signature must verify over them",
    "signature": "verified over the body",
    "entry_hash": "recomputed from the signed entry",
    "entry_hash_secondary": "recomputed from the signed entry",
}
CHECKPOINT_COLUMNS: Mapping[str, str | Unsigned] = {
    "id": Unsigned("a surrogate row number; the signed body carries the tree size"),
    "tree_size": "must equal the signed body's tree size",
    "body": "the signed tree head; its root must equal the entries' Merkle root",
    "signature": "verified over the body",
    "signer_kid": "must equal the signed body's signer",
    "frontier": "re-derived from the entries and compared",
}

AUDITED_COLUMNS: Mapping[str, Mapping[str, str | Unsigned]] = {
    "cases": CASE_COLUMNS,
    "case_parties": PARTY_COLUMNS,
    "dissents": DISSENT_COLUMNS,
    "approval_items": APPROVAL_COLUMNS,
    "boundaries": BOUNDARY_COLUMNS,
    "boundary_attempts": ATTEMPT_COLUMNS,
    **PRECEDENT_COLUMNS,
    "dispute_stays": STAY_COLUMNS,
    "ledger_entries": LEDGER_ENTRY_COLUMNS,
    "ledger_checkpoints": CHECKPOINT_COLUMNS,
}
"""Table → column → the document path it is built from, how verify checks it, or why not."""

NOT_AUDITED_TABLES: Mapping[str, str] = {
    "parked_tasks": "an agent's own saved state while it waits for people; no record signs it",
    "api_keys": "the service's sign-in credentials (hashed tokens, roles, revocation): no "
    "signed record states them, so there is nothing to compare. Approval decisions and stays "
    "taken with a key also carry the principal's reviewer signature, which verify checks "
    "against the registered reviewer key; a step signed by the service key alone (a settle "
    "as an agent) is only as trustworthy as this table, which verify does not vouch for",
    "agent_interactions": "the interaction log (R32): facts fed in from outside (who talked to "
    "whom, when) that panel eligibility reads; no record signs them; each panel formation "
    "record keeps, per candidate, what eligibility concluded from them",
    "dcp_disputes": "not audited yet: a queryable copy of each DCP-07 dispute; ``document`` "
    "is the signed §4 record its latest dispute event in the ledger carries, but verify does "
    "not compare the stored row with it",
    "dcp_dispute_parties": "not audited yet: the parties of the signed §4 record in "
    "dcp_disputes.document, copied for queries",
    "dcp_dispute_events": "not audited yet: one row per signed dispute event (its ledger_seq); "
    "verify checks the ledger entries, not this copy",
    "dcp_dispute_evidence": "not audited yet: the evidence items of the signed §4 record, "
    "copied for queries",
    "dcp_evidence_contents": "content-addressed evidence (R33): each row's key is the sha256 "
    "of its content, which the signed records carry; verify does not rehash it yet",
    "dispute_negotiation_steps": "not audited yet: each tier-1 step is also a signed "
    "dispute_negotiation_proposal event (with the party's signature); verify does not compare "
    "the stored step with it",
    "dispute_coin_flips": "not audited yet: the coin flip's windows, carried by each signed "
    "coin_commit event",
    "dispute_coin_steps": "not audited yet: each commit and reveal is also a signed "
    "dispute_negotiation_proposal event; verify does not compare the stored row with it",
    "dispute_nominations": "not audited yet: the nominations are carried by the signed "
    "arbitration_panel_formed event's formation record, not compared with these rows",
    "dispute_panels": "not audited yet: the formation record is the signed "
    "arbitration_panel_formed event's; the pending resolution is not signed by the ledger "
    "until dispute_resolved carries it",
    "dispute_panel_votes": "not audited yet: each member-signed vote is also the signed "
    "arbitration_vote_cast event; the reasoning text is kept here only (its hash is signed)",
    "dispute_appeal_decisions": "not audited yet: the principals' signed §6 record is carried "
    "by dispute_resolved; this row only names it",
    "deadlines": "scheduling state, not a record: each armed row copies a deadline a signed "
    "record already carries (an approval item's deadline, a dispute's escalation_deadline) "
    "and what firing it did is signed by that subject's own event (approval_expired, "
    "approval_escalated, the dispute's escalation), which verify checks",
    "compliance_actions": "not audited yet: a queryable copy of each binding resolution's "
    "required actions; what happened to each is a signed dispute_compliance_verified / "
    "dispute_compliance_failed entry (ledger_seq), which verify checks as an entry only",
    "compliance_flags": "not audited yet: a copy of the signed agent_noncompliance_flagged "
    "entries (ledger_seq)",
    "dispute_objections": "not audited yet: document is the signed §8 objection record the "
    "dispute_objection_filed entry carries; verify does not compare the row with it",
}
"""Tables of ``store/tables.py`` that ``verify`` does not vouch for, and why."""
