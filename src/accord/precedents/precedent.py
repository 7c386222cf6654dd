"""A bundle as the registry reads it back: the signed record plus what was derived since."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from accord.precedents.bundle import JurisprudenceBundle, JurisprudenceId, ObjectionReference


class Precedent(BaseModel):
    """A stored bundle, the bundles that superseded it (derived from later bundles'
    ``supersedes``, R26) and the objections filed against its resolution since it was signed
    (derived from the objection registry, R28) — neither is written into the signed bundle."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    bundle: JurisprudenceBundle
    superseded_by: tuple[JurisprudenceId, ...] = ()
    filed_objections: tuple[ObjectionReference, ...] = ()

    @property
    def jurisprudence_id(self) -> str:
        return self.bundle.jurisprudence_id

    @property
    def superseded(self) -> bool:
        """Whether a later bundle supersedes this one (it then ranks last in search)."""
        return bool(self.superseded_by)

    @property
    def objections(self) -> tuple[ObjectionReference, ...]:
        """Every objection to the bundle's resolution: those the signed bundle lists, then
        those filed since (R28)."""
        signed = {o.objection_id for o in self.bundle.objections}
        later = tuple(o for o in self.filed_objections if o.objection_id not in signed)
        return (*self.bundle.objections, *later)

    def to_json_dict(self) -> dict[str, Any]:
        """The signed bundle's fields with the derived ``superseded_by`` and
        ``filed_objections`` beside them."""
        return {
            **self.bundle.document(),
            "superseded_by": list(self.superseded_by),
            "filed_objections": [o.model_dump(mode="json") for o in self.filed_objections],
        }
