"""RFC 6962 tree heads, audit paths and consistency proofs against the spec's own definitions."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord.errors import ValidationError
from accord.ledger.merkle import (
    EMPTY_ROOT,
    Frontier,
    consistency_path,
    inclusion_path,
    leaf_hash,
    node_hash,
    root_from_inclusion_path,
    root_of,
    subtree_root,
    verify_consistency,
)


def reference_mth(leaves: list[bytes]) -> bytes:
    """MTH exactly as RFC 6962 §2.1 defines it (recursive, on leaf hashes)."""
    n = len(leaves)
    if n == 0:
        return hashlib.sha256(b"").digest()
    if n == 1:
        return leaves[0]
    k = 1 << ((n - 1).bit_length() - 1)
    return node_hash(reference_mth(leaves[:k]), reference_mth(leaves[k:]))


def leaves_of(n: int) -> list[bytes]:
    return [leaf_hash(i.to_bytes(4, "big")) for i in range(n)]


def reader(leaves: list[bytes]):  # type: ignore[no-untyped-def]
    return lambda start, end: leaves[start:end]


def test_leaf_and_node_hashes_use_distinct_prefixes() -> None:
    data = b"abc"
    assert leaf_hash(data) == hashlib.sha256(b"\x00abc").digest()
    assert node_hash(b"a", b"b") == hashlib.sha256(b"\x01ab").digest()
    assert leaf_hash(b"ab") != node_hash(b"a", b"b")


def test_the_empty_tree_has_the_hash_of_the_empty_string() -> None:
    assert root_of([]) == EMPTY_ROOT == Frontier().root()


def test_a_known_three_leaf_root_matches_the_rfc_construction() -> None:
    a, b, c = leaves_of(3)
    assert root_of([a, b, c]) == node_hash(node_hash(a, b), c)


@given(st.integers(min_value=0, max_value=300))
def test_every_way_of_computing_a_root_agrees_with_the_rfc_definition(n: int) -> None:
    leaves = leaves_of(n)
    expected = reference_mth(leaves)
    frontier = Frontier()
    for leaf in leaves:
        frontier.append(leaf)
    assert root_of(leaves) == expected
    assert frontier.root() == expected
    assert subtree_root(reader(leaves), 0, n) == expected
    restored = Frontier(frontier.size, frontier.nodes())
    assert restored.root() == expected


@given(st.data())
def test_every_audit_path_leads_to_the_root_and_no_other_leaf_does(data: st.DataObject) -> None:
    n = data.draw(st.integers(min_value=1, max_value=200))
    index = data.draw(st.integers(min_value=0, max_value=n - 1))
    leaves = leaves_of(n)
    root = reference_mth(leaves)
    path = inclusion_path(reader(leaves), index, n)
    assert root_from_inclusion_path(leaves[index], index, n, path) == root
    other = (index + 1) % n
    if other != index:
        assert root_from_inclusion_path(leaves[other], index, n, path) != root


@given(st.data())
def test_consistency_proofs_hold_between_any_two_sizes_and_fail_for_a_rewritten_history(
    data: st.DataObject,
) -> None:
    new = data.draw(st.integers(min_value=1, max_value=150))
    old = data.draw(st.integers(min_value=1, max_value=new))
    leaves = leaves_of(new)
    proof = consistency_path(reader(leaves), old, new)
    old_root, new_root = reference_mth(leaves[:old]), reference_mth(leaves)
    assert verify_consistency(old, new, old_root, new_root, proof)
    forged = list(leaves)
    forged[old - 1] = leaf_hash(b"rewritten")
    assert not verify_consistency(old, new, reference_mth(forged[:old]), new_root, proof)


def test_subtrees_appended_at_aligned_sizes_give_the_same_root_as_leaves() -> None:
    leaves = leaves_of(13)
    frontier = Frontier()
    frontier.append_subtree(3, reference_mth(leaves[:8]))
    frontier.append_subtree(2, reference_mth(leaves[8:12]))
    frontier.append_subtree(0, leaves[12])
    assert frontier.size == 13
    assert frontier.root() == reference_mth(leaves)


def test_an_unaligned_subtree_is_refused() -> None:
    frontier = Frontier()
    frontier.append(leaves_of(1)[0])
    with pytest.raises(ValidationError) as err:
        frontier.append_subtree(1, b"x" * 32)
    assert err.value.code == "merkle.unaligned"


def test_a_frontier_with_the_wrong_number_of_nodes_is_refused() -> None:
    with pytest.raises(ValidationError):
        Frontier(3, [b"x" * 32])


def test_malformed_proofs_and_sizes_are_rejected() -> None:
    leaves = leaves_of(4)
    path = inclusion_path(reader(leaves), 1, 4)
    with pytest.raises(ValidationError):
        root_from_inclusion_path(leaves[1], 1, 4, [*path, b"x" * 32])
    with pytest.raises(ValidationError):
        root_from_inclusion_path(leaves[1], 1, 4, path[:1])
    with pytest.raises(ValidationError):
        root_from_inclusion_path(leaves[1], 4, 4, path)
    with pytest.raises(ValidationError):
        inclusion_path(reader(leaves), 5, 4)
    with pytest.raises(ValidationError):
        consistency_path(reader(leaves), 0, 4)
    assert consistency_path(reader(leaves), 4, 4) == []
    root = reference_mth(leaves)
    assert verify_consistency(4, 4, root, root, [])
    assert not verify_consistency(3, 4, root, root, [])
    assert not verify_consistency(0, 4, root, root, [])


def test_large_ranges_are_read_in_bounded_pieces() -> None:
    calls: list[int] = []
    n = (1 << 16) + 5
    base = leaves_of(8)

    def read(start: int, end: int) -> list[bytes]:
        calls.append(end - start)
        return [base[i % 8] for i in range(start, end)]

    subtree_root(read, 0, n)
    assert max(calls) <= 1 << 16
