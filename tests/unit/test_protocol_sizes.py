"""The one size formatter (IEC units) and parser."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from inspector.protocol.sizes import GiB, KiB, MiB, format_size, parse_size


@pytest.mark.parametrize(
    ("size", "text"),
    [
        (0, "0 B"),
        (1, "1 B"),
        (1023, "1023 B"),
        (1024, "1 KiB"),
        (1536, "1.5 KiB"),
        (1500, "1.46 KiB"),
        (150 * KiB, "150 KiB"),
        (5 * MiB, "5 MiB"),
        (256 * MiB, "256 MiB"),
        (MiB + 1, "1 MiB"),
        (3 * GiB // 2, "1.5 GiB"),
        (4096 * GiB, "4096 GiB"),
    ],
)
def test_format_size(size: int, text: str) -> None:
    assert format_size(size) == text


@given(st.integers(min_value=0, max_value=1023), st.sampled_from([1, KiB, MiB, GiB]))
def test_whole_units_read_back_exactly(count: int, unit: int) -> None:
    assert parse_size(format_size(count * unit)) == count * unit


@given(st.integers(min_value=0, max_value=1 << 44))
def test_shown_within_rounding(size: int) -> None:
    value, _, unit = format_size(size).partition(" ")
    factor = {"B": 1, "KiB": KiB, "MiB": MiB, "GiB": GiB}[unit]
    # Half a unit in the last shown digit, plus float slack (15.625 KiB shows as 15.62: exactly on the edge).
    assert abs(float(value) * factor - size) <= factor * 0.005 * (1 + 1e-9)
