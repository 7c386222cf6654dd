"""A department: one node of the company's department tree."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, ValidationInfo, field_validator

from accord.org._names import Identifier


class Department(BaseModel):
    """A department; ``parent`` is None for a root, whose children are the company's branches."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Identifier
    parent: Identifier | None = None

    @field_validator("parent")
    @classmethod
    def _not_own_parent(cls, parent: str | None, info: ValidationInfo) -> str | None:
        if parent is not None and parent == info.data.get("name"):
            raise ValueError("a department cannot be its own parent")
        return parent
