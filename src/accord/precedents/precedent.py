"""A bundle as the registry reads it back: the signed record plus what was derived since."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from accord.precedents.bundle import JurisprudenceBundle, JurisprudenceId


class Precedent(BaseModel):
    """A stored bundle and the bundles that superseded it (derived from later bundles'
    ``supersedes``, R26; never written into the signed bundle)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    bundle: JurisprudenceBundle
    superseded_by: tuple[JurisprudenceId, ...] = ()

    @property
    def jurisprudence_id(self) -> str:
        return self.bundle.jurisprudence_id

    @property
    def superseded(self) -> bool:
        """Whether a later bundle supersedes this one (it then ranks last in search)."""
        return bool(self.superseded_by)

    def to_json_dict(self) -> dict[str, Any]:
        """The signed bundle's fields with the derived ``superseded_by`` beside them."""
        return {**self.bundle.document(), "superseded_by": list(self.superseded_by)}
