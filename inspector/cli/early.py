"""Start the server process before the engine is imported, so that both boot at the same time.

Importing the session engine (pydantic models of every protocol version) takes a noticeable
fraction of a second, and so does starting a typical server. :class:`EarlyTransport` spawns the
server first and buffers its events until the connection, created after the import, starts it.
"""

from __future__ import annotations

from inspector.transports.base import EventSink, Transport, TransportError, TransportEvent
from inspector.transports.forwarding import ForwardingTransport

__all__ = ["EarlyTransport"]


class EarlyTransport(ForwardingTransport):
    """Wraps a transport: ``prestart()`` opens it now; ``start(sink)`` replays what arrived meanwhile."""

    def __init__(self, inner: Transport) -> None:
        self._inner: Transport = inner
        self._buffer: list[TransportEvent] = []
        self._sink: EventSink | None = None
        self._error: TransportError | None = None
        self._prestarted = False

    async def prestart(self) -> None:
        """Open the inner transport; a failure is kept and raised by ``start`` (where the client expects it)."""
        if self._prestarted:
            return
        self._prestarted = True
        try:
            await self._inner.start(self._on_event)
        except TransportError as exc:
            self._error = exc

    def _on_event(self, event: TransportEvent) -> None:
        if self._sink is None:
            self._buffer.append(event)
        else:
            self._sink(event)

    async def start(self, sink: EventSink) -> None:
        if self._sink is not None:
            raise TransportError("transport already started")
        await self.prestart()
        if self._error is not None:
            raise self._error
        buffered, self._buffer = self._buffer, []
        self._sink = sink
        for event in buffered:
            sink(event)

    async def close(self) -> None:
        await self._inner.close()

    def describe(self) -> str:
        return self._inner.describe()
