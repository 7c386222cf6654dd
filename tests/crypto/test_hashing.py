"""Hashes carry their algorithm as a prefix; content hashes are taken over canonical bytes."""

from __future__ import annotations

import hashlib

import pytest

from accord.crypto import (
    GENESIS,
    CanonicalizationError,
    content_hash,
    dual_hash,
    sha3_256_prefixed,
    sha256_hex,
    sha256_prefixed,
)


def test_the_genesis_predecessor_is_the_literal_word() -> None:
    assert GENESIS == "GENESIS"


def test_prefixed_hashes_name_their_algorithm() -> None:
    assert sha256_prefixed(b"hello") == "sha256:" + hashlib.sha256(b"hello").hexdigest()
    assert sha3_256_prefixed(b"hello") == "sha3-256:" + hashlib.sha3_256(b"hello").hexdigest()


def test_dual_hash_is_the_primary_then_the_secondary_prefixed_hash() -> None:
    assert dual_hash(b"x") == (sha256_prefixed(b"x"), sha3_256_prefixed(b"x"))


def test_content_hash_ignores_key_order() -> None:
    assert content_hash({"a": 1, "b": [1, 2]}) == content_hash({"b": [1, 2], "a": 1})
    assert content_hash({"a": 1}) == "sha256:" + sha256_hex(b'{"a":1}')


def test_content_hash_refuses_values_without_a_canonical_form() -> None:
    with pytest.raises(CanonicalizationError):
        content_hash({"confidence": 0.9})
