"""Categorical answers as integer-coded arrays: the input of every vote and of Dawid–Skene."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from accord.errors import ValidationError

IndexArray = NDArray[np.intp]


def _codes(names: Sequence[str], table: dict[str, int]) -> IndexArray:
    return np.fromiter((table[name] for name in names), dtype=np.intp, count=len(names))


def _read_only(array: IndexArray) -> IndexArray:
    array.setflags(write=False)
    return array


@dataclass(frozen=True, eq=False)
class LabelMatrix:
    """Who answered what on which item, one row per answer.

    ``items``, ``workers`` and ``classes`` name the integer codes used by ``item_idx``,
    ``worker_idx`` and ``label_idx``; items and workers are sorted by name so that the
    codes do not depend on the order answers arrive in. The arrays are read-only.
    """

    items: tuple[str, ...]
    workers: tuple[str, ...]
    classes: tuple[str, ...]
    item_idx: IndexArray
    worker_idx: IndexArray
    label_idx: IndexArray

    def __post_init__(self) -> None:
        sizes = {len(self.item_idx), len(self.worker_idx), len(self.label_idx)}
        if len(sizes) != 1:
            raise ValidationError("item_idx, worker_idx and label_idx differ in length")
        for field, names in (("items", self.items), ("workers", self.workers)):
            if len(set(names)) != len(names):
                raise ValidationError(f"{field} holds a duplicate name", field=field)
        if len(set(self.classes)) != len(self.classes):
            raise ValidationError("classes holds a duplicate name", field="classes")
        for field, codes, bound in (
            ("item_idx", self.item_idx, len(self.items)),
            ("worker_idx", self.worker_idx, len(self.workers)),
            ("label_idx", self.label_idx, len(self.classes)),
        ):
            if codes.size and (int(codes.min()) < 0 or int(codes.max()) >= bound):
                raise ValidationError(f"{field} holds a code out of range", field=field)
            _read_only(codes)

    @classmethod
    def from_triples(
        cls,
        triples: Iterable[tuple[str, str, str]],
        *,
        classes: Sequence[str] | None = None,
    ) -> LabelMatrix:
        """Encode ``(item, worker, label)`` answers; a repeated (item, worker) keeps the last.

        Classes are sorted by name unless ``classes`` fixes their order (and may then
        include classes nobody chose); a label outside ``classes`` is a ``ValidationError``.
        """
        latest: dict[tuple[str, str], str] = {}
        for item, worker, label in triples:
            latest.pop((item, worker), None)
            latest[(item, worker)] = label
        labels = list(latest.values())
        if classes is None:
            class_names = tuple(sorted(set(labels)))
        else:
            class_names = tuple(classes)
            unknown = set(labels) - set(class_names)
            if unknown:
                raise ValidationError(
                    f"labels outside the declared classes: {sorted(unknown)}", field="classes"
                )
        items = tuple(sorted({item for item, _ in latest}))
        workers = tuple(sorted({worker for _, worker in latest}))
        item_table = {name: code for code, name in enumerate(items)}
        worker_table = {name: code for code, name in enumerate(workers)}
        class_table = {name: code for code, name in enumerate(class_names)}
        return cls(
            items=items,
            workers=workers,
            classes=class_names,
            item_idx=_codes([item for item, _ in latest], item_table),
            worker_idx=_codes([worker for _, worker in latest], worker_table),
            label_idx=_codes(labels, class_table),
        )

    @property
    def n_items(self) -> int:
        """Number of distinct items."""
        return len(self.items)

    @property
    def n_workers(self) -> int:
        """Number of distinct workers."""
        return len(self.workers)

    @property
    def n_classes(self) -> int:
        """Number of classes (K)."""
        return len(self.classes)

    @property
    def n_answers(self) -> int:
        """Number of answers (rows)."""
        return len(self.item_idx)

    def answer_counts(self) -> NDArray[np.int64]:
        """Votes per item and class, shape ``(n_items, n_classes)``."""
        k = self.n_classes
        flat = np.bincount(self.item_idx * k + self.label_idx, minlength=self.n_items * k)
        return flat.reshape(self.n_items, k).astype(np.int64)

    def triples(self) -> Iterator[tuple[str, str, str]]:
        """The answers back as ``(item, worker, label)`` names."""
        for i, w, c in zip(self.item_idx, self.worker_idx, self.label_idx, strict=True):
            yield self.items[i], self.workers[w], self.classes[c]
