"""RFC 6962 Merkle tree hashing, audit paths and consistency proofs (pure functions).

Leaves and interior nodes carry different one-byte prefixes (0x00, 0x01) so a leaf can
never be passed off as a node. A ledger entry's leaf data is the raw SHA-256 digest of
its canonical bytes. Every function here works on hashes only, so a third party can
check a proof offline.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from accord.errors import ValidationError

LEAF_PREFIX = b"\x00"
NODE_PREFIX = b"\x01"
EMPTY_ROOT = hashlib.sha256(b"").digest()

#: Returns the leaf hashes of leaves ``[start, end)``.
LeafHashReader = Callable[[int, int], Sequence[bytes]]

_IN_MEMORY_SPAN = 1 << 16


def leaf_hash(data: bytes) -> bytes:
    """``SHA-256(0x00 || data)``."""
    return hashlib.sha256(LEAF_PREFIX + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """``SHA-256(0x01 || left || right)``."""
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


def _split(size: int) -> int:
    """The largest power of two strictly smaller than ``size`` (size >= 2)."""
    return 1 << ((size - 1).bit_length() - 1)


def root_of(leaf_hashes: Sequence[bytes]) -> bytes:
    """MTH over already-hashed leaves (in memory)."""
    if not leaf_hashes:
        return EMPTY_ROOT
    level = list(leaf_hashes)
    # Pairing bottom-up left to right and promoting a lone last node gives RFC 6962's MTH.
    while len(level) > 1:
        nxt = [node_hash(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return level[0]


class Frontier:
    """The compact state of a growing tree: one perfect-subtree root per set bit of its size.

    Appending a leaf is O(log n) and memory stays O(log n), so a verifier can stream a
    ledger of any length and read the root at any size along the way.
    """

    __slots__ = ("_nodes", "_size")

    def __init__(self, size: int = 0, nodes: Sequence[bytes] = ()) -> None:
        if size < 0 or len(nodes) != bin(size).count("1"):
            raise ValidationError(
                "a frontier needs exactly one node per set bit of its size",
                code="merkle.bad_frontier",
                size=size,
                nodes=len(nodes),
            )
        self._size = size
        # (height, hash) pairs, highest subtree first
        heights = [h for h in range(size.bit_length() - 1, -1, -1) if size >> h & 1]
        self._nodes: list[tuple[int, bytes]] = list(zip(heights, nodes, strict=True))

    @property
    def size(self) -> int:
        return self._size

    def nodes(self) -> list[bytes]:
        """The subtree roots, highest first (what a checkpoint stores)."""
        return [h for _, h in self._nodes]

    def append(self, leaf: bytes) -> None:
        """Add one leaf hash."""
        height, node = 0, leaf
        nodes = self._nodes
        while nodes and nodes[-1][0] == height:
            node = node_hash(nodes.pop()[1], node)
            height += 1
        nodes.append((height, node))
        self._size += 1

    def append_subtree(self, height: int, root: bytes) -> None:
        """Add a perfect subtree of ``2**height`` leaves; the size must be aligned to it."""
        if self._size % (1 << height):
            raise ValidationError(
                "a subtree can only be appended at an aligned size",
                code="merkle.unaligned",
                size=self._size,
                height=height,
            )
        added = 1 << height
        nodes = self._nodes
        node = root
        while nodes and nodes[-1][0] == height:
            node = node_hash(nodes.pop()[1], node)
            height += 1
        nodes.append((height, node))
        self._size += added

    def root(self) -> bytes:
        """The tree head at the current size."""
        if not self._nodes:
            return EMPTY_ROOT
        node = self._nodes[-1][1]
        for _, left in reversed(self._nodes[:-1]):
            node = node_hash(left, node)
        return node

    def copy(self) -> Frontier:
        return Frontier(self._size, self.nodes())


def subtree_root(read: LeafHashReader, start: int, end: int) -> bytes:
    """MTH of leaves ``[start, end)``, reading at most 65,536 leaf hashes at a time."""
    size = end - start
    if size <= 0:
        return EMPTY_ROOT
    if size <= _IN_MEMORY_SPAN:
        return root_of(read(start, end))
    k = _split(size)
    return node_hash(subtree_root(read, start, start + k), subtree_root(read, start + k, end))


def inclusion_path(read: LeafHashReader, index: int, size: int) -> list[bytes]:
    """RFC 6962 §2.1.1 audit path for leaf ``index`` in the tree of ``size`` leaves."""
    if not 0 <= index < size:
        raise ValidationError(
            "leaf index must be inside the tree",
            code="merkle.index_out_of_range",
            index=index,
            size=size,
        )
    path: list[bytes] = []
    start, end = 0, size
    while end - start > 1:
        k = _split(end - start)
        if index < start + k:
            path.append(subtree_root(read, start + k, end))
            end = start + k
        else:
            path.append(subtree_root(read, start, start + k))
            start += k
    path.reverse()
    return path


def root_from_inclusion_path(leaf: bytes, index: int, size: int, path: Sequence[bytes]) -> bytes:
    """Recompute the root an audit path claims (RFC 9162 §2.1.3.2); raises on a malformed path."""
    if not 0 <= index < size:
        raise ValidationError(
            "leaf index must be inside the tree",
            code="merkle.index_out_of_range",
            index=index,
            size=size,
        )
    fn, sn = index, size - 1
    node = leaf
    for sibling in path:
        if sn == 0:
            raise ValidationError("audit path is too long", code="merkle.bad_proof")
        if fn & 1 or fn == sn:
            node = node_hash(sibling, node)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            node = node_hash(node, sibling)
        fn >>= 1
        sn >>= 1
    if sn != 0:
        raise ValidationError("audit path is too short", code="merkle.bad_proof")
    return node


def consistency_path(read: LeafHashReader, old_size: int, new_size: int) -> list[bytes]:
    """RFC 6962 §2.1.2 consistency proof between tree sizes ``old_size`` <= ``new_size``."""
    if not 0 < old_size <= new_size:
        raise ValidationError(
            "consistency needs 0 < old size <= new size",
            code="merkle.bad_sizes",
            old_size=old_size,
            new_size=new_size,
        )
    if old_size == new_size:
        return []
    return _subproof(read, old_size, 0, new_size, True)


def _subproof(read: LeafHashReader, m: int, start: int, end: int, complete: bool) -> list[bytes]:
    n = end - start
    if m == n:
        return [] if complete else [subtree_root(read, start, end)]
    k = _split(n)
    if m <= k:
        proof = _subproof(read, m, start, start + k, complete)
        proof.append(subtree_root(read, start + k, end))
    else:
        proof = _subproof(read, m - k, start + k, end, False)
        proof.append(subtree_root(read, start, start + k))
    return proof


def verify_consistency(
    old_size: int, new_size: int, old_root: bytes, new_root: bytes, proof: Sequence[bytes]
) -> bool:
    """Check a consistency proof (RFC 9162 §2.1.4.2). True when both roots are one history."""
    if not 0 < old_size <= new_size:
        return False
    if old_size == new_size:
        return not proof and old_root == new_root
    if not proof:
        return False
    path = list(proof)
    if old_size & (old_size - 1) == 0:  # a power of two: the old root is itself a node
        path.insert(0, old_root)
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return sn == 0 and fr == old_root and sr == new_root
