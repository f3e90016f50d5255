"""The frames a connection hands to its transport: one queue, sent in order by one supervised task at a time."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Coroutine, Iterable
from typing import Any

from inspector.client.errors import describe_exception
from inspector.protocol.wire import WireMessage
from inspector.transports.base import Transport, TransportError

__all__ = ["Writer"]

Spawn = Callable[[Coroutine[Any, Any, None], str], "asyncio.Task[None]"]


class Writer:
    """``spawn`` starts a supervised task of the connection; ``broken`` ends the connection with one line (a
    transport raising what it must not while sending)."""

    def __init__(self, transport: Transport, spawn: Spawn, broken: Callable[[str], None]) -> None:
        self._transport = transport
        self._spawn = spawn
        self._broken = broken
        self._queue: deque[WireMessage] = deque()
        self._task: asyncio.Task[None] | None = None

    def push(self, frames: Iterable[WireMessage], *, start: bool) -> None:
        """Queue ``frames``; with ``start`` (the connection runs), a writer task sends them unless one does."""
        self._queue.extend(frames)
        if self._task is None and start:
            self._task = self._spawn(self._run(), "the connection's writer")

    def take_unsent(self) -> list[WireMessage]:
        """Remove and return the frames queued but not yet handed to the transport."""
        unsent = list(self._queue)
        self._queue.clear()
        return unsent

    async def flush(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds, then cancel it) for the writer task to send what is queued."""
        task = self._task
        if task is not None and not task.done():
            try:
                await asyncio.wait_for(asyncio.shield(task), timeout)
            except (TimeoutError, Exception):  # best effort flush before closing
                task.cancel()

    async def _run(self) -> None:
        try:
            while self._queue:
                wire = self._queue.popleft()
                try:
                    if wire.headers:
                        await self._transport.send(wire.raw, wire.headers)
                    else:
                        await self._transport.send(wire.raw)
                except TransportError:
                    self._queue.clear()
                    return  # the transport reports the close itself (TransportClosed)
                except Exception as exc:  # what a transport must not raise: the connection cannot go on
                    self._queue.clear()
                    what = wire.method or wire.kind.value
                    self._broken(f"the transport failed to send {what}: {describe_exception(exc)}")
                    return
        finally:
            if self._task is asyncio.current_task():
                self._task = None
