"""Where a connection records its traffic, and the pause a recorder that writes in the background asks for."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Final, Protocol

from inspector.protocol.wire import WireMessage
from inspector.transports.base import TransportEvent

__all__ = ["BACKLOG_POLL", "Recorder", "backpressure"]

BACKLOG_POLL: Final = 0.005
"""Seconds between looks at a backlogged recorder."""


class Recorder(Protocol):
    """Where the connection records traffic (``inspector.store.recording.Recording``).

    A recorder that writes in the background may also have ``backlogged`` and ``drained`` (bools): while
    it is backlogged the transport stops reading until it has drained.
    """

    def record_message(self, msg: WireMessage) -> None: ...

    def record_transport(self, event: TransportEvent) -> None: ...


def backpressure(recorder: Recorder | None, loop: asyncio.AbstractEventLoop | None) -> Awaitable[None] | None:
    """What the transport awaits before reading on (None: nothing, the recorder keeps up)."""
    if recorder is None or loop is None or not getattr(recorder, "backlogged", False):
        return None
    return _drained(recorder, loop)


async def _drained(recorder: Recorder, loop: asyncio.AbstractEventLoop) -> None:
    # The connection's loop, not asyncio.sleep(): a reader's step may run outside the running loop (the
    # window's last event processing at shutdown).
    while not getattr(recorder, "drained", True):
        pause: asyncio.Future[None] = loop.create_future()
        loop.call_later(BACKLOG_POLL, _resolve, pause)
        await pause


def _resolve(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)
