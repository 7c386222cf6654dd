"""What a party gives to object to a resolution, validated at the boundary (R27)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final

from pydantic import BaseModel, ConfigDict, Field
from pydantic import ValidationError as PydanticValidationError

from accord.dcp07.fields import Identifier, JurisprudenceId, Text
from accord.dcp07.objection_record import Grounds, RequestedRemedy
from accord.dcp07.refusal import from_pydantic
from accord.dcp07.vocabulary import ObjectionType

MAX_REFERENCES: Final = 64
MAX_SUMMARY_CHARS: Final = 4096
MAX_REASONING_CHARS: Final = 20_000


class GroundsInput(BaseModel):
    """The grounds as given (bounded tighter than the record allows)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    summary: Annotated[Text, Field(max_length=MAX_SUMMARY_CHARS)]
    detailed_reasoning: Annotated[Text, Field(max_length=MAX_REASONING_CHARS)]
    evidence_references: Annotated[tuple[Identifier, ...], Field(max_length=MAX_REFERENCES)] = ()
    precedent_references: Annotated[
        tuple[JurisprudenceId, ...], Field(max_length=MAX_REFERENCES)
    ] = ()


class RemedyInput(BaseModel):
    """The remedy asked for."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Identifier
    description: Annotated[Text, Field(max_length=MAX_SUMMARY_CHARS)]


class ObjectionFiling(BaseModel):
    """An objection as a party files it; its principal comes from the dispute record."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    objection_type: ObjectionType
    grounds: GroundsInput
    requested_remedy: RemedyInput

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> ObjectionFiling:
        """``data`` as a filing; refused naming the first bad field (R27)."""
        try:
            return cls.model_validate(data)
        except PydanticValidationError as exc:
            raise from_pydantic(exc, requirement="R27", record="ObjectionFiling") from None

    def record_grounds(self) -> Grounds:
        return Grounds.model_validate(self.grounds.model_dump())

    def record_remedy(self) -> RequestedRemedy:
        return RequestedRemedy.model_validate(self.requested_remedy.model_dump())
