"""Reconnection with a budget, against a server that provokes a storm (tests/servers/storm_http.py).

The server answers every request's POST and every resume GET with ``retry: 0`` and an empty event with an
id, then closes. The transport resumes with backoff from ``reconnect_floor_ms``, gives up after
``reconnects_per_request`` attempts (or ``reconnects_per_minute`` on the connection) with one line, and
stops at once when the request that needed the stream timed out or was cancelled.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from asynckit import run
from servers.storm_http import Hit, StormServer

from inspector.client.connection import Connection, DeliveryFailed
from inspector.client.errors import RequestTimeout
from inspector.protocol.limits import Limits
from inspector.protocol.session import Timeouts
from inspector.transports.base import FrameReceived, HttpExchange, SendFailed, TransportEvent, TransportNote
from inspector.transports.http import StreamableHttpTransport

REPO = str(Path(__file__).resolve().parents[2])
EPSILON = 0.005  # the loop's timers may fire this much early


@pytest.fixture
def storm() -> Iterator[StormServer]:
    with StormServer() as server:
        yield server


def frame(rid: int, method: str = "tools/list") -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": rid, "method": method}).encode()


async def wait_until(predicate: Callable[[], bool], timeout: float = 20.0) -> None:
    async def poll() -> None:
        while not predicate():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), timeout)


def failures(events: list[TransportEvent]) -> list[SendFailed]:
    return [e for e in events if isinstance(e, SendFailed)]


def gaps(first: float, hits: list[Hit]) -> list[float]:
    times = [first, *(h.at for h in hits)]
    return [b - a for a, b in itertools.pairwise(times)]


def test_a_storm_is_resumed_with_backoff_and_given_up_with_one_line(storm: StormServer) -> None:
    limits = Limits(reconnect_floor_ms=100, reconnect_cap_ms=400)
    events: list[TransportEvent] = []

    async def body() -> None:
        transport = StreamableHttpTransport(storm.url(), limits=limits)
        await transport.start(events.append)
        await transport.send(frame(1))
        await wait_until(lambda: bool(failures(events)))
        settled = len(storm.hits())
        await asyncio.sleep(1.0)
        assert len(storm.hits()) == settled  # nothing after giving up
        await transport.close()

    run(body)
    posts, resumes = storm.hits("POST"), storm.resumes()
    assert len(posts) == 1 and len(resumes) == 5
    # the waits: 100, 200, 400, 400, 400 ms (the cap), each at most a quarter more
    for wait, nominal in zip(gaps(posts[0].at, resumes), (0.1, 0.2, 0.4, 0.4, 0.4), strict=True):
        assert wait >= nominal - EPSILON
    [failed] = failures(events)
    assert failed.request_ids == (1,)
    assert failed.message == (
        "gave up resuming the response stream: 5 attempts for this request (limit reconnects_per_request = 5);"
        " the server asked to retry after 0 ms"
    )
    # bounded rows: the POST and each resume, answered and ended
    assert len([e for e in events if isinstance(e, HttpExchange) and e.method != "DELETE"]) == 2 * (1 + 5)


def test_the_per_minute_budget_is_shared_by_the_requests_of_a_connection(storm: StormServer) -> None:
    limits = Limits(reconnect_floor_ms=10, reconnect_cap_ms=40, reconnects_per_request=5, reconnects_per_minute=7)
    events: list[TransportEvent] = []

    async def body() -> None:
        transport = StreamableHttpTransport(storm.url(), limits=limits)
        await transport.start(events.append)
        await transport.send(frame(1))
        await wait_until(lambda: len(failures(events)) == 1)
        await transport.send(frame(2))
        await wait_until(lambda: len(failures(events)) == 2)
        await asyncio.sleep(0.3)
        await transport.close()

    run(body)
    first, second = failures(events)
    assert first.request_ids == (1,) and "reconnects_per_request = 5" in first.message
    assert second.request_ids == (2,)
    assert second.message.startswith(
        "gave up reconnecting: 7 reconnections on this connection in the last 60 s (limit reconnects_per_minute = 7)"
    )
    assert len(storm.resumes()) == 7


def test_progress_resets_the_request_count_but_not_the_per_minute_budget() -> None:
    limits = Limits(reconnect_floor_ms=10, reconnect_cap_ms=20, reconnects_per_request=3, reconnects_per_minute=10)
    events: list[TransportEvent] = []

    async def body(storm: StormServer) -> None:
        transport = StreamableHttpTransport(storm.url(), limits=limits)
        await transport.start(events.append)
        await transport.send(frame(1))
        await wait_until(lambda: bool(failures(events)))
        await transport.close()

    with StormServer(notify_each=True) as storm:
        run(lambda: body(storm))
        assert len(storm.resumes()) == 10  # more than 3: every stream delivered a message
    [failed] = failures(events)
    assert "reconnects_per_minute = 10" in failed.message
    assert len([e for e in events if isinstance(e, FrameReceived)]) == 11


def test_max_reconnects_still_overrides_the_per_request_budget(storm: StormServer) -> None:
    events: list[TransportEvent] = []

    async def body() -> None:
        transport = StreamableHttpTransport(
            storm.url(), max_reconnects=2, limits=Limits(reconnect_floor_ms=10, reconnect_cap_ms=20)
        )
        await transport.start(events.append)
        await transport.send(frame(1))
        await wait_until(lambda: bool(failures(events)))
        await transport.close()

    run(body)
    assert len(storm.resumes()) == 2
    [failed] = failures(events)
    assert "2 attempts for this request (limit max_reconnects = 2)" in failed.message


def test_nothing_goes_on_after_the_request_timed_out(storm: StormServer) -> None:
    """Default limits (floor 250 ms): resumes at ~0.25 s and ~0.75 s, the timeout at 1 s, then silence."""
    events: list[TransportEvent] = []
    timed_out: list[float] = []

    async def body() -> None:
        transport = StreamableHttpTransport(storm.url())
        async with Connection(
            transport, on_transport_event=events.append, timeouts=Timeouts(request=1.0), protocol_era="legacy"
        ) as conn:
            with pytest.raises(RequestTimeout, match="timed out after 1 s"):
                await conn.list_tools()
            timed_out.append(time.monotonic())
            await asyncio.sleep(3.0)  # without the hook the next resumes would come at ~1.75 s and ~3.75 s

    run(body)
    [post] = [h for h in storm.hits("POST") if h.rpc == "tools/list"]
    resumes = storm.resumes()
    assert 1 <= len(resumes) <= 3
    assert all(h.at < timed_out[0] for h in resumes)
    assert all(wait >= 0.25 - EPSILON for wait in gaps(post.at, resumes))
    assert failures(events) == []  # the request already failed (timed out): nothing more about it


def test_cancelling_the_request_stops_its_resumption(storm: StormServer) -> None:
    async def body() -> None:
        transport = StreamableHttpTransport(storm.url())
        async with Connection(transport, timeouts=Timeouts(request=30), protocol_era="legacy") as conn:
            task = asyncio.create_task(conn.request("tools/list"))
            await wait_until(lambda: len(storm.resumes()) >= 1)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            cancelled = len(storm.resumes())
            await asyncio.sleep(1.5)
            assert len(storm.resumes()) == cancelled

    run(body)


def test_the_listening_stream_gives_up_with_one_note() -> None:
    limits = Limits(reconnect_floor_ms=20, reconnect_cap_ms=80)
    events: list[TransportEvent] = []

    def notes() -> list[str]:
        return [e.message for e in events if isinstance(e, TransportNote) and "gave up" in e.message]

    async def body(storm: StormServer) -> None:
        transport = StreamableHttpTransport(storm.url(), limits=limits)
        async with Connection(
            transport, on_transport_event=events.append, timeouts=Timeouts(request=5), protocol_era="legacy"
        ):
            await wait_until(lambda: bool(notes()))
            settled = len(storm.hits("GET"))
            await asyncio.sleep(0.5)
            assert len(storm.hits("GET")) == settled

    with StormServer(get_mode="storm") as storm:
        run(lambda: body(storm))
        assert len(storm.listens()) == 1 + 5  # the opening, then the budget
    assert notes() == [
        "gave up re-opening the stream for server-initiated messages: 5 attempts in a row without a message"
        " (limit reconnects_per_request = 5); the server asked to retry after 0 ms"
    ]


def test_a_request_that_gave_up_fails_in_the_connection() -> None:
    limits = Limits(reconnect_floor_ms=10, reconnect_cap_ms=20)

    async def body(storm: StormServer) -> None:
        transport = StreamableHttpTransport(storm.url(), limits=limits)
        async with Connection(transport, timeouts=Timeouts(request=10), protocol_era="legacy") as conn:
            with pytest.raises(DeliveryFailed, match=r"5 attempts for this request \(limit reconnects_per_request"):
                await conn.list_tools()

    with StormServer() as storm:
        run(lambda: body(storm))
        assert len(storm.resumes()) == 5


def test_cli_ends_with_one_line_and_bounded_gets() -> None:
    with StormServer(get_mode="storm") as storm:
        began = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-m", "inspector", "--cli", storm.url(), "--method", "tools/list", "--timeout", "3"],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=REPO,
            env=dict(os.environ),
        )
        took = time.monotonic() - began
        time.sleep(0.5)
        resumes, listens = storm.resumes(), storm.listens()
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode != 0
    assert proc.stderr.strip().splitlines() == [proc.stderr.strip()]  # one clear line
    assert "timed out after 3 s" in proc.stderr
    assert 1 <= len(resumes) <= 5  # floor 250 ms, doubling: ~0.25, 0.75, 1.75 s before the 3 s timeout
    assert 1 <= len(listens) <= 1 + 5
    assert took < 30
