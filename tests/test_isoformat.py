"""Signed records carry instants as UTC with microseconds and a ``Z``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from accord.clock import isoformat


def test_a_utc_instant_renders_with_microseconds_and_z() -> None:
    assert isoformat(datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=UTC)) == "2026-01-02T03:04:05.000006Z"


def test_a_whole_second_still_shows_six_fraction_digits() -> None:
    assert isoformat(datetime(2026, 1, 2, tzinfo=UTC)) == "2026-01-02T00:00:00.000000Z"


def test_an_instant_in_another_zone_is_converted_to_utc() -> None:
    plus_three = timezone(timedelta(hours=3))
    moment = datetime(2026, 1, 2, 3, 0, 0, 500, tzinfo=plus_three)
    assert isoformat(moment) == "2026-01-02T00:00:00.000500Z"


def test_years_before_1000_keep_four_digits() -> None:
    # strftime("%Y") printed "999" here on Linux; ISO 8601 (and every DCP SDK) expects "0999"
    assert isoformat(datetime(999, 1, 2, tzinfo=UTC)) == "0999-01-02T00:00:00.000000Z"
