"""What a prepared step shows the agent, what the agent sends back, and what it became."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Annotated, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from accord.crypto import sha256_prefixed
from accord.crypto.encoding import b64encode
from accord.dcp07.fields import SHA256_PATTERN
from accord.disputes.tiers.prepared.step_kinds import StepResult


class Payload(BaseModel):
    """Bytes the agent signs with its own key: ``payload_b64`` (standard base64) is exactly
    what Ed25519 signs — ``domain_sep``, a zero byte, then the record's canonical JSON."""

    model_config = ConfigDict(use_attribute_docstrings=True, frozen=True, extra="forbid")

    index: int = Field(ge=0)
    """The payload's place among the step's signatures (its order is the step's own)."""
    sha256: Annotated[str, Field(pattern=SHA256_PATTERN)]
    """`sha256:` of the payload's bytes: name it when you sign."""
    payload_b64: str
    """The bytes to sign, in standard base64: sign them as they are."""
    domain_sep: str
    """The domain tag the bytes start with."""
    what: str
    """What the bytes are, read from the record they carry."""


class PreparedStep(BaseModel):
    """A step waiting for its agent's signatures: ``payloads`` are the ones to sign now
    (empty once completed, or for a step that signs nothing, such as ``nominate``)."""

    model_config = ConfigDict(use_attribute_docstrings=True, frozen=True, extra="forbid")

    prepared_id: str
    """The prepared step's id: sign its payloads and post them here."""
    dispute_id: str
    """The dispute."""
    step: str
    """The step's kind."""
    actor_id: str
    """The agent (or arbitrator) who acts."""
    role: str
    """The role of the key that must sign (agent or arbitrator)."""
    kid: str
    """The registered key that must sign."""
    prepared_at: AwareDatetime
    """The instant the step is dated at (its records carry it)."""
    expires_at: AwareDatetime
    signed: int = Field(ge=0)
    """Payloads signed so far."""
    payloads: tuple[Payload, ...]
    """The payloads awaiting a signature now."""
    consumed: bool = False
    """Whether the step was completed (it cannot be signed again)."""


class PayloadSignature(BaseModel):
    """The agent's Ed25519 signature (standard base64) of the payload ``sha256`` names."""

    model_config = ConfigDict(use_attribute_docstrings=True, frozen=True, extra="forbid")

    sha256: Annotated[str, Field(pattern=SHA256_PATTERN)]
    """The `sha256:` of the payload signed."""
    signature_b64: Annotated[str, Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9+/=]+$")]
    """The agent's Ed25519 signature of the payload's bytes, standard base64."""


class StepOutcome(BaseModel):
    """After a round of signatures: the step ``completed`` (``result`` is the tier call's own
    answer), or it is ``awaiting_signatures`` on the next payload — a later signature covers
    bytes that carry an earlier one (an acceptance's record holds its §6 co-signature)."""

    model_config = ConfigDict(use_attribute_docstrings=True, frozen=True)

    status: Literal["completed", "awaiting_signatures"]
    """`completed`, or `awaiting_signatures` on the next payload."""
    prepared: PreparedStep
    """The prepared step as it now stands."""
    result: StepResult | None = None
    """The step's usual answer, once completed."""


def payload_of(index: int, message: bytes) -> Payload:
    """The :class:`Payload` for the ``index``-th message a step asked to sign."""
    tag, _, body = message.partition(b"\x00")
    return Payload(
        index=index,
        sha256=sha256_prefixed(message),
        payload_b64=b64encode(message),
        domain_sep=tag.decode("utf-8", "replace"),
        what=_what(body),
    )


def _what(body: bytes) -> str:
    try:
        record = json.loads(body)
    except ValueError:
        return "bytes that are not a JSON record"
    if not isinstance(record, dict):
        return "a JSON value that is not a record"
    if "resolution_id" in record:
        return (
            f"the §6 resolution {record.get('resolution_id')} of {record.get('dispute_id')} at "
            f"{record.get('resolution_level')}: your signature joins its signatures[]"
        )
    if "step" in record:
        return f"your {record.get('step')} step on {record.get('dispute_id')} (party_signature)"
    if "vote" in record and "panel_id" in record:
        return f"your {record.get('vote')} vote on panel {record.get('panel_id')}"
    return "a record of this dispute"


def when(moment: str) -> datetime:
    """A stored ISO instant back as an aware datetime."""
    return datetime.fromisoformat(moment)
