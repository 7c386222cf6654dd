"""The negotiation sub-room's public names: all exist, listed once and sorted."""

from __future__ import annotations

import accord.dcp07.negotiation as room


def test_every_exported_name_exists_once_in_sorted_order() -> None:
    assert all(hasattr(room, name) for name in room.__all__)
    assert len(set(room.__all__)) == len(room.__all__)
    assert list(room.__all__) == sorted(room.__all__, key=lambda n: (not n.isupper(), n))
