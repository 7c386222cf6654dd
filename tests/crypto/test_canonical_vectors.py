"""The dcp-jcs-v1 canonical form reproduces every canonicalization and hash vector of DCP."""

from __future__ import annotations

from typing import Any

import pytest

from accord.crypto import (
    CanonicalizationError,
    canonical_bytes,
    canonical_from_json_text,
    dual_hash,
    sha3_256_hex,
    sha256_hex,
)

GOLDEN_CASES = [
    "simple_sorted_keys",
    "nested_objects",
    "mixed_types",
    "integer_only_v2",
    "with_null",
    "unicode",
]
GOLDEN_V2_CASES = ["integer_only", "with_null"]
INTEROP_PAYLOADS = ["agent_passport", "intent", "audit_event"]
EDGE_CASES = [
    "null_preservation",
    "integer_exact_float",
    "trailing_zeros",
    "scientific_notation_integer",
    "non_integer_float_rejected",
    "fractional_rejected",
    "scientific_fractional_rejected",
    "negative_integer",
    "key_sort_unicode",
    "nested_null",
    "empty_object",
    "empty_array",
    "array_with_null",
    "deeply_nested",
]
HASH_CASES = ["sha256_hello", "sha3_256_hello", "sha256_empty", "sha3_256_empty"]


def _edge_case(interop: dict[str, Any], name: str) -> dict[str, Any]:
    (case,) = [v for v in interop["canonicalization"]["edge_cases"]["vectors"] if v["name"] == name]
    return case  # type: ignore[no-any-return]


def test_the_case_lists_here_cover_every_vector_in_the_files(
    golden: dict[str, Any], interop: dict[str, Any]
) -> None:
    assert sorted(golden["canonicalization"]) == sorted(GOLDEN_CASES)
    assert sorted(golden["v2_canonicalization"]) == sorted(GOLDEN_V2_CASES)
    assert sorted(golden["hash_vectors"]) == sorted(HASH_CASES)
    assert sorted(interop["canonicalization"]) == sorted([*INTEROP_PAYLOADS, "edge_cases"])
    edge_names = [v["name"] for v in interop["canonicalization"]["edge_cases"]["vectors"]]
    assert sorted(edge_names) == sorted(EDGE_CASES)
    assert len(EDGE_CASES) == 14


@pytest.mark.parametrize("name", GOLDEN_CASES)
def test_golden_inputs_canonicalize_to_the_expected_text(golden: dict[str, Any], name: str) -> None:
    case = golden["canonicalization"][name]
    assert canonical_bytes(case["input"]) == case["expected_canonical"].encode("utf-8")


@pytest.mark.parametrize("name", GOLDEN_V2_CASES)
def test_golden_v2_inputs_canonicalize_to_the_expected_text(
    golden: dict[str, Any], name: str
) -> None:
    case = golden["v2_canonicalization"][name]
    assert canonical_bytes(case["input"]) == case["expected_canonical"].encode("utf-8")


@pytest.mark.parametrize("name", INTEROP_PAYLOADS)
def test_interop_payloads_canonicalize_to_the_expected_text(
    interop: dict[str, Any], name: str
) -> None:
    case = interop["canonicalization"][name]
    assert canonical_bytes(case["input"]) == case["expected_canonical"].encode("utf-8")


@pytest.mark.parametrize("name", EDGE_CASES)
def test_every_edge_case_gives_the_expected_bytes_or_is_rejected(
    interop: dict[str, Any], name: str
) -> None:
    case = _edge_case(interop, name)
    if "input_json" in case:

        def produce() -> bytes:
            return canonical_from_json_text(case["input_json"])
    else:

        def produce() -> bytes:
            return canonical_bytes(case["input"])

    if case.get("expects_error"):
        with pytest.raises(CanonicalizationError) as caught:
            produce()
        assert caught.value.code == "canonical.float"
        assert caught.value.context["path"] == "$.n"
    else:
        assert produce() == case["canonical"].encode("utf-8")


@pytest.mark.parametrize("name", INTEROP_PAYLOADS)
def test_payload_hashes_are_sha256_and_sha3_of_the_canonical_bytes(
    interop: dict[str, Any], name: str
) -> None:
    canonical = canonical_bytes(interop["canonicalization"][name]["input"])
    expected = interop["payload_hashes"][name]
    assert sha256_hex(canonical) == expected["sha256"]
    assert sha3_256_hex(canonical) == expected["sha3_256"]
    assert dual_hash(canonical) == (
        f"sha256:{expected['sha256']}",
        f"sha3-256:{expected['sha3_256']}",
    )


@pytest.mark.parametrize("name", HASH_CASES)
def test_hash_vectors_match(golden: dict[str, Any], name: str) -> None:
    case = golden["hash_vectors"][name]
    digest = sha3_256_hex if name.startswith("sha3_256") else sha256_hex
    assert digest(case["input_utf8"].encode("utf-8")) == case["expected_hex"]


def test_dual_hash_vectors_match_for_the_canonical_intent_and_the_raw_payload(
    golden: dict[str, Any],
) -> None:
    vectors = golden["dual_hash_vectors"]
    for case, text in (
        (vectors["intent_canonical"], vectors["intent_canonical"]["canonical_json"]),
        (vectors["raw_dual_hash"], vectors["raw_dual_hash"]["input_utf8"]),
    ):
        data = text.encode("utf-8")
        assert dual_hash(data) == (f"sha256:{case['sha256']}", f"sha3-256:{case['sha3_256']}")


def test_the_canonical_intent_of_the_dual_hash_vectors_is_already_canonical(
    golden: dict[str, Any],
) -> None:
    text = golden["dual_hash_vectors"]["intent_canonical"]["canonical_json"]
    assert canonical_from_json_text(text) == text.encode("utf-8")
