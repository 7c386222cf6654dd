"""The jurisprudence registry: signed bundles written once, with their search index.

Bundles enter through :meth:`PrecedentStore.add` (or ``add_many``): each draft is built and
signed inside one write transaction, chained after the registry's newest bundle
(``prev_hash`` = the hashes of its canonical bytes, ``GENESIS`` for the first), and stored
with its index rows and supersession edges — all of a call's bundles or none. Nothing here
updates a stored bundle. A bundle may supersede only bundles already in the registry and not
newer than itself; its own id is new, so supersession never forms a cycle.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sqlalchemy import Connection, select

from accord.clock import Clock, isoformat
from accord.crypto import Ed25519Signer
from accord.precedents.bundle import (
    GENESIS_LINK,
    JURISPRUDENCE_ID_PATTERN,
    BundleDraft,
    ChainLink,
    JurisprudenceBundle,
    build_bundle,
)
from accord.precedents.precedent import Precedent
from accord.precedents.reading import load_precedents
from accord.precedents.refusals import PrecedentNotFound, refused
from accord.precedents.rows import RegistryRows
from accord.store.database import Database
from accord.store.tables import (
    precedent_bundles,
    precedent_conditions,
    precedent_supersessions,
    precedent_types,
)

_JURISPRUDENCE_ID = re.compile(JURISPRUDENCE_ID_PATTERN.removesuffix("$") + r"\Z")
_IDS_PER_QUERY = 500
ANALYZE_FROM = 1024
"""Registry size at which the database's planner statistics are first refreshed; then again
each time the registry doubles (search plans depend on them, and a database whose
autovacuum is off would otherwise plan a large registry as if it were empty)."""
_REGISTRY_TABLES = (
    "precedent_bundles",
    "precedent_types",
    "precedent_conditions",
    "precedent_supersessions",
)
MAX_BUNDLES_PER_CALL = 10_000
"""Most drafts one ``add_many`` call signs and stores in its transaction."""


class PrecedentStore:
    """Add signed bundles to the registry and read them back (``superseded_by`` derived)."""

    def __init__(self, db: Database, clock: Clock, *, analyze_from: int = ANALYZE_FROM) -> None:
        self._db = db
        self._clock = clock
        self._analyze_from = analyze_from

    def add(self, draft: BundleDraft, signer: Ed25519Signer) -> JurisprudenceBundle:
        """Build, sign (``signer`` = the panel lead) and store one bundle."""
        return self.add_many([draft], signer)[0]

    def add_many(
        self, drafts: Sequence[BundleDraft], signer: Ed25519Signer
    ) -> list[JurisprudenceBundle]:
        """Build, sign and store every draft in one transaction, in order: all or nothing.

        Refused (``precedents.unknown_superseded``, R26): a draft superseding a bundle the
        registry does not hold; (``precedents.supersedes_newer``) one superseding a bundle
        created after it.
        """
        with self._db.write() as conn:
            return self.add_many_within(conn, drafts, signer)

    def add_many_within(
        self, conn: Connection, drafts: Sequence[BundleDraft], signer: Ed25519Signer
    ) -> list[JurisprudenceBundle]:
        """:meth:`add_many` inside the caller's write transaction (e.g. the one resolving the
        dispute the bundle records): the bundles commit with it or not at all."""
        if len(drafts) > MAX_BUNDLES_PER_CALL:
            raise refused(
                f"{len(drafts):,} bundles in one call",
                field="drafts",
                rule=f"at most {MAX_BUNDLES_PER_CALL:,} bundles per call",
                code="precedents.too_many",
            )
        if not drafts:
            return []
        at = self._clock.now()
        moment = isoformat(at)
        named = sorted({old for draft in drafts for old in draft.supersedes})
        rows = RegistryRows()
        built: list[JurisprudenceBundle] = []
        head = conn.execute(
            select(
                precedent_bundles.c.seq,
                precedent_bundles.c.bundle_hash,
                precedent_bundles.c.bundle_hash_secondary,
            )
            .order_by(precedent_bundles.c.seq.desc())
            .limit(1)
        ).first()
        seq = 0 if head is None else int(head.seq)
        link = (
            GENESIS_LINK
            if head is None
            else ChainLink(prev_hash=head.bundle_hash, prev_hash_secondary=head[2])
        )
        known: dict[str, str] = {}
        for start in range(0, len(named), _IDS_PER_QUERY):
            rows_found = conn.execute(
                select(precedent_bundles.c.jurisprudence_id, precedent_bundles.c.created_at).where(
                    precedent_bundles.c.jurisprudence_id.in_(named[start : start + _IDS_PER_QUERY])
                )
            ).all()
            known.update((jid, created) for jid, created in rows_found)
        for index, draft in enumerate(drafts):
            _check_supersedes(draft, known, moment, index)
            bundle = build_bundle(draft, signer=signer, at=at, link=link)
            seq += 1
            link = rows.add(bundle, seq)
            built.append(bundle)
        self._db.insert_rows(conn, precedent_bundles, rows.bundles)
        self._db.insert_rows(conn, precedent_types, rows.types)
        self._db.insert_rows(conn, precedent_conditions, rows.conditions)
        self._db.insert_rows(conn, precedent_supersessions, rows.supersessions)
        if _crossed_doubling(seq - len(built), seq, self._analyze_from):
            self._db.after_commit(conn, self._analyze)
        return built

    def _analyze(self) -> None:
        """Refresh the planner statistics of the registry tables."""
        with self._db.write() as conn:
            for table in _REGISTRY_TABLES:
                conn.exec_driver_sql(f"ANALYZE {table}")

    def get(self, jurisprudence_id: str) -> Precedent:
        """The bundle with that id and the bundles that superseded it; else
        ``precedents.not_found``."""
        check_jurisprudence_id(jurisprudence_id)
        with self._db.read() as conn:
            found = load_precedents(conn, [jurisprudence_id]).get(jurisprudence_id)
        if found is None:
            raise PrecedentNotFound(
                f"no jurisprudence bundle {jurisprudence_id}", jurisprudence_id=jurisprudence_id
            )
        return found

    def count(self) -> int:
        """How many bundles the registry holds."""
        with self._db.read() as conn:
            head = conn.execute(
                select(precedent_bundles.c.seq).order_by(precedent_bundles.c.seq.desc()).limit(1)
            ).scalar()
        return int(head or 0)


def _crossed_doubling(before: int, after: int, start: int) -> bool:
    """Whether growing from ``before`` to ``after`` bundles reached ``start`` × 2**k."""
    threshold = start
    while threshold <= before:
        threshold *= 2
    return after >= threshold


def check_jurisprudence_id(value: str) -> str:
    """``value`` when it has the ``jur:<uuid>`` form; else ``precedents.invalid`` naming it."""
    if not _JURISPRUDENCE_ID.match(value):
        raise refused(
            f"{value[:80]!r} is not a jurisprudence id",
            field="jurisprudence_id",
            rule="jur: followed by a lower-case UUID",
            code="precedents.invalid",
        )
    return value


def _check_supersedes(draft: BundleDraft, known: dict[str, str], moment: str, index: int) -> None:
    for position, old in enumerate(draft.supersedes):
        field = f"drafts[{index}].supersedes[{position}]"
        created = known.get(old)
        if created is None:
            raise refused(
                f"{old} is not in the registry",
                field=field,
                rule="R26: a bundle supersedes only bundles already in the registry",
                code="precedents.unknown_superseded",
                requirement="R26",
                jurisprudence_id=old,
            )
        if created > moment:
            raise refused(
                f"{old} was created at {created}, after this bundle ({moment})",
                field=field,
                rule="R26: only a later decision supersedes a bundle",
                code="precedents.supersedes_newer",
                requirement="R26",
                jurisprudence_id=old,
            )
