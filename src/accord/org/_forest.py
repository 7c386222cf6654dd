"""Parent-pointer forests: cycle finding, depths, ancestors and lowest common ancestors.

Both the management hierarchy and the department tree are forests of names, each name
pointing at its parent (or None for a root). Every walk is iterative, so a chain ten
thousand deep costs time in proportion to its depth and never hits the recursion limit.
"""

from __future__ import annotations

from collections.abc import Mapping


def find_cycle(parents: Mapping[str, str | None]) -> tuple[str, ...] | None:
    """A cycle of parent links, or None.

    Of all cycles, the one whose earliest member (in the mapping's order) comes first is
    returned, starting at that member and following parent links: ``(a, b, c)`` means
    a's parent is b, b's is c and c's is a. Parents missing from the mapping end a walk.
    """
    order = {node: position for position, node in enumerate(parents)}
    finished: set[str] = set()
    best: tuple[str, ...] | None = None
    for start in parents:
        if start in finished:
            continue
        path: list[str] = []
        on_path: dict[str, int] = {}
        node: str | None = start
        while node is not None and node in order and node not in finished:
            if node in on_path:
                cycle = path[on_path[node] :]
                first = min(range(len(cycle)), key=lambda i: order[cycle[i]])
                rotated = tuple(cycle[first:] + cycle[:first])
                if best is None or order[rotated[0]] < order[best[0]]:
                    best = rotated
                break
            on_path[node] = len(path)
            path.append(node)
            node = parents[node]
        finished.update(path)
    return best


class Forest:
    """An acyclic parent map with precomputed depths; every query costs O(depth).

    The caller guarantees every parent is a node and there is no cycle (see ``find_cycle``).
    """

    __slots__ = ("_depths", "_parents")

    def __init__(self, parents: Mapping[str, str | None]) -> None:
        self._parents: dict[str, str | None] = dict(parents)
        self._depths: dict[str, int] = {}
        for start in self._parents:
            pending: list[str] = []
            node: str | None = start
            while node is not None and node not in self._depths:
                pending.append(node)
                node = self._parents[node]
            depth = -1 if node is None else self._depths[node]
            for waiting in reversed(pending):
                depth += 1
                self._depths[waiting] = depth

    def depth(self, node: str) -> int:
        """0 for a root, 1 for its children, and so on."""
        return self._depths[node]

    def ancestors(self, node: str) -> tuple[str, ...]:
        """The node's strict ancestors, nearest first."""
        found: list[str] = []
        current = self._parents[node]
        while current is not None:
            found.append(current)
            current = self._parents[current]
        return tuple(found)

    def is_strict_ancestor(self, ancestor: str, node: str) -> bool:
        """True when ``ancestor`` lies strictly above ``node``."""
        target = self._depths[ancestor]
        current: str | None = node
        while current is not None and self._depths[current] > target:
            current = self._parents[current]
        return current == ancestor and ancestor != node

    def lowest_common_ancestor(self, a: str, b: str) -> str | None:
        """The deepest node that is an ancestor-or-self of both, None in different trees."""
        left: str | None = a
        right: str | None = b
        while left is not None and right is not None and self._depths[left] > self._depths[right]:
            left = self._parents[left]
        while left is not None and right is not None and self._depths[right] > self._depths[left]:
            right = self._parents[right]
        while left != right and left is not None and right is not None:
            left = self._parents[left]
            right = self._parents[right]
        return left if left == right else None

    def branch(self, node: str) -> str:
        """The node's ancestor-or-self just below its root; a root is its own branch."""
        current = node
        while True:
            parent = self._parents[current]
            if parent is None or self._parents[parent] is None:
                return current
            current = parent
