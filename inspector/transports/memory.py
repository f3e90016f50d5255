"""A transport to a server running in this process: frames pass through memory, not a pipe or a socket.

``MemoryTransport(serve)`` runs ``serve(pipe)`` as a task of the current event loop when it starts; ``pipe`` is
the server's end (a :class:`MemoryPipe`): ``await pipe.receive()`` gives the next frame the client sent (None
once the client closed), ``await pipe.send(frame)`` hands one frame to the client, ``pipe.stderr(line)`` is a
line of the server's stderr (a ``StderrLine`` for the client). Nothing here knows which
server it is (the bundled demo's side is ``inspector.demo.in_memory``). Used by tests about the window, which
then need no subprocess; the server behaves as over stdio, one fresh server per start.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from collections.abc import Awaitable, Callable, Mapping
from typing import Final

from inspector.protocol.limits import DEFAULT_LIMITS, Limits
from inspector.transports.base import (
    EventSink,
    FrameReceived,
    StderrLine,
    Transport,
    TransportClosed,
    TransportError,
    TransportNote,
    message_of,
)

__all__ = ["CLOSE_TIMEOUT", "MemoryPipe", "MemoryTransport", "ServeFunction"]

CLOSE_TIMEOUT: Final = 5.0
"""Seconds a server may take to finish once its input ended, before its task is cancelled."""

_OUT_BUFFER: Final = 1
"""Frames the server may have sent that the client has not taken yet (as a pipe's buffer: then it waits)."""


class MemoryPipe:
    """The server's end of a :class:`MemoryTransport`."""

    def __init__(self) -> None:
        self._inbox: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._outbox: asyncio.Queue[bytes | None] = asyncio.Queue(_OUT_BUFFER)
        self._client_closed = False
        self._gone = False
        self._on_stderr: Callable[[str], None] | None = None

    async def receive(self) -> bytes | None:
        """The next frame from the client; None once the client closed (then always None)."""
        if self._client_closed:
            return None
        frame = await self._inbox.get()
        if frame is None:
            self._client_closed = True
        return frame

    async def send(self, frame: bytes) -> None:
        """Hand one frame to the client; waits while the client is not reading (backpressure).

        Once the transport is gone, frames are dropped (as a pipe nobody reads any more)."""
        if self._gone:
            return
        await self._outbox.put(frame)

    def stderr(self, line: str) -> None:
        """One line the server writes on its stderr (dropped once the transport is gone)."""
        if not self._gone and self._on_stderr is not None:
            self._on_stderr(line)


ServeFunction = Callable[[MemoryPipe], Awaitable[None]]
"""Serves one connection over ``pipe`` and returns when it is over (normally: ``receive`` said None)."""


class MemoryTransport(Transport):
    """Runs ``serve`` in this event loop (in a context of its own, as a process would be) and talks to it."""

    def __init__(
        self,
        serve: ServeFunction,
        *,
        label: str = "in-memory server",
        limits: Limits = DEFAULT_LIMITS,
        close_timeout: float = CLOSE_TIMEOUT,
    ) -> None:
        self._serve = serve
        self._label = label
        self._limits = limits
        self._close_timeout = close_timeout
        self._pipe: MemoryPipe | None = None
        self._sink: EventSink | None = None
        self._server: asyncio.Task[None] | None = None
        self._reader: asyncio.Task[None] | None = None
        self._closing = False
        self._closed = False
        self._end_reason = "the server ended the connection"

    def describe(self) -> str:
        return self._label

    @property
    def is_running(self) -> bool:
        """True while the server's task runs (started and not ended)."""
        return self._server is not None and not self._server.done()

    async def start(self, sink: EventSink) -> None:
        if self._sink is not None or self._closed:
            raise TransportError("transport already started")
        self._sink = sink
        self._pipe = pipe = MemoryPipe()
        loop = asyncio.get_running_loop()
        client_context = contextvars.copy_context()

        def on_stderr(line: str) -> None:  # emitted from the client's side, as the frames are
            loop.call_soon(self._emit_stderr, line, context=client_context)

        pipe._on_stderr = on_stderr
        # a fresh context: the server sees none of the client's context variables, nor the client the server's
        self._server = loop.create_task(self._run(pipe), context=contextvars.Context())
        self._reader = loop.create_task(self._read(pipe))
        sink(TransportNote(f"started {self._label} in this process"))

    async def _run(self, pipe: MemoryPipe) -> None:
        reason = "the server ended the connection"
        try:
            await self._serve(pipe)
        except Exception as exc:  # the server's own failure ends the connection, as a crashed process would
            reason = f"the server failed: {message_of(exc)}"
        self._end_reason = reason
        await pipe._outbox.put(None)  # after its last frame: the reader ends the transport there

    async def _read(self, pipe: MemoryPipe) -> None:
        while True:
            frame = await pipe._outbox.get()
            if self._closed or self._sink is None:
                return
            if frame is None:
                if not self._closing:
                    self._finish(self._end_reason)
                return
            if len(frame) > self._limits.message_bytes:
                self._finish(f"a message of {len(frame)} bytes is over the limit of {self._limits.message_bytes}")
                return
            self._sink(FrameReceived(frame))
            gate = self._read_gate()
            if gate is not None:
                await gate

    def _emit_stderr(self, line: str) -> None:
        if not self._closed and self._sink is not None:
            self._sink(StderrLine(line.rstrip("\r\n")))

    def _finish(self, reason: str, *, expected: bool = False) -> None:
        """Emit the one TransportClosed and stop the server and the reader."""
        if self._closed:
            return
        self._closed = True
        if self._pipe is not None:
            self._pipe._client_closed = self._pipe._gone = True
        for task in (self._reader, self._server):
            if task is not None and task is not asyncio.current_task() and not task.done():
                task.cancel()
        if self._sink is not None:
            self._sink(TransportClosed(reason, expected=expected))

    async def send(self, frame: bytes, headers: Mapping[str, str] | None = None) -> None:
        if self._pipe is None:
            raise TransportError("transport not started")
        if self._closed or self._closing or not self.is_running:
            raise TransportError("the in-memory server is not running")
        self._pipe._inbox.put_nowait(bytes(frame))

    async def close(self) -> None:
        if self._closed:
            return
        if self._sink is None:  # never started
            self._closed = True
            return
        self._closing = True
        server, pipe = self._server, self._pipe
        if pipe is not None:
            pipe._inbox.put_nowait(None)
        if server is not None and not server.done():
            # the end of its input ends the server; it may still answer meanwhile, and its answers still arrive
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(server), self._close_timeout)
        self._finish("closed", expected=True)
        for task in (server, self._reader):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
