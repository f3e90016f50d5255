"""One timer armed for the nearest deadline of a connection's session (re-armed as deadlines change)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

__all__ = ["DeadlineTimer"]


class DeadlineTimer:
    """Calls ``on_fire`` at the deadline last armed for (a ``time.monotonic`` instant)."""

    def __init__(self, on_fire: Callable[[], None]) -> None:
        self._on_fire = on_fire
        self._handle: asyncio.TimerHandle | None = None
        self._at: float | None = None

    def arm(self, loop: asyncio.AbstractEventLoop, deadline: float | None) -> None:
        """Wake up at ``deadline`` (None: no deadline, no timer); an earlier wake-up already armed stays (it
        re-arms when it fires)."""
        if deadline is None:
            self.cancel()
            return
        if self._handle is not None and self._at is not None and self._at <= deadline:
            return
        if self._handle is not None:
            self._handle.cancel()
        self._at = deadline
        self._handle = loop.call_later(max(0.0, deadline - time.monotonic()), self._fire)

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
        self._handle = self._at = None

    def _fire(self) -> None:
        self._handle = self._at = None
        self._on_fire()
