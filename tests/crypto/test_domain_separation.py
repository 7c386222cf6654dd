"""Domain-separated messages are ``tag || 0x00 || canonical`` and reproduce the SDK's DSMs."""

from __future__ import annotations

from typing import Any

import pytest

from accord.crypto import DCP_DISPUTE_CONTEXT, DISPUTE_SIG_TAG, domain_separated_message
from accord.errors import ValidationError

DSM_CASES = [
    ("passport_dsm", "DCP-AI.v2.AgentPassport", "agent_passport"),
    ("intent_dsm", "DCP-AI.v2.Intent", "intent"),
    ("audit_dsm", "DCP-AI.v2.AuditEvent", "audit_event"),
]
ALL_CONTEXTS = [
    "AgentPassport",
    "ResponsiblePrincipal",
    "Intent",
    "PolicyDecision",
    "AuditEvent",
    "Bundle",
    "Revocation",
    "KeyRotation",
    "ProofOfPossession",
    "JurisdictionAttestation",
    "HumanConfirmation",
    "MultiPartyAuth",
    "Lifecycle",
    "Succession",
    "Dispute",
    "Rights",
    "Delegation",
    "Awareness",
]


@pytest.mark.parametrize(("name", "context", "payload_key"), DSM_CASES)
def test_domain_separated_message_vectors_are_reproduced(
    interop: dict[str, Any],
    interop_canonical: dict[str, bytes],
    name: str,
    context: str,
    payload_key: str,
) -> None:
    dsm = domain_separated_message(context, interop_canonical[payload_key])
    assert dsm.hex() == interop["domain_separated_messages"][name]


def test_the_dsm_vectors_listed_here_are_all_there_are(interop: dict[str, Any]) -> None:
    assert sorted(interop["domain_separated_messages"]) == sorted(n for n, _, _ in DSM_CASES)
    assert sorted(interop["domain_separation_all_contexts"]["dsm_hex"]) == sorted(ALL_CONTEXTS)


@pytest.mark.parametrize("context", ALL_CONTEXTS)
def test_every_dcp_context_reproduces_its_dsm(interop: dict[str, Any], context: str) -> None:
    vectors = interop["domain_separation_all_contexts"]
    payload = vectors["payload_canonical"].encode("utf-8")
    dsm = domain_separated_message(f"DCP-AI.v2.{context}", payload)
    assert dsm.hex() == vectors["dsm_hex"][context]


def test_the_dispute_context_is_the_sdk_dispute_tag() -> None:
    assert DCP_DISPUTE_CONTEXT == "DCP-AI.v2.Dispute"
    assert DISPUTE_SIG_TAG == "DCP-DISPUTE-SIG-v2"


def test_the_message_is_the_tag_a_nul_byte_and_the_canonical_bytes() -> None:
    assert domain_separated_message("T", b"{}") == b"T\x00{}"


@pytest.mark.parametrize("tag", ["", "bad\x00tag"])
def test_an_empty_tag_or_one_containing_nul_is_refused(tag: str) -> None:
    with pytest.raises(ValidationError) as caught:
        domain_separated_message(tag, b"{}")
    assert caught.value.code == "domain.invalid_tag"
    assert caught.value.context["field"] == "tag"
