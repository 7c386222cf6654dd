"""Key ids are derived exactly as the DCP v2 SDKs derive them."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from accord.crypto import ED25519, ML_DSA_65, derive_kid


@pytest.mark.parametrize("which", ["ed25519", "ml_dsa_65"])
def test_kid_derivation_vectors_are_reproduced(interop: dict[str, Any], which: str) -> None:
    case = interop["kid_derivation"][which]
    assert derive_kid(case["alg"], base64.b64decode(case["public_key_b64"])) == case["expected_kid"]


@pytest.mark.parametrize("which", ["ed25519", "ml_dsa_65"])
def test_the_test_keys_carry_their_derived_kid(interop: dict[str, Any], which: str) -> None:
    key = interop["test_keys"][which]
    assert derive_kid(key["alg"], base64.b64decode(key["public_key_b64"])) == key["kid"]


def test_algorithm_names_are_the_sdk_spellings() -> None:
    assert (ED25519, ML_DSA_65) == ("ed25519", "ml-dsa-65")


def test_the_same_bytes_under_another_algorithm_get_another_kid() -> None:
    key = bytes(32)
    kid = derive_kid(ED25519, key)
    assert kid != derive_kid(ML_DSA_65, key)
    assert len(kid) == 32
    assert int(kid, 16) >= 0
