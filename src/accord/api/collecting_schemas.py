"""The wire format of ``/api/v1/collecting``: opening a collecting case, and its answers."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, Field

from accord.api.schemas import NO_NUL, OwnPositionIn, Short, _In
from accord.cases import MAX_COLLECT_FOR, MIN_COLLECT_FOR, CollectingCase
from accord.crypto import RecordSignature


class OpenCollectingIn(_In):
    """A question for named agents, collected for ``within_seconds``."""

    subject: Annotated[str, Field(min_length=1, max_length=2_000, pattern=NO_NUL)]
    parties: Annotated[list[Short], Field(min_length=2, max_length=100)]
    within_seconds: Annotated[
        int,
        Field(ge=int(MIN_COLLECT_FOR.total_seconds()), le=int(MAX_COLLECT_FOR.total_seconds())),
    ]
    task_type: Annotated[str, Field(min_length=1, max_length=128, pattern=NO_NUL)] = "default"
    session_id: Annotated[str, Field(min_length=1, max_length=128, pattern=NO_NUL)] | None = None


class SignatureIn(_In):
    """A record signature (``RecordSignature``) as the agent made it with its own key."""

    alg: Annotated[str, Field(min_length=1, max_length=32, pattern=NO_NUL)]
    kid: Annotated[str, Field(min_length=1, max_length=128, pattern=NO_NUL)]
    sig_b64: Annotated[str, Field(min_length=1, max_length=256, pattern=NO_NUL)]
    domain_sep: Annotated[str, Field(min_length=1, max_length=64, pattern=NO_NUL)]


class SubmitPositionIn(OwnPositionIn):
    """The key's agent's position; ``party_signature`` optionally its own signature on it
    (``accord.cases.collecting.party_signature.sign_position``), checked against the
    agent key the ledger registered for it."""

    party_signature: SignatureIn | None = None


class CollectingOut(BaseModel):
    """A collecting case: who submitted (never what, until it settles), who is missing,
    and the case it became."""

    collecting_id: str
    subject: str
    task_type: str
    session_id: str | None
    parties: list[str]
    submitted: list[str]
    signed: list[str]
    missing: list[str]
    opened_by: str
    opened_at: datetime
    deadline_at: datetime
    status: str
    case_id: str | None
    closed_at: datetime | None
    closed_reason: str | None

    @classmethod
    def of(cls, case: CollectingCase) -> CollectingOut:
        return cls.model_validate(case.to_json_dict())


class PartySignatures(BaseModel):
    """Each signing party's own signature on its position."""

    signatures: dict[str, RecordSignature]


class CollectingPage(BaseModel):
    """Newest first; pass ``next_before`` back as ``before`` for the next page."""

    items: list[CollectingOut]
    next_before: str | None
