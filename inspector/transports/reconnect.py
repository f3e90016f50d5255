"""The reconnection budget of the HTTP transports: the backoff schedule and the per-minute window (sans-I/O).

A stream that breaks is resumed (a POST's response stream: ``GET`` + ``Last-Event-ID``) or re-opened (the
listening ``GET`` stream) after a wait that starts at the server's ``retry`` but never below
``reconnect_floor_ms``, doubles with each attempt, is capped at ``reconnect_cap_ms`` and carries a little
jitter (:func:`backoff_delay`). Attempts are counted per stream (``reconnects_per_request``: a request's
response stream, or the listening stream in a row) and per connection in any 60 seconds
(``reconnects_per_minute``, :class:`ReconnectWindow`, shared by every stream of a transport); the count of a
stream starts again only when a stream delivered a JSON-RPC message (an empty or priming event is no
progress). When either is used up the stream is given up with one line saying which budget and its figures.
"""

from __future__ import annotations

from collections import deque
from typing import Final

__all__ = ["JITTER", "WINDOW_SECONDS", "ReconnectWindow", "backoff_delay", "nominal_delay_ms"]

JITTER: Final = 0.25
"""A wait is its nominal value plus up to this fraction of it (still capped)."""
WINDOW_SECONDS: Final = 60.0


def nominal_delay_ms(attempt: int, retry_ms: float, floor_ms: float, cap_ms: float) -> float:
    """The wait before attempt ``attempt`` (1: the first reconnection) without jitter, in milliseconds:
    ``max(retry, floor)`` doubled for each attempt after the first, then capped (a cap below the floor is
    raised to it)."""
    floor = max(0.0, floor_ms)
    cap = max(floor, cap_ms)
    base = min(cap, max(floor, retry_ms))
    exponent = min(max(0, attempt - 1), 64)  # 2**64 times anything positive is past any cap
    return min(cap, base * 2.0**exponent)


def backoff_delay(attempt: int, retry_ms: float, floor_ms: float, cap_ms: float, jitter: float) -> float:
    """The wait before attempt ``attempt``, in seconds. ``jitter`` is a random number in [0, 1).

    Always at least ``floor_ms`` and the nominal delay (so never less than the server's ``retry``, unless
    that is above the cap), and at most ``cap_ms`` (or the floor, when the cap is below it).
    """
    nominal = nominal_delay_ms(attempt, retry_ms, floor_ms, cap_ms)
    ceiling = max(max(0.0, floor_ms), cap_ms)
    spread = min(max(0.0, jitter), 1.0) * JITTER * nominal
    return min(ceiling, nominal + spread) / 1000.0


class ReconnectWindow:
    """Reconnection attempts of one connection in the last 60 seconds (a sliding window)."""

    def __init__(self, per_minute: int, window: float = WINDOW_SECONDS) -> None:
        self.per_minute = max(0, per_minute)
        self.window = window
        self._times: deque[float] = deque()

    def used(self, now: float) -> int:
        """Attempts in the window ending at ``now``."""
        while self._times and self._times[0] <= now - self.window:
            self._times.popleft()
        return len(self._times)

    def take(self, now: float) -> bool:
        """Count one attempt at ``now`` if the window has room; False (nothing counted) when it has none."""
        if self.used(now) >= self.per_minute:
            return False
        self._times.append(now)
        return True
