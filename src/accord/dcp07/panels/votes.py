"""A panel member's vote (R14, R19): approve or dissent on the resolution put to the panel,
the hash of the member's reasoning, signed by the member under ``DCP-DISPUTE-SIG-v2`` (R36).

The reasoning itself is kept by whoever stores the vote; the record carries
``reasoning_hash = "sha256:" + hex(SHA-256(UTF8(reasoning)))`` so dissent stays checkable
(R35: dissenting opinions are kept). The signed bytes are those of
:func:`accord.crypto.record_signature.signing_payload` over the record without ``signature``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from accord.clock import isoformat
from accord.crypto.hashing import sha256_prefixed
from accord.crypto.record_signature import RecordSignature, sign_record, verify_record
from accord.crypto.signer import Signer

VOTE_RECORD_TYPE: Literal["dcp07_panel_vote"] = "dcp07_panel_vote"
VoteChoice = Literal["approve", "dissent"]
_HASH = r"^sha256:[0-9a-f]{64}$"
_INSTANT = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$"


class VoteBody(BaseModel):
    """A member's vote as signed: everything but the signature."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    record_type: Literal["dcp07_panel_vote"] = VOTE_RECORD_TYPE
    dispute_id: str = Field(min_length=1)
    panel_id: str = Field(min_length=1)
    agent_id: str = Field(min_length=1)
    vote: VoteChoice
    resolution_hash: str = Field(pattern=_HASH)
    reasoning_hash: str = Field(pattern=_HASH)
    cast_at: str = Field(pattern=_INSTANT)


class PanelVote(VoteBody):
    """One member's signed vote."""

    signature: RecordSignature

    def signed_body(self) -> dict[str, Any]:
        """The record as signed: every field but ``signature``."""
        return self.model_dump(mode="json", exclude={"signature"})


def reasoning_hash(reasoning: str) -> str:
    """``sha256:<hex>`` of the reasoning's UTF-8 bytes."""
    return sha256_prefixed(reasoning.encode("utf-8"))


def cast_vote(
    *,
    dispute_id: str,
    panel_id: str,
    agent_id: str,
    vote: VoteChoice,
    resolution_hash: str,
    reasoning: str,
    at: datetime,
    signer: Signer,
) -> PanelVote:
    """The member's vote, signed with ``signer`` (the member's own key)."""
    body = VoteBody(
        dispute_id=dispute_id,
        panel_id=panel_id,
        agent_id=agent_id,
        vote=vote,
        resolution_hash=resolution_hash,
        reasoning_hash=reasoning_hash(reasoning),
        cast_at=isoformat(at),
    )
    signed = body.model_dump(mode="json")
    return PanelVote(**signed, signature=sign_record(signed, signer))


def verify_vote(vote: PanelVote, public_key: bytes) -> None:
    """Return if ``public_key`` signed ``vote``; else ``SignatureInvalid``."""
    verify_record(vote.signed_body(), vote.signature, public_key)
