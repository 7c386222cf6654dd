"""Checking the jurisprudence registry inside ``Accord.verify``, with its signers pinned.

The registry check (``precedents.registry_check``) verifies every bundle's signature, chain
link, columns and index rows under keys its caller trusts. Here those keys come from the
verified ledger, never from the bundle (a bundle names only a kid): the pinned service key and
the ``service`` and ``arbitrator`` (panel) keys the ledger registered. A bundle must have been
created (its signed ``created_at``) at or after the entry that registered its key and before
the entry that revoked it.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import Connection

from accord.audit.paths import RowProblem, Unsigned
from accord.ledger.key_registry import KeyRegistry
from accord.precedents.bundle import JurisprudenceBundle
from accord.precedents.registry_check import SignerKey, registry_problem

BUNDLE_SIGNER_ROLES = ("service", "arbitrator")
"""Roles whose registered keys may sign a bundle (the service, or a panel's lead)."""
_DERIVED = "derived from the signed document by the registry's row builder and compared"
_INDEX = "one of the rows the signed bundles give (the registry's row builder); compared"

PRECEDENT_COLUMNS: Mapping[str, Mapping[str, str | Unsigned]] = {
    "precedent_bundles": {
        "jurisprudence_id": _DERIVED,
        "seq": "the chain position: 1..n with no gap; prev_hash names the previous bundle",
        "dispute_type": _DERIVED,
        "authority_rank": _DERIVED,
        "created_at": _DERIVED,
        "bundle_hash": _DERIVED + " (recomputed from the canonical document)",
        "bundle_hash_secondary": _DERIVED + " (recomputed from the canonical document)",
        "document": "the signed bundle in canonical form; its signature must verify under a "
        "key the ledger trusts (pinned service key, registered service or arbitrator key)",
    },
    "precedent_types": dict.fromkeys(
        ("dispute_type", "jurisprudence_id", "authority_rank", "created_at", "seq"), _INDEX
    ),
    "precedent_conditions": dict.fromkeys(
        (
            "dispute_type",
            "applicability",
            "condition",
            "jurisprudence_id",
            "authority_rank",
            "created_at",
            "seq",
        ),
        _INDEX,
    ),
    "precedent_supersessions": dict.fromkeys(
        ("superseded_id", "superseding_id", "created_at"),
        "one of the edges the signed supersedes lists give; compared",
    ),
}
"""Table → column → how the audit checks it."""


def ledger_signers(registry: KeyRegistry, times: Mapping[int, str]) -> SignerKey:
    """The key each bundle's signer may use, as the verified ledger's key registry (and its
    key events' timestamps, ``pinned_registry_within``) says."""

    def signer_key(bundle: JurisprudenceBundle) -> bytes | str:
        kid = bundle.signature.kid
        key = registry.key(kid)
        if key is None or key.role not in BUNDLE_SIGNER_ROLES:
            return (
                f"signed by kid {kid}, which is neither the pinned service key nor a service "
                "or arbitrator key the ledger registered"
            )
        registered = times.get(key.registered_at)
        if registered is not None and bundle.created_at < registered:
            return f"created before its signer {kid} was registered (entry {key.registered_at})"
        if key.revoked_at is not None and bundle.created_at >= times[key.revoked_at]:
            return f"created after its signer {kid} was revoked (entry {key.revoked_at})"
        return key.public_key

    return signer_key


def audit_precedents(conn: Connection, signers: SignerKey) -> tuple[int, RowProblem | None]:
    """The bundles checked and the first registry row that does not hold."""
    count, problem = registry_problem(conn, signers)
    if problem is None:
        return count, None
    return count, RowProblem(
        code=f"{problem.table}.{problem.kind}",
        table=problem.table,
        key=problem.key,
        column=problem.column,
        rule=problem.rule,
    )
