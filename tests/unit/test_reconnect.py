"""The reconnection budget's pure parts: the backoff schedule (floor, doubling, cap, jitter) and the window."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from inspector.transports.reconnect import JITTER, ReconnectWindow, backoff_delay, nominal_delay_ms


def test_schedule_starts_at_the_floor_for_retry_zero_and_doubles_up_to_the_cap() -> None:
    waits = [nominal_delay_ms(n, 0, 250, 30_000) for n in range(1, 10)]
    assert waits == [250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]


def test_schedule_starts_at_the_servers_retry_above_the_floor() -> None:
    assert [nominal_delay_ms(n, 3000, 250, 10_000) for n in (1, 2, 3)] == [3000, 6000, 10000]
    assert nominal_delay_ms(1, 60_000, 250, 30_000) == 30_000  # a retry above the cap is capped


def test_a_cap_below_the_floor_is_raised_to_it() -> None:
    assert backoff_delay(5, 0, 500, 100, 0.99) == pytest.approx(0.5)


def test_jitter_adds_at_most_a_quarter() -> None:
    assert backoff_delay(1, 0, 250, 30_000, 0.0) == pytest.approx(0.25)
    assert backoff_delay(1, 0, 250, 30_000, 0.999999) == pytest.approx(0.25 * (1 + JITTER), rel=1e-5)
    assert backoff_delay(20, 0, 250, 30_000, 0.999999) == pytest.approx(30.0)  # capped, jitter or not


@given(
    attempt=st.integers(min_value=-3, max_value=10_000),
    retry=st.floats(min_value=0, max_value=1e9, allow_nan=False),
    floor=st.integers(min_value=0, max_value=100_000),
    cap=st.integers(min_value=0, max_value=10_000_000),
    jitter=st.floats(min_value=0, max_value=1, exclude_max=True),
)
def test_delay_bounds(attempt: int, retry: float, floor: int, cap: int, jitter: float) -> None:
    delay = backoff_delay(attempt, retry, floor, cap, jitter) * 1000
    nominal = nominal_delay_ms(attempt, retry, floor, cap)
    ceiling = max(floor, cap)
    tolerance = 1e-6 * max(1.0, ceiling)
    assert floor - tolerance <= delay <= ceiling + tolerance
    assert nominal - tolerance <= delay <= nominal * (1 + JITTER) + tolerance
    assert delay >= min(retry, ceiling) - tolerance  # never sooner than the server asked (unless over the cap)


@given(
    attempt=st.integers(min_value=1, max_value=200),
    retry=st.floats(min_value=0, max_value=1e6, allow_nan=False),
    floor=st.integers(min_value=0, max_value=10_000),
    cap=st.integers(min_value=0, max_value=1_000_000),
)
def test_nominal_delay_never_shrinks(attempt: int, retry: float, floor: int, cap: int) -> None:
    assert nominal_delay_ms(attempt + 1, retry, floor, cap) >= nominal_delay_ms(attempt, retry, floor, cap)


def test_window_slides() -> None:
    window = ReconnectWindow(3)
    assert [window.take(t) for t in (0.0, 1.0, 2.0, 3.0)] == [True, True, True, False]
    assert window.used(3.0) == 3
    assert window.take(60.0)  # the attempt at 0 s left the window
    assert not window.take(60.5)
    assert window.used(200.0) == 0


def test_a_window_of_zero_allows_nothing() -> None:
    window = ReconnectWindow(0)
    assert not window.take(0.0)
    assert window.used(0.0) == 0
