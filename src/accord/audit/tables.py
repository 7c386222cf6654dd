"""Every column of every table ``Accord.verify`` vouches for, and how it is checked.

For the case and approval tables each column names the document field the project's row
builder derives it from (the document itself is compared with the signed records); for the
ledger tables, the check ``ledger/verify.py`` applies. A column no check covers is declared
:class:`Unsigned` with the reason. A test introspects ``store/tables.py``: a table that gains
a column fails it until the column is listed here.
"""

from __future__ import annotations

from collections.abc import Mapping

from accord.audit.api_keys import API_KEY_COLUMNS
from accord.audit.approvals import APPROVAL_COLUMNS
from accord.audit.boundaries import ATTEMPT_COLUMNS, BOUNDARY_COLUMNS
from accord.audit.case_description import CASE_COLUMNS, DISSENT_COLUMNS, PARTY_COLUMNS
from accord.audit.disputes import DISPUTE_TABLES, described
from accord.audit.paths import Unsigned
from accord.audit.precedents import PRECEDENT_COLUMNS
from accord.audit.stays import STAY_COLUMNS

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
    "api_keys": API_KEY_COLUMNS,
    "ledger_entries": LEDGER_ENTRY_COLUMNS,
    "ledger_checkpoints": CHECKPOINT_COLUMNS,
    **{name: described(name) for name in DISPUTE_TABLES},
}
"""Table → column → the document path it is built from, how verify checks it, or why not."""

NOT_AUDITED_TABLES: Mapping[str, str] = {
    "webhook_subscriptions": "where the service pushes notices and the secret that signs them: "
    "configuration, not a decision; no record signs it",
    "webhook_deliveries": "the outbox and delivery log of notices about signed events: each "
    "body copies what the ledger already signs, and the receiver checks the HMAC, not the audit",
    "parked_tasks": "an agent's own saved state while it waits for people; no record signs it",
    "idempotency_keys": "which retried request maps to which case or parked task (a digest "
    "and an id): a replay returns the signed rows it names, and no record signs the map",
    "agent_interactions": "the interaction log (R32): facts fed in from outside (who talked to "
    "whom, when) that panel eligibility reads; no record signs them; each panel formation "
    "record keeps, per candidate, what eligibility concluded from them",
    "dispute_agreement_drafts": "not audited yet: a proposal's §6 resolution as its acceptors "
    "sign it; each signature is also in the party-signed acceptance event, and the record "
    "that resolves the dispute is carried by dispute_resolved, but this row is not compared "
    "with them",
    "dispute_ballot_papers": "not audited yet: which approval item carries which human "
    "member's vote; the item and its signed approval events are audited with the approval "
    "tables, the member's signed vote by arbitration_vote_cast, but this link is not compared "
    "with them",
    "deadlines": "scheduling state, not a record: each armed row copies a deadline a signed "
    "record already carries (an approval item's deadline, a dispute's escalation_deadline) "
    "and what firing it did is signed by that subject's own event (approval_expired, "
    "approval_escalated, the dispute's escalation), which verify checks",
    "collecting_cases": "not signed: a question waiting for its parties' positions; once "
    "it settles, the case it became (case_id) is signed and audited like any other, with "
    "every position that arrived in its opening record; an abandoned one has no record",
    "collecting_parties": "not signed by the service: positions as each party submitted them, "
    "stored input until the case settles (no ledger record signs a lone position); the "
    "settled case's opening record signs them all, and verify audits that case; a party's "
    "own signature (signature) was verified against its registered agent key when stored, "
    "and verify does not check it again",
    "dispute_prepared_steps": "not a record: a tier step waiting for its agent's own "
    "signatures (the pins its runs share, the hashes of what was shown); once completed, the "
    "step is its ordinary party-signed event, which verify audits like any other",
}
"""Tables of ``store/tables.py`` that ``verify`` does not vouch for, and why."""
