"""The rows one signed bundle becomes: the stored record and its search index."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from accord.crypto import dual_hash
from accord.precedents.authority import authority_rank
from accord.precedents.bundle import ChainLink, JurisprudenceBundle, condition_key

APPLICABLE = "applicable"
INAPPLICABLE = "inapplicable"


@dataclass
class RegistryRows:
    """Rows for the four registry tables, gathered for one insert each."""

    bundles: list[dict[str, Any]] = field(default_factory=list)
    types: list[dict[str, Any]] = field(default_factory=list)
    conditions: list[dict[str, Any]] = field(default_factory=list)
    supersessions: list[dict[str, Any]] = field(default_factory=list)

    def add(
        self, bundle: JurisprudenceBundle, seq: int, canonical: bytes | None = None
    ) -> ChainLink:
        """Add ``bundle`` at chain position ``seq``; the link of the bundle after it
        (``canonical``: its canonical bytes, when the caller already has them)."""
        data = bundle.canonical() if canonical is None else canonical
        primary, secondary = dual_hash(data)
        jid = bundle.jurisprudence_id
        rank = authority_rank(bundle.authority_level)
        self.bundles.append(
            {
                "jurisprudence_id": jid,
                "seq": seq,
                "dispute_type": bundle.classification.dispute_type.value,
                "authority_rank": rank,
                "created_at": bundle.created_at,
                "bundle_hash": primary,
                "bundle_hash_secondary": secondary,
                "document": data.decode("utf-8"),
            }
        )
        applies_to = dict.fromkeys(
            [bundle.classification.dispute_type, *bundle.applicability.applicable_dispute_types]
        )
        ranking = {"authority_rank": rank, "created_at": bundle.created_at, "seq": seq}
        applicability = bundle.applicability
        for dispute_type in applies_to:
            self.types.append(
                {"dispute_type": dispute_type.value, "jurisprudence_id": jid, **ranking}
            )
            for conditions, kind in (
                (applicability.applicable_conditions, APPLICABLE),
                (applicability.inapplicable_conditions, INAPPLICABLE),
            ):
                self.conditions.extend(
                    {
                        "dispute_type": dispute_type.value,
                        "applicability": kind,
                        "condition": key,
                        "jurisprudence_id": jid,
                        **ranking,
                    }
                    for key in dict.fromkeys(condition_key(c) for c in conditions)
                )
        self.supersessions.extend(
            {"superseded_id": old, "superseding_id": jid, "created_at": bundle.created_at}
            for old in bundle.supersedes
        )
        return ChainLink(prev_hash=primary, prev_hash_secondary=secondary)
