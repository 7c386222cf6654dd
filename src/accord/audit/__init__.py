"""The stored-row audit: every row Accord keeps, held against the signed record it came from.

:func:`verify_database` (behind ``Accord.verify`` and ``accord verify``) and
:func:`verify_ledger` (an auditor's, with public keys only) check the ledger first, then hand
its verified records to :func:`accord.audit.stored.audit_stored_rows`, the one checklist of
audited tables (cases, approval items, boundaries and probe attempts, stays, the precedent
registry, the DCP-07 dispute tables). :class:`DecisionReceipt` is one decision on an
approval item with the proof of the ledger entry that recorded it, checkable offline.
"""

from accord.audit.auditor import verify_database, verify_ledger
from accord.audit.receipt import DecisionReceipt, decided, decision_entry_within, receipt_for

__all__ = [
    "DecisionReceipt",
    "decided",
    "decision_entry_within",
    "receipt_for",
    "verify_database",
    "verify_ledger",
]
