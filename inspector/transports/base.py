"""The transport interface: frames out, raw frames and transport events in. Knows nothing of MCP."""

from __future__ import annotations

import abc
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from inspector.protocol.limits import DEFAULT_LIMITS, Limits
from inspector.protocol.versions import Era

__all__ = [
    "MASK",
    "DataReceived",
    "EventSink",
    "FrameReceived",
    "HttpExchange",
    "MessageId",
    "SendFailed",
    "SessionExpired",
    "StderrLine",
    "Transport",
    "TransportClosed",
    "TransportError",
    "TransportEvent",
    "TransportNote",
    "message_of",
]

MessageId = int | str
"""A JSON-RPC id as the transports see it (the same as ``inspector.protocol.wire.RequestId``)."""


def message_of(exc: BaseException) -> str:
    """An exception's message, or its type when the message is empty (a line never ends in "failed: ")."""
    return str(exc).strip() or type(exc).__name__


MASK = "\u2022\u2022\u2022\u2022"
"""What a secret header value is replaced with in every event (four bullets)."""


@dataclass(frozen=True, slots=True)
class DataReceived:
    """Bytes of a byte stream (stdio stdout) that still need newline framing."""

    data: bytes


@dataclass(frozen=True, slots=True)
class FrameReceived:
    """One complete message frame (an HTTP body, one SSE event's data)."""

    data: bytes


@dataclass(frozen=True, slots=True)
class StderrLine:
    """One line the server wrote on stderr (decoded leniently, newline stripped)."""

    line: str


@dataclass(frozen=True, slots=True)
class TransportNote:
    """Something the transport wants in the log that is not a message (e.g. 'process started, pid 123')."""

    message: str


@dataclass(frozen=True, slots=True)
class TransportClosed:
    """The transport is gone; no more events follow."""

    reason: str
    exit_code: int | None = None
    signal: int | None = None
    stderr_tail: tuple[str, ...] = field(default=())
    expected: bool = False
    """True when we closed it ourselves."""

    def describe(self) -> str:
        parts = [self.reason]
        if self.signal is not None:
            parts.append(f"killed by signal {self.signal}")
        elif self.exit_code is not None:
            parts.append(f"exit status {self.exit_code}")
        if self.stderr_tail:
            parts.append(f"last stderr: {self.stderr_tail[-1]}")
        return "; ".join(parts)


class TransportError(Exception):
    """The transport could not start or could not send."""


@dataclass(frozen=True, slots=True)
class HttpExchange:
    """One HTTP request and the response to it (HTTP transports only), with secrets already masked.

    Emitted when the response headers arrive (a JSON body is read first, so the exchange comes before the
    message it carried); an SSE response stream gets a second record when it ends (``note`` says how), with
    the last event id and ``retry`` it saw and the ids of the messages it carried.
    """

    method: str
    url: str
    status: int | None
    """None: no response (the connection failed; ``note`` says why)."""
    request_headers: tuple[tuple[str, str], ...] = ()
    response_headers: tuple[tuple[str, str], ...] = ()
    elapsed: float = 0.0
    """Seconds from sending the request to the response headers (to the end, for a stream-end record)."""
    event_id: str | None = None
    """The last SSE event id seen on this response stream."""
    retry: int | None = None
    """The SSE ``retry`` field (milliseconds) seen on this response stream."""
    note: str = ""
    carried_ids: tuple[MessageId, ...] = ()
    """JSON-RPC ids of the messages this exchange carried (request body and response body)."""

    def describe(self) -> str:
        status = "no response" if self.status is None else str(self.status)
        text = f"{self.method} {self.url} \u2192 {status} ({self.elapsed * 1000:.0f} ms)"
        if self.event_id is not None:
            text += f", last event id {self.event_id}"
        if self.retry is not None:
            text += f", retry {self.retry} ms"
        return f"{text}: {self.note}" if self.note else text

    def to_json(self) -> dict[str, Any]:
        """A JSON-able summary (what a recording stores)."""
        return {
            "method": self.method,
            "url": self.url,
            "status": self.status,
            "elapsed_ms": round(self.elapsed * 1000, 3),
            "request_headers": [list(pair) for pair in self.request_headers],
            "response_headers": [list(pair) for pair in self.response_headers],
            "event_id": self.event_id,
            "retry": self.retry,
            "note": self.note,
            "carried_ids": list(self.carried_ids),
        }


@dataclass(frozen=True, slots=True)
class SessionExpired:
    """The server ended the transport-level session (HTTP 404 for a request carrying its session id).

    The transport has already forgotten the session (id, negotiated version, streams); the next message it
    sends starts a new one, so the connection must run the handshake again. ``unsent`` holds the frames the
    server refused with the 404: it never processed them, so they may safely be sent again in the new session.
    """

    session_id: str
    unsent: tuple[bytes, ...] = ()

    def describe(self) -> str:
        return f"the server ended session {self.session_id} (HTTP 404); a new session is needed"


@dataclass(frozen=True, slots=True)
class SendFailed:
    """A message could not be delivered, or the answer to it can no longer arrive (an HTTP error status, an
    HTML page, a stream that ended early). The transport itself stays usable; ``request_ids`` are the ids of
    the requests that will never be answered (empty for a notification or a response)."""

    message: str
    request_ids: tuple[MessageId, ...] = ()
    error: TransportError | None = field(default=None, compare=False)

    def describe(self) -> str:
        return self.message


TransportEvent = (
    DataReceived
    | FrameReceived
    | StderrLine
    | TransportNote
    | TransportClosed
    | HttpExchange
    | SessionExpired
    | SendFailed
)
EventSink = Callable[[TransportEvent], None]
Backpressure = Callable[[], Awaitable[None] | None]
"""Asked after each chunk read from the server: an awaitable means "wait for it before reading on"."""


class Transport(abc.ABC):
    """One connection to one server. Events go to the sink given to ``start``, in order.

    The era (:meth:`set_era`) says which shape of the transport the connection speaks: ``Era.HANDSHAKE``
    (the default; 2024-11-05..2025-11-25) or ``Era.MODERN`` (2026-07-28: Streamable HTTP is stateless,
    per-message headers, cancellation by closing a request's stream).
    """

    backpressure: Backpressure | None = None
    """Set by the consumer (the connection: its recording's writer is far behind). Transports ask it after
    each chunk they read and wait when told to, so a flooding server is read only as fast as it is taken
    in and blocks on its own output meanwhile."""

    @abc.abstractmethod
    async def start(self, sink: EventSink) -> None:
        """Open the connection (spawn, connect). Raise TransportError when that fails."""

    @abc.abstractmethod
    async def send(self, frame: bytes, headers: Mapping[str, str] | None = None) -> None:
        """Send one JSON-RPC message (without framing; the transport adds it).

        ``headers``: the message's own HTTP headers, computed by the session (``MCP-Protocol-Version``,
        ``Mcp-Method``, ``Mcp-Name``, ``Mcp-Param-*``); Streamable HTTP adds them to that message's POST,
        the other transports ignore them.
        """

    @abc.abstractmethod
    async def close(self) -> None:
        """Close gracefully; must end with a TransportClosed event (expected=True) and be idempotent."""

    @abc.abstractmethod
    def describe(self) -> str:
        """A short human description, e.g. the command line or the URL."""

    _limits: Limits = DEFAULT_LIMITS
    """Set from ``limits=`` by the transports that take it."""

    @property
    def limits(self) -> Limits:
        """The bounds this transport reads the server with (``limits=`` of its constructor)."""
        return self._limits

    def _read_gate(self) -> Awaitable[None] | None:
        """What ``backpressure`` says now (None: read on)."""
        ask = self.backpressure
        return None if ask is None else ask()

    _era: Era = Era.HANDSHAKE
    """What :meth:`set_era` said last (the class default: the handshake era, what every transport did first)."""

    @property
    def era(self) -> Era:
        """The era the connection speaks over this transport (see :meth:`set_era`)."""
        return self._era

    def set_era(self, era: Era) -> None:
        """The connection speaks ``era`` from the next message on.

        Called synchronously before the first request of each connection attempt, and again when the
        connection falls back to the other era on the same transport: switching back restores that era's
        behaviour completely. Default: remember it.
        """
        self._era = era

    @property
    def endpoint(self) -> str | None:
        """What outlives one connection to the server, as a key (the Streamable HTTP URL; None for a process)."""
        return None

    @property
    def carries_headers(self) -> bool:
        """True when per-message headers reach the server (Streamable HTTP): then the 2026-07-28 header rules
        apply (a tool with an invalid ``x-mcp-header`` annotation is dropped; other transports ignore them)."""
        return False

    @property
    def cancels_by_closing(self) -> bool:
        """True when this transport cancels a request by closing its response stream (``abandon``), so the
        connection need not send ``notifications/cancelled`` (Streamable HTTP in the modern era)."""
        return False

    def on_negotiated(self, protocol_version: str) -> None:  # noqa: B027 - an optional hook
        """The handshake settled on ``protocol_version`` (HTTP sends it as a header from now on).

        Called synchronously by the connection as soon as the initialize result is accepted, before
        ``notifications/initialized`` is sent, and again after each re-initialization. Default: nothing.
        """

    def abandon(self, request_ids: Collection[MessageId]) -> None:  # noqa: B027 - an optional hook
        """The requests ``request_ids`` ended without an answer (timed out, or cancelled by the client).

        Called synchronously by the connection once it failed them. A transport stops whatever it still does
        for them only (an HTTP transport stops resuming their response streams and cancels its waits) and
        emits nothing more about them (in the modern era Streamable HTTP closes their HTTP exchanges, which
        cancels them on the server, and records that close as an ``HttpExchange``). Default: nothing.
        """
