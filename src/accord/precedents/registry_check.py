"""Checking the whole registry: every bundle signed, chained and indexed as stored.

Checks, in registry order: (1) positions run 1..n with no gap; (2) the stored document is the
canonical form of a valid bundle; (3) its signature verifies under the key its kid names
(only keys the caller trusts: a key never comes with the bundle); (4) its prev_hash pair is the
previous bundle's hashes (``GENESIS`` for the first); (5) the row's columns are the ones derived
from the document; then (6) the search tables and supersession edges hold exactly the rows the
documents give. :func:`registry_problem` reports the first failure (table, row key, column,
rule); :func:`verify_registry` raises it as ``VerificationFailed``
(``precedents.registry_broken``) naming the position, the bundle and the check.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError as PydanticValidationError
from sqlalchemy import Connection, Table, select

from accord.errors import AccordError, VerificationFailed
from accord.precedents.bundle import GENESIS_LINK, JurisprudenceBundle, verify_bundle
from accord.precedents.rows import RegistryRows
from accord.store.database import Database
from accord.store.tables import (
    precedent_bundles,
    precedent_conditions,
    precedent_supersessions,
    precedent_types,
)

_PAGE = 2_000
_INDEX_TABLES = (precedent_types, precedent_conditions, precedent_supersessions)

SignerKey = Callable[[JurisprudenceBundle], bytes | str]
"""The trusted public key of a bundle's signer, or why its signer is not trusted."""


@dataclass(frozen=True)
class RegistryProblem:
    """The first stored registry row that does not hold, and the rule it breaks."""

    table: str
    key: str
    """The row's key: a bundle's jurisprudence id, or an index row's primary key."""
    column: str
    rule: str
    seq: int | None = None
    jurisprudence_id: str | None = None
    kind: str = "mismatch"
    """``mismatch``, ``unbacked`` (no trusted signature or bundle gives it) or ``missing_row``."""


def registry_problem(conn: Connection, signer_key: SignerKey) -> tuple[int, RegistryProblem | None]:
    """The bundles checked and the first problem (None: the registry holds), read through
    ``conn``; ``signer_key`` pins each bundle's signer."""
    rows = RegistryRows()
    link = GENESIS_LINK
    expected_seq = 1
    result = conn.execute(select(precedent_bundles).order_by(precedent_bundles.c.seq))
    for page in result.partitions(_PAGE):
        for row in page:
            stored = row._asdict()
            checked = expected_seq - 1
            if stored["seq"] != expected_seq:
                return checked, _bundle_problem(stored, "seq", f"expected position {expected_seq}")
            bundle = _parsed(stored["document"])
            if isinstance(bundle, str):
                return checked, _bundle_problem(stored, "document", bundle)
            key = signer_key(bundle)
            if isinstance(key, str):
                return checked, _bundle_problem(stored, "document", key, "unbacked")
            try:
                verify_bundle(bundle, key)
            except AccordError as exc:
                rule = f"signature does not verify: {exc.message}"
                return checked, _bundle_problem(stored, "document", rule, "unbacked")
            if (bundle.prev_hash, bundle.prev_hash_secondary) != (
                link.prev_hash,
                link.prev_hash_secondary,
            ):
                rule = "prev_hash does not name the previous bundle"
                return checked, _bundle_problem(stored, "document", rule)
            link = rows.add(bundle, expected_seq, stored["document"].encode("utf-8"))
            derived = rows.bundles.pop()  # the bundle rows are compared one by one, here
            changed = [k for k, v in derived.items() if stored[k] != v]
            if changed:
                rule = f"stored columns differ from the document: {changed}"
                return checked, _bundle_problem(stored, changed[0], rule)
            expected_seq += 1
    count = expected_seq - 1
    for table, expected in zip(
        _INDEX_TABLES, (rows.types, rows.conditions, rows.supersessions), strict=True
    ):
        problem = _same_rows(conn.execute(select(table)).mappings().all(), expected, table)
        if problem is not None:
            return count, problem
    return count, None


def _bundle_problem(
    stored: Mapping[str, Any], column: str, rule: str, kind: str = "mismatch"
) -> RegistryProblem:
    jid = str(stored["jurisprudence_id"])
    return RegistryProblem("precedent_bundles", jid, column, rule, int(stored["seq"]), jid, kind)


def verify_registry(db: Database, public_keys: Mapping[str, bytes]) -> int:
    """How many bundles the registry holds, once every check above passed; ``public_keys``
    maps each trusted signer's kid to its raw Ed25519 public key."""

    def trusted(bundle: JurisprudenceBundle) -> bytes | str:
        kid = bundle.signature.kid
        return public_keys.get(kid) or f"signed by kid {kid}, not a trusted key"

    with db.read() as conn:
        count, problem = registry_problem(conn, trusted)
    if problem is None:
        return count
    context: dict[str, Any] = {"table": problem.table, "key": problem.key}
    context["column"] = problem.column
    where = ""
    if problem.seq is not None:
        context.update(seq=problem.seq, jurisprudence_id=problem.jurisprudence_id)
        where = f"bundle {problem.seq} ({problem.jurisprudence_id}): "
    raise VerificationFailed(
        f"precedent registry does not verify: {where}{problem.rule}",
        code="precedents.registry_broken",
        rule=problem.rule,
        **context,
    )


def _parsed(document: str) -> JurisprudenceBundle | str:
    """The stored bundle (its canonical form, checked), or why it is not one."""
    try:
        bundle = JurisprudenceBundle.model_validate_json(document)
    except PydanticValidationError as exc:
        return f"not a valid bundle: {exc.errors()[0]['msg']}"
    if bundle.canonical().decode("utf-8") != document:
        return "the stored document is not in canonical form"
    return bundle


def _same_rows(found: Any, expected: list[dict[str, Any]], table: Table) -> RegistryProblem | None:
    key = [c.name for c in table.primary_key.columns]

    def keyed(rows: Any) -> dict[tuple[Any, ...], dict[str, Any]]:
        return {tuple(r[k] for k in key): dict(r) for r in rows}

    have, want = keyed(found), keyed(expected)
    if have == want:
        return None
    for k in sorted(set(have) | set(want), key=repr):
        stored, derived = have.get(k), want.get(k)
        if stored == derived:
            continue
        column, kind = "row", "mismatch"
        if stored is None:
            state, kind = "missing", "missing_row"
        elif derived is None:
            state, kind = "not derived from any bundle", "unbacked"
        else:
            state = "altered"
            column = next(c for c in stored if stored[c] != derived[c])
        return RegistryProblem(
            table.name,
            "/".join(str(part) for part in k),
            column,
            f"{table.name} row {list(k)} is {state}",
            kind=kind,
        )
    raise AssertionError("unreachable: the row sets differ")  # pragma: no cover
