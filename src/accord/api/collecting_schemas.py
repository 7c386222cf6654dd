"""The wire format of ``/api/v1/collecting``: opening a collecting case, and its answers."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from accord.api.schemas import NO_NUL, OwnPositionIn, Short, _In
from accord.cases import MAX_COLLECT_FOR, MIN_COLLECT_FOR, CollectingCase
from accord.crypto import RecordSignature


class OpenCollectingIn(_In):
    """A question for named agents, collected for ``within_seconds``."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    subject: Annotated[str, Field(min_length=1, max_length=2_000, pattern=NO_NUL)]
    """What the parties are asked about."""
    parties: Annotated[list[Short], Field(min_length=2, max_length=100)]
    """The agents asked for a position (2 to 100)."""
    within_seconds: Annotated[
        int,
        Field(ge=int(MIN_COLLECT_FOR.total_seconds()), le=int(MAX_COLLECT_FOR.total_seconds())),
    ]
    """How long the parties have to submit."""
    task_type: Annotated[str, Field(min_length=1, max_length=128, pattern=NO_NUL)] = "default"
    """The task type of the case it will open."""
    session_id: Annotated[str, Field(min_length=1, max_length=128, pattern=NO_NUL)] | None = None
    """The session, if any."""


class SignatureIn(_In):
    """A record signature (``RecordSignature``) as the agent made it with its own key."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    alg: Annotated[str, Field(min_length=1, max_length=32, pattern=NO_NUL)]
    """The signature algorithm (`ed25519`)."""
    kid: Annotated[str, Field(min_length=1, max_length=128, pattern=NO_NUL)]
    """The party's registered key."""
    sig_b64: Annotated[str, Field(min_length=1, max_length=256, pattern=NO_NUL)]
    """The signature, standard base64."""
    domain_sep: Annotated[str, Field(min_length=1, max_length=64, pattern=NO_NUL)]
    """The domain tag signed over."""


class SubmitPositionIn(OwnPositionIn):
    """The key's agent's position; ``party_signature`` optionally its own signature on it
    (``accord.cases.collecting.party_signature.sign_position``), checked against the
    agent key the ledger registered for it."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    party_signature: SignatureIn | None = None
    """The party's own signature over its position, if it signs."""


class CollectingOut(BaseModel):
    """A collecting case: who submitted (never what, until it settles), who is missing,
    and the case it became."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    collecting_id: str
    """The collecting case's id."""
    subject: str
    """What the parties are asked about."""
    task_type: str
    """The task type of the case it will open."""
    session_id: str | None
    """The session, if any."""
    parties: list[str]
    """The agents asked for a position."""
    submitted: list[str]
    """The parties that submitted."""
    signed: list[str]
    """The parties whose position carries their own signature."""
    missing: list[str]
    """The parties still to submit."""
    opened_by: str
    """Who opened it."""
    opened_at: datetime
    """When it was opened."""
    deadline_at: datetime
    """When collecting stops, whoever is missing."""
    status: str
    """collecting, settled (a case was opened) or closed."""
    case_id: str | None
    """The case opened from the positions, once there is one."""
    closed_at: datetime | None
    """When it closed, if it did."""
    closed_reason: str | None
    """Why it closed, if it did."""

    @classmethod
    def of(cls, case: CollectingCase) -> CollectingOut:
        return cls.model_validate(case.to_json_dict())


class PartySignatures(BaseModel):
    """Each signing party's own signature on its position."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    signatures: dict[str, RecordSignature]
    """Each party's own signature over its position, by agent id."""


class CollectingPage(BaseModel):
    """Newest first; pass ``next_before`` back as ``before`` for the next page."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    items: list[CollectingOut]
    """The collecting cases of this page, newest first."""
    next_before: str | None
    """Pass back as `before` for the next page; null on the last page."""
