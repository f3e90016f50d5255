"""``MemoryTransport``: a server function in this loop, frames through memory, the Transport contract kept
(events in order, one TransportClosed last, backpressure, a failing server ends the connection)."""

from __future__ import annotations

import asyncio
import contextvars

import pytest
from asynckit import run

from inspector.protocol.limits import Limits
from inspector.transports.base import (
    FrameReceived,
    StderrLine,
    TransportClosed,
    TransportError,
    TransportEvent,
    TransportNote,
)
from inspector.transports.memory import MemoryPipe, MemoryTransport

MARK: contextvars.ContextVar[str] = contextvars.ContextVar("MARK", default="unset")


async def echo(pipe: MemoryPipe) -> None:
    while (frame := await pipe.receive()) is not None:
        await pipe.send(frame.upper() + MARK.get().encode())


def frames(events: list[TransportEvent]) -> list[bytes]:
    return [e.data for e in events if isinstance(e, FrameReceived)]


def test_frames_go_both_ways_and_close_ends_with_one_expected_event() -> None:
    events: list[TransportEvent] = []

    async def body() -> None:
        MARK.set("-client")
        transport = MemoryTransport(echo, label="echo server")
        assert transport.describe() == "echo server"
        await transport.start(events.append)
        await transport.send(b"one")
        await transport.send(b"two")
        while len(frames(events)) < 2:
            await asyncio.sleep(0.01)
        await transport.close()
        await transport.close()  # idempotent
        with pytest.raises(TransportError):
            await transport.send(b"three")

    run(body)
    assert isinstance(events[0], TransportNote) and "echo server" in events[0].message
    # the server runs in a context of its own: it does not see the client's context variables
    assert frames(events) == [b"ONEunset", b"TWOunset"]
    closed = [e for e in events if isinstance(e, TransportClosed)]
    assert len(closed) == 1 and closed[0] is events[-1] and closed[0].expected


def test_answers_sent_while_closing_still_arrive() -> None:
    events: list[TransportEvent] = []

    async def slow_echo(pipe: MemoryPipe) -> None:
        while (frame := await pipe.receive()) is not None:
            await asyncio.sleep(0.05)
            await pipe.send(frame)
        await pipe.send(b"bye")

    async def body() -> None:
        transport = MemoryTransport(slow_echo)
        await transport.start(events.append)
        await transport.send(b"last")
        await transport.close()

    run(body)
    assert frames(events) == [b"last", b"bye"]
    assert isinstance(events[-1], TransportClosed) and events[-1].expected


@pytest.mark.parametrize(
    ("serve_error", "reason"),
    [(None, "the server ended the connection"), (RuntimeError("boom"), "the server failed: boom")],
)
def test_a_server_that_stops_closes_the_transport_unexpectedly(serve_error: Exception | None, reason: str) -> None:
    events: list[TransportEvent] = []

    async def once(pipe: MemoryPipe) -> None:
        await pipe.receive()
        await pipe.send(b"last words")
        if serve_error is not None:
            raise serve_error

    async def body() -> None:
        transport = MemoryTransport(once)
        await transport.start(events.append)
        await transport.send(b"hello")
        while not any(isinstance(e, TransportClosed) for e in events):
            await asyncio.sleep(0.01)
        assert not transport.is_running
        with pytest.raises(TransportError):
            await transport.send(b"anyone?")
        await transport.close()  # nothing more: it is closed already

    run(body)
    assert frames(events) == [b"last words"]  # what it sent before it stopped comes first
    closed = [e for e in events if isinstance(e, TransportClosed)]
    assert len(closed) == 1 and closed[0] is events[-1]
    assert closed[0].reason == reason and not closed[0].expected


def test_backpressure_holds_the_server_back() -> None:
    events: list[TransportEvent] = []
    sent: list[int] = []

    async def flood(pipe: MemoryPipe) -> None:
        for i in range(5):
            await pipe.send(b"%d" % i)
            sent.append(i)
        await pipe.receive()

    async def body() -> None:
        gate = asyncio.get_running_loop().create_future()
        transport = MemoryTransport(flood)
        transport.backpressure = lambda: None if gate.done() else gate
        await transport.start(events.append)
        await asyncio.sleep(0.1)
        # one frame taken (and waiting at the gate), one in the buffer, the third send waits
        assert frames(events) == [b"0"]
        assert sent == [0, 1]
        gate.set_result(None)
        while len(frames(events)) < 5:
            await asyncio.sleep(0.01)
        assert sent == [0, 1, 2, 3, 4]
        await transport.close()

    run(body)


def test_a_frame_over_the_limit_closes_the_transport() -> None:
    events: list[TransportEvent] = []

    async def big(pipe: MemoryPipe) -> None:
        await pipe.send(b"x" * 10)
        await pipe.send(b"x" * 11)
        await pipe.receive()

    async def body() -> None:
        transport = MemoryTransport(big, limits=Limits(message_bytes=10))
        await transport.start(events.append)
        while not any(isinstance(e, TransportClosed) for e in events):
            await asyncio.sleep(0.01)
        assert not transport.is_running
        await transport.close()

    run(body)
    assert frames(events) == [b"x" * 10]
    closed = events[-1]
    assert isinstance(closed, TransportClosed) and "over the limit of 10" in closed.reason and not closed.expected


def test_start_twice_and_close_before_start() -> None:
    async def body() -> None:
        never = MemoryTransport(echo)
        await never.close()
        with pytest.raises(TransportError):
            await never.start(lambda _e: None)
        transport = MemoryTransport(echo)
        with pytest.raises(TransportError):
            await transport.send(b"early")
        await transport.start(lambda _e: None)
        with pytest.raises(TransportError):
            await transport.start(lambda _e: None)
        await transport.close()

    run(body)


def test_stderr_lines_arrive_as_events_until_closed() -> None:
    events: list[TransportEvent] = []

    async def chatty(pipe: MemoryPipe) -> None:
        pipe.stderr("starting\n")
        while (frame := await pipe.receive()) is not None:
            pipe.stderr(f"got {frame.decode()}")
        pipe.stderr("after the end")  # the transport is closing: may still arrive, never after TransportClosed

    async def body() -> None:
        transport = MemoryTransport(chatty)
        await transport.start(events.append)
        await transport.send(b"ping")
        while sum(isinstance(e, StderrLine) for e in events) < 2:
            await asyncio.sleep(0.01)
        await transport.close()
        await asyncio.sleep(0.05)

    run(body)
    lines = [e.line for e in events if isinstance(e, StderrLine)]
    assert lines[:2] == ["starting", "got ping"]
    assert isinstance(events[-1], TransportClosed)
