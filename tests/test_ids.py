"""Record ids are prefixed UUIDv7s whose time comes from the caller (the injected clock)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from accord.ids import new_hex_id, new_id, uuid7

_AT = datetime(2026, 11, 30, 1, 2, 3, 456789, tzinfo=UTC)


def test_an_id_is_the_prefix_and_an_rfc_9562_version_7_uuid() -> None:
    prefix, _, rest = new_id("disp", _AT).partition(":")
    parsed = uuid.UUID(rest)
    assert prefix == "disp"
    assert str(parsed) == rest
    assert parsed.version == 7
    assert parsed.variant == uuid.RFC_4122


def test_the_first_48_bits_are_the_given_time_in_unix_milliseconds() -> None:
    assert int(uuid7(_AT).replace("-", "")[:12], 16) == int(_AT.timestamp() * 1000)


@given(st.lists(st.integers(min_value=0, max_value=10**9), min_size=2, max_size=20, unique=True))
def test_ids_from_later_milliseconds_sort_after_earlier_ones(offsets: list[int]) -> None:
    times = sorted(_AT + timedelta(milliseconds=ms) for ms in offsets)
    ids = [uuid7(t) for t in times]
    assert ids == sorted(ids)


def test_ids_from_one_frozen_instant_are_still_unique() -> None:
    assert len({new_id("dis", _AT) for _ in range(20_000)}) == 20_000


def test_a_time_in_another_zone_names_the_same_instant() -> None:
    elsewhere = _AT.astimezone(datetime.now(UTC).astimezone().tzinfo)
    assert uuid7(elsewhere)[:13] == uuid7(_AT)[:13]


def test_the_hex_form_is_32_lowercase_hex_digits() -> None:
    prefix, _, rest = new_hex_id("bnd", _AT).partition(":")
    assert prefix == "bnd"
    assert len(rest) == 32
    assert uuid.UUID(hex=rest).version == 7


def test_a_naive_time_is_read_as_local_time_like_isoformat_reads_it() -> None:
    naive = datetime(2026, 11, 30, 1, 2, 3)
    assert uuid7(naive)[:13] == uuid7(naive.astimezone(UTC))[:13]
