"""The reconnection budget of one Streamable HTTP transport, as its streams spend it.

The figures come from ``limits`` (or the transport's ``max_reconnects`` and ``default_retry``); the schedule and
the per-minute window are :mod:`inspector.transports.reconnect`'s. :class:`ReconnectBudget` says how long to
wait before an attempt, whether a stream's attempts or the transport's minute are used up, and the one line
that says which budget was spent.
"""

from __future__ import annotations

import random

from inspector.protocol.limits import Limits
from inspector.transports.reconnect import WINDOW_SECONDS, ReconnectWindow, backoff_delay

__all__ = ["ReconnectBudget"]


class ReconnectBudget:
    """Attempts per stream without progress, attempts per minute of the whole transport, and the waits."""

    def __init__(self, limits: Limits, *, max_reconnects: int | None, default_retry: float) -> None:
        """``max_reconnects``: attempts to resume a stream without progress (None: ``limits.reconnects_per_request``);
        ``default_retry``: seconds the backoff starts at when the server sent no ``retry``."""
        self._limits = limits
        if max_reconnects is None:
            self.per_stream = max(0, limits.reconnects_per_request)
            self._per_stream_shown = limits.show("reconnects_per_request")
        else:
            self.per_stream = max(0, max_reconnects)
            self._per_stream_shown = f"max_reconnects = {self.per_stream}"
        self._default_retry = max(0.0, default_retry)
        self._window = ReconnectWindow(limits.reconnects_per_minute)
        """Reconnections of every stream of the transport in the last minute."""

    def delay(self, attempt: int, retry: int | None) -> float:
        """Seconds to wait before reconnection ``attempt`` (1: the first since the last progress); ``retry``: the
        server's, in milliseconds."""
        limits = self._limits
        start = retry if retry is not None else self._default_retry * 1000
        return backoff_delay(attempt, start, limits.reconnect_floor_ms, limits.reconnect_cap_ms, random.random())

    def take(self, now: float) -> str | None:
        """Count one attempt of the transport at ``now``: None, or (nothing counted) the line saying the
        minute's budget is spent."""
        if self._window.take(now):
            return None
        return (
            f"gave up reconnecting: {self._window.used(now)} reconnections on this connection in the last"
            f" {WINDOW_SECONDS:g} s (limit {self._limits.show('reconnects_per_minute')})"
        )

    def per_stream_spent(self, attempts: int, *, listening: bool, progressed: bool) -> str:
        """The line saying a stream used up its attempts (``listening``: the stream for server-initiated
        messages; ``progressed``: it delivered a message before)."""
        shown = self._per_stream_shown
        if listening:
            return (
                f"gave up re-opening the stream for server-initiated messages: {attempts} attempts in a row"
                f" without a message (limit {shown})"
            )
        in_a_row = " in a row without a message" if progressed else ""
        return f"gave up resuming the response stream: {attempts} attempts for this request{in_a_row} (limit {shown})"
