"""The DCP-07 dispute tables checked against the signed dispute events (``Accord.verify``).

Every dispute row is rebuilt from the ledger: the signed §4 record the dispute's latest
``dcp-07`` event carries, that event's details (evidence, votes, the §6 resolution, the §8
objection, compliance checks) and the entries' seqs. Each table's description
(:mod:`.tables`) names, per column, where the value is signed and how it is compared, or
declares it :class:`~accord.audit.paths.Unsigned` with the reason.
"""

from accord.audit.disputes.audit import audit_dispute_tables
from accord.audit.disputes.tables import DISPUTE_TABLES, described

__all__ = ["DISPUTE_TABLES", "audit_dispute_tables", "described"]
