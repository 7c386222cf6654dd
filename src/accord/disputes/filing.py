"""What a caller gives to open a dispute or submit evidence, validated at the boundary.

A :class:`DisputeFiling` names the type (R1), severity (R3), complainant and respondents
(agent ids, resolved through the org chart, or full parties), the subject, evidence and, for
a critical dispute, whether it starts at human appeal (R18). Sizes are bounded here; the
DCP rules (types, tiers, flooding) are checked by the service.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StrictBool, StrictBytes
from pydantic import ValidationError as PydanticValidationError

from accord.dcp07.dispute_record import Subject
from accord.dcp07.fields import Identifier, Sha256Hash, Text
from accord.dcp07.parties import Party
from accord.dcp07.refusal import from_pydantic
from accord.precedents import Condition

MAX_RESPONDENTS: Final = 32
MAX_EVIDENCE_ITEMS: Final = 64
MAX_CONDITIONS: Final = 16
MAX_DETAIL_TEXT: Final = 4096


class EvidenceInput(BaseModel):
    """One piece of evidence as submitted: its content (a JSON value, or raw bytes from the
    library), and optionally the hash the submitter computed — which must match (R33)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    evidence_type: Identifier
    reference: Identifier
    description: Text
    content: StrictBytes | JsonValue
    content_hash: Sha256Hash | None = None


PartyInput = Identifier | Party
"""An agent id (its principal and organisation come from the org chart) or a full party."""


class DisputeFiling(BaseModel):
    """Everything ``Disputes.open`` needs (the complainant is who files: the HTTP layer sets
    it from the credential, never from the body)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dispute_type: Identifier
    severity: Identifier
    complainant: PartyInput
    respondents: Annotated[tuple[PartyInput, ...], Field(min_length=1, max_length=MAX_RESPONDENTS)]
    subject: Text | Subject
    evidence: Annotated[tuple[EvidenceInput, ...], Field(max_length=MAX_EVIDENCE_ITEMS)] = ()
    start_at_appeal: StrictBool = False
    conditions: Annotated[tuple[Condition, ...], Field(max_length=MAX_CONDITIONS)] = ()
    """Conditions that hold, as sentences (1–256 printable characters each), for the
    precedent search on opening (R24); compared case- and whitespace-blind."""

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> DisputeFiling:
        """``data`` as a filing; refused naming the first bad field (R5)."""
        try:
            return cls.model_validate(data)
        except PydanticValidationError as exc:
            raise from_pydantic(exc, requirement="R5", record="DisputeFiling") from None


def read_evidence(data: Mapping[str, Any]) -> EvidenceInput:
    """``data`` as one evidence input; refused naming the first bad field (R33)."""
    try:
        return EvidenceInput.model_validate(data)
    except PydanticValidationError as exc:
        raise from_pydantic(exc, requirement="R33", record="EvidenceInput") from None
