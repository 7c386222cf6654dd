"""What an agent runs where its private key lives: check each payload it was shown against
the step it asked for, then sign.

The service's answer is not trusted: the dispute, the agent and the step come from the caller
(what the agent itself sent to prepare). A payload is signed only when its bytes hash to the
sha256 named, are made under ``DCP-DISPUTE-SIG-v2`` (R36) and carry a record that matches that
request:

* every record: ``dispute_id`` is the dispute asked for;
* a party step or panel vote: its ``step`` (or ``record_type``) is the kind asked for, its
  ``agent_id`` is the caller's, and each field it carries from the request's arguments
  (terms, responds_to, proposal_id, content_hash, description, answers, commitment, nonce_hex,
  choice, vote, the hash of the reasoning) equals them;
* a §6 resolution: the step kind signs one, at its ``resolution_level``, and its
  ``outcome.description`` is the terms it resolves with (a proposal's own terms; for an
  acceptance or a panel step the caller names them, ``resolves_with``).

What is not checked: fields the agent cannot know from its request (record ids, instants,
``prev_hash``, a vote's ``resolution_hash``, a §6 record's reasoning, type and panel section).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from accord.crypto import DISPUTE_SIG_TAG, Signer, sha256_prefixed
from accord.crypto.encoding import b64decode, b64encode
from accord.dcp07.refusal import refused
from accord.disputes.tiers.prepared.models import PayloadSignature, PreparedStep
from accord.disputes.tiers.prepared.step_kinds import PreparedStepArgs, validated_step
from accord.errors import ValidationError

_RESOLUTION = "arbitration_resolution"


def sign_payloads(
    prepared: PreparedStep,
    signer: Signer,
    *,
    agent_id: str,
    dispute_id: str,
    step: PreparedStepArgs | Mapping[str, Any],
    resolves_with: str | None = None,
) -> list[PayloadSignature]:
    """``signer``'s signature of each payload ``prepared`` awaits, once each matches the step
    agent ``agent_id`` asked for on ``dispute_id`` (see the module; a ``ValidationError``
    naming the payload and field otherwise). ``resolves_with``: the terms a §6 resolution
    signed for an acceptance or a panel step must resolve with."""
    args = validated_step(step)
    if signer.kid != prepared.kid:
        raise _refused("kid", f"the step is to be signed with key {prepared.kid}, not {signer.kid}")
    for field, asked, shown in (
        ("dispute_id", dispute_id, prepared.dispute_id),
        ("step", args.step, prepared.step),
        ("actor_id", agent_id, prepared.actor_id),
    ):
        if shown != asked:
            raise _refused(field, f"{asked!r}, what you asked for (the answer says {shown!r})")
    out = []
    for payload in prepared.payloads:
        where = f"payloads[{payload.index}]"
        message = _message(where, payload.payload_b64, payload.sha256)
        _check(where, _record(where, message), args, agent_id, dispute_id, resolves_with)
        out.append(
            PayloadSignature(sha256=payload.sha256, signature_b64=b64encode(signer.sign(message)))
        )
    return out


def _message(where: str, payload_b64: str, sha256: str) -> bytes:
    try:
        message = b64decode(payload_b64)
    except ValueError:
        raise _refused(f"{where}.payload_b64", "standard base64") from None
    if sha256_prefixed(message) != sha256:
        raise _refused(f"{where}.sha256", "the sha256 of the payload's bytes")
    return message


def _record(where: str, message: bytes) -> dict[str, Any]:
    tag, zero, body = message.partition(b"\x00")
    if tag != DISPUTE_SIG_TAG.encode() or not zero:
        raise _refused(where, f"bytes signed under {DISPUTE_SIG_TAG} (R36)")
    try:
        record = json.loads(body)
    except ValueError:
        raise _refused(where, "a JSON record after the domain tag") from None
    if not isinstance(record, dict):
        raise _refused(where, "a JSON record after the domain tag")
    return record


def _check(
    where: str,
    record: dict[str, Any],
    args: PreparedStepArgs,
    agent_id: str,
    dispute_id: str,
    resolves_with: str | None,
) -> None:
    _same(where, record, "dispute_id", dispute_id)
    if record.get("record_type") == _RESOLUTION:
        _check_resolution(where, record, args, resolves_with)
        return
    kind_field = "record_type" if "record_type" in record else "step"
    if args.record_kind is None or record.get(kind_field) != args.record_kind:
        raise _refused(
            f"{where}.{kind_field}",
            f"a record of the {args.step} step you asked for, not {record.get(kind_field)!r}",
        )
    _same(where, record, "agent_id", agent_id)
    for field, value in args.carried().items():
        _same(where, record, field, value)


def _check_resolution(
    where: str, record: dict[str, Any], args: PreparedStepArgs, resolves_with: str | None
) -> None:
    level = args.resolution_level
    if level is None:
        raise _refused(f"{where}.record_type", f"a {args.step} step signs no §6 resolution")
    _same(where, record, "resolution_level", level.value)
    terms = args.resolves_with() or resolves_with
    if terms is None:
        raise _refused(
            f"{where}.outcome.description",
            f"the terms it resolves with, named by you (resolves_with) for a {args.step} step",
        )
    outcome = record.get("outcome")
    shown = outcome.get("description") if isinstance(outcome, dict) else None
    if shown != terms:
        raise _refused(f"{where}.outcome.description", "the terms you resolve with")


def _same(where: str, record: Mapping[str, Any], field: str, asked: object) -> None:
    if record.get(field) != asked:
        raise _refused(f"{where}.{field}", f"{_short(asked)}, what you asked for")


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _refused(field: str, rule: str) -> ValidationError:
    return refused("R36", field, rule, code="disputes.prepared_payload_refused")
