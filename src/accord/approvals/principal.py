"""The authenticated identity a human decision comes from."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, field_validator

from accord.printable import PrintableId

SYSTEM_PREFIX = "system:"


class Principal(BaseModel):
    """Who is deciding, as the API or CLI layer authenticated them; this room only checks roles.

    Never build one from a request body's claims: identity comes from the credential.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    principal_id: PrintableId
    roles: frozenset[str] = frozenset()

    @field_validator("principal_id")
    @classmethod
    def _not_the_system(cls, value: str) -> str:
        if value.startswith(SYSTEM_PREFIX):
            raise ValueError(f"principal ids starting with {SYSTEM_PREFIX!r} are reserved")
        return value

    def holds(self, role: str) -> bool:
        return role in self.roles
