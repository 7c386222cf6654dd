"""Checking the whole registry: every bundle signed, chained and indexed as stored.

Checks, in registry order: (1) positions run 1..n with no gap; (2) the stored document is the
canonical form of a valid bundle; (3) its signature verifies under the key its kid names
(only keys the caller trusts); (4) its prev_hash pair is the previous bundle's hashes
(``GENESIS`` for the first); (5) the row's columns are the ones derived from the document;
then (6) the search tables and supersession edges hold exactly the rows the documents give.
The first failure raises ``VerificationFailed`` (``precedents.registry_broken``) naming the
position, the bundle and the check.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError as PydanticValidationError
from sqlalchemy import Table, select

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


def _broken(rule: str, **context: Any) -> VerificationFailed:
    where = (
        f"bundle {context['seq']} ({context.get('jurisprudence_id', '?')}): "
        if ("seq" in context)
        else ""
    )
    return VerificationFailed(
        f"precedent registry does not verify: {where}{rule}",
        code="precedents.registry_broken",
        rule=rule,
        **context,
    )


def verify_registry(db: Database, public_keys: Mapping[str, bytes]) -> int:
    """How many bundles the registry holds, once every check above passed; ``public_keys``
    maps each trusted signer's kid to its raw Ed25519 public key."""
    rows = RegistryRows()
    link = GENESIS_LINK
    expected_seq = 1
    with db.read() as conn:
        result = conn.execute(select(precedent_bundles).order_by(precedent_bundles.c.seq))
        for page in result.partitions(_PAGE):
            for row in page:
                stored = row._asdict()
                context = {"seq": stored["seq"], "jurisprudence_id": stored["jurisprudence_id"]}
                if stored["seq"] != expected_seq:
                    raise _broken(f"expected position {expected_seq}", **context)
                bundle = _parsed(stored["document"], context)
                key = public_keys.get(bundle.signature.kid)
                if key is None:
                    raise _broken(
                        f"signed by kid {bundle.signature.kid}, not a trusted key", **context
                    )
                try:
                    verify_bundle(bundle, key)
                except AccordError as exc:
                    raise _broken(f"signature does not verify: {exc.message}", **context) from None
                if (bundle.prev_hash, bundle.prev_hash_secondary) != (
                    link.prev_hash,
                    link.prev_hash_secondary,
                ):
                    raise _broken("prev_hash does not name the previous bundle", **context)
                link = rows.add(bundle, expected_seq)
                if rows.bundles[-1] != stored:
                    changed = sorted(k for k, v in rows.bundles[-1].items() if stored[k] != v)
                    raise _broken(f"stored columns differ from the document: {changed}", **context)
                rows.bundles.clear()  # the bundle rows are compared one by one, above
                expected_seq += 1
        for table, expected in (
            (precedent_types, rows.types),
            (precedent_conditions, rows.conditions),
            (precedent_supersessions, rows.supersessions),
        ):
            _same_rows(conn.execute(select(table)).mappings().all(), expected, table)
    return expected_seq - 1


def _parsed(document: str, context: dict[str, Any]) -> JurisprudenceBundle:
    try:
        bundle = JurisprudenceBundle.model_validate_json(document)
    except PydanticValidationError as exc:
        raise _broken(f"not a valid bundle: {exc.errors()[0]['msg']}", **context) from None
    if bundle.canonical().decode("utf-8") != document:
        raise _broken("the stored document is not in canonical form", **context)
    return bundle


def _same_rows(found: Any, expected: list[dict[str, Any]], table: Table) -> None:
    key = [c.name for c in table.primary_key.columns]

    def keyed(rows: Any) -> dict[tuple[Any, ...], dict[str, Any]]:
        return {tuple(r[k] for k in key): dict(r) for r in rows}

    have, want = keyed(found), keyed(expected)
    for k in sorted(set(have) | set(want), key=repr):
        if have.get(k) != want.get(k):
            state = "missing" if k not in have else "not derived from any bundle"
            if k in have and k in want:
                state = "altered"
            raise _broken(f"{table.name} row {list(k)} is {state}", table=table.name)
