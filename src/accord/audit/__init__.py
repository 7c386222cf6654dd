from accord.audit.auditor import verify_ledger

__all__ = [
    "verify_ledger",
]
