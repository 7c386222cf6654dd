"""``accord.precedents``: the registry as a user sees it — search, read, add."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import Connection

from accord.crypto import Ed25519Signer
from accord.errors import AccordError
from accord.precedents.bundle import BundleDraft, JurisprudenceBundle
from accord.precedents.precedent import Precedent
from accord.precedents.query import DEFAULT_LIMIT
from accord.precedents.search import PrecedentSearch
from accord.precedents.store import PrecedentStore


class Precedents:
    """Search and read the jurisprudence registry; add bundles signed by ``signer`` (the
    service key) unless opened to read (``signer=None``)."""

    def __init__(
        self, store: PrecedentStore, search: PrecedentSearch, signer: Ed25519Signer | None
    ) -> None:
        self._store = store
        self._search = search
        self._signer = signer

    def search(
        self, dispute_type: str, conditions: Iterable[str] = (), *, limit: int = DEFAULT_LIMIT
    ) -> list[Precedent]:
        """Bundles applying to ``dispute_type`` that list any of ``conditions`` as applicable
        and none as inapplicable (R24): highest authority first, then the most
        recent; superseded ones last (R26)."""
        return self._search.search(dispute_type, conditions, limit=limit)

    def get(self, jurisprudence_id: str) -> Precedent:
        """One bundle with its derived ``superseded_by`` (``precedents.not_found``)."""
        return self._store.get(jurisprudence_id)

    def count(self) -> int:
        return self._store.count()

    def add(self, draft: BundleDraft) -> JurisprudenceBundle:
        """Build, sign with the service key and store one bundle."""
        return self.add_many([draft])[0]

    def add_many(self, drafts: Sequence[BundleDraft]) -> list[JurisprudenceBundle]:
        """Every draft in one transaction, in order: all or nothing."""
        return self._store.add_many(drafts, self._writer())

    def add_within(self, conn: Connection, draft: BundleDraft) -> JurisprudenceBundle:
        """:meth:`add` inside the caller's write transaction (it commits with it)."""
        return self._store.add_many_within(conn, [draft], self._writer())[0]

    def _writer(self) -> Ed25519Signer:
        if self._signer is None:
            raise AccordError(
                "cannot add precedents: this Accord was opened read-only",
                code="accord.read_only",
                action="add precedents",
            )
        return self._signer
