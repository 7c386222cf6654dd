"""Record ids are prefixed UUIDv7s whose time comes from the caller (the injected clock)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord.ids import RandomIds, SeededIds, new_hex_id, new_id, uuid7

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


def test_seeded_ids_repeat_call_for_call_from_the_same_seed() -> None:
    first, again = SeededIds(b"s" * 32), SeededIds(b"s" * 32)
    made = [first.new_id("prop", _AT), first.new_id("res", _AT)]
    assert [again.new_id("prop", _AT), again.new_id("res", _AT)] == made
    assert made[0] != made[1]
    assert uuid.UUID(made[0].partition(":")[2]).version == 7


def test_seeded_ids_differ_between_seeds_and_keep_their_time() -> None:
    one, other = SeededIds(b"a" * 32).new_id("prop", _AT), SeededIds(b"b" * 32).new_id("prop", _AT)
    assert one != other
    assert one[:18] == other[:18] == new_id("prop", _AT)[:18]


def test_a_short_seed_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 16 bytes"):
        SeededIds(b"short")


def test_random_ids_are_the_default_new_id() -> None:
    made = RandomIds().new_id("prop", _AT)
    assert made.startswith("prop:")
    assert made != RandomIds().new_id("prop", _AT)
