"""Verification for auditors: public keys only, no configuration, no application code.

:func:`verify_ledger` opens the database read-only as it is (no migration, no key folder of
its own, no ``accord.yaml``), pins the service key ``signer_kid`` from a folder of
``*.pub.json`` files, and checks the ledger (every entry, link, checkpoint, key registration
and reviewer signature) and then every stored row it audits (cases, approval items, boundaries,
stays, the precedent registry) against its signed records. It imports
neither ``accord.app`` nor any probe or strategy plugin a configuration names.
"""

from __future__ import annotations

from pathlib import Path

from accord.audit.stored import audit_stored_rows
from accord.crypto import load_public_keys
from accord.errors import StoreError, VerificationFailed
from accord.ledger import Checkpoint, TrustRoot, VerificationReport
from accord.ledger.stored_verification import verify_stored
from accord.store import Database, missing_sqlite_file, require_tables, resolve_database_url
from accord.values import revised


def verify_ledger(
    db_url: str | None,
    public_keys_dir: str | Path,
    signer_kid: str,
    *,
    workers: int | None = None,
    cases: bool = True,
    allow_unsafe_permissions: bool = False,
    trusted_checkpoint: Checkpoint | None = None,
) -> VerificationReport:
    """Verify the ledger at ``db_url`` trusting only the service key ``signer_kid`` (found in
    ``public_keys_dir``) and the keys it registered; ``VerificationFailed`` names the first
    bad entry, checkpoint or case. ``db_url`` None means ``sqlite:///accord.db``."""
    keys = load_public_keys(
        Path(public_keys_dir), allow_unsafe_permissions=allow_unsafe_permissions
    )
    root = TrustRoot.from_public_keys(keys, signer_kid)
    url = resolve_database_url(db_url)
    missing = missing_sqlite_file(url)
    if missing is not None:
        raise StoreError(
            f"no database at {missing}", code="store.no_database", path=str(missing)
        )
    db = Database(url)
    try:
        return verify_database(
            db, root, workers=workers, cases=cases, trusted_checkpoint=trusted_checkpoint
        )
    finally:
        db.dispose()


def verify_database(
    db: Database,
    root: TrustRoot,
    *,
    workers: int | None = None,
    cases: bool = True,
    trusted_checkpoint: Checkpoint | None = None,
) -> VerificationReport:
    """The ledger against ``root`` (and ``trusted_checkpoint``, when given), then (``cases``)
    every stored row against what was signed about it (``VerificationFailed``: the first bad
    entry; ``<table>.mismatch`` / ``.unbacked`` / ``.missing_row`` for ``cases``,
    ``case_parties``, ``dissents``, ``approval_items``, the DCP-07 dispute tables,
    ``boundaries``, ``boundary_attempts``, ``dispute_stays``, ``api_keys`` and the ``precedent_*``
    tables,
    or ``ledger_entries.outside_chain``, the first stored row that is altered, unbacked by a
    signed record, or lost; a missing table is ``store.missing_table``)."""
    require_tables(db)
    report = verify_stored(db, root, workers=workers, trusted_checkpoint=trusted_checkpoint)
    if not cases:  # the ledger alone (the stored-rows audit runs at ~2,500 cases/s on one core)
        return report
    # One snapshot for records and rows: cases settled or decided meanwhile by other
    # writers are either wholly in it or wholly not (records past the verified head are
    # checked for signatures by the next verify).
    with db.read() as conn:
        result = audit_stored_rows(conn, root, report.entries)
    problem = result.problem
    if problem is not None:
        raise VerificationFailed(problem.message, **problem.context())
    return revised(
        report,
        cases=result.cases,
        disputes=result.disputes,
        unproved_shown=result.unproved_shown,
    )
