"""A jurisprudence bundle exported in the reference SDK's format (R23, §7 interop): valid under
the SDK's own schema (vendored in tests/vectors/dcp/schemas) and verified by the ``dcp_ai`` SDK."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import dcp_ai.providers.ed25519_provider as ed25519_provider
import dcp_ai.providers.ml_dsa_65_provider as ml_dsa_65_provider
import dcp_ai.v2 as sdk
import pytest

from accord.crypto import Ed25519Signer, MlDsa65Signer
from accord.dcp07 import export_bundle, sdk_document
from accord.precedents import GENESIS_LINK, build_bundle
from tests.dcp07.test_sdk_interop import NONCE, sdk_valid, sdk_verifies
from tests.precedents.conftest import Draft

AT = datetime(2026, 12, 6, 6, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def registry() -> Any:
    registry = sdk.AlgorithmRegistry()
    registry.register_signer(ed25519_provider.Ed25519Provider())
    registry.register_signer(ml_dsa_65_provider.MlDsa65Provider())
    return registry


@pytest.mark.parametrize(
    ("tier", "level"),
    [
        ("direct_negotiation", "local"),
        ("contextual_arbitration", "organizational"),
        ("human_appeal", "cross_org"),
    ],
)
def test_r23_the_sdk_verifies_an_exported_bundle_valid_under_its_schema(
    draft: Draft, lead: Ed25519Signer, registry: Any, tier: str, level: str
) -> None:
    conditions = ["Two or more agents with equal priority", "Exclusive-access resource"]
    bundle = build_bundle(
        draft(conditions=conditions, barred=["One-time token"], authority_level=tier),
        signer=lead,
        at=AT,
        link=GENESIS_LINK,
    )
    keys = (Ed25519Signer.generate(), MlDsa65Signer.generate())
    document = sdk_document(
        export_bundle(bundle, session_nonce=NONCE, classical=keys[0], pq=keys[1])
    )
    sdk_valid("jurisprudence_bundle.schema.json", document)
    assert sdk_verifies(registry, document, keys)
    assert document["authority_level"] == level
    assert document["applicable_contexts"] == conditions
    assert document["category"] == "resource_conflict"
    assert document["precedent_summary"] == bundle.summary.holding
    assert document["jurisprudence_id"] == bundle.jurisprudence_id
    tampered = {**document, "precedent_summary": "Exclusive access to the first filer."}
    assert not sdk_verifies(registry, tampered, keys)
