"""The transport interface: frames out, raw frames and transport events in. Knows nothing of MCP."""

from __future__ import annotations

import abc
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = [
    "DataReceived",
    "EventSink",
    "FrameReceived",
    "StderrLine",
    "Transport",
    "TransportClosed",
    "TransportError",
    "TransportEvent",
    "TransportNote",
]


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


TransportEvent = DataReceived | FrameReceived | StderrLine | TransportNote | TransportClosed
EventSink = Callable[[TransportEvent], None]


class TransportError(Exception):
    """The transport could not start or could not send."""


class Transport(abc.ABC):
    """One connection to one server. Events go to the sink given to ``start``, in order."""

    @abc.abstractmethod
    async def start(self, sink: EventSink) -> None:
        """Open the connection (spawn, connect). Raise TransportError when that fails."""

    @abc.abstractmethod
    async def send(self, frame: bytes) -> None:
        """Send one JSON-RPC message (without framing; the transport adds it)."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Close gracefully; must end with a TransportClosed event (expected=True) and be idempotent."""

    @abc.abstractmethod
    def describe(self) -> str:
        """A short human description, e.g. the command line or the URL."""
