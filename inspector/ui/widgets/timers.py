"""The single-shot timer every view uses to coalesce bursts (of keystrokes, frames, lines) into one update."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

__all__ = ["coalescer"]


def coalescer(parent: QObject, interval_ms: int, slot: Callable[[], object]) -> QTimer:
    """A single-shot timer owned by ``parent`` that calls ``slot`` ``interval_ms`` after it is (re)started.

    ``start()`` restarts the wait (debounce); start it only when it is not active to flush at most every
    ``interval_ms`` instead (throttle). The timer dies with its parent, so the slot never runs on a deleted view.
    """
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setInterval(interval_ms)
    timer.timeout.connect(slot)
    return timer
