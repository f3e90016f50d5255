"""Hostile HTTP servers cannot exhaust memory: every HTTP read path is bounded while it is read.

Against tests/servers/hostile_http.py (raw sockets on 127.0.0.1): gzip and deflate bombs (JSON answers, SSE
answers, the GET stream), multi-member and chained encodings, an unknown encoding, SSE lines that never
end, an endless JSON body, huge headers, a legacy ``endpoint`` event that never ends, a legacy message that
never ends, and an OAuth metadata bomb read through a client from ``make_client`` (an unmarked request).
Each case through the real transports; the bomb and the endless body also through ``Connection`` and the CLI
(a subprocess whose peak RSS is measured by a fresh wrapper process).
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from asynckit import run
from servers.hostile_http import HostileHttpServer

from inspector.client.connection import Connection
from inspector.client.renewal import DeliveryFailed
from inspector.protocol.limits import DEFAULT_LIMITS, KiB, Limits, MiB
from inspector.protocol.session import Timeouts
from inspector.transports.base import (
    FrameReceived,
    HttpExchange,
    SendFailed,
    TransportClosed,
    TransportError,
    TransportEvent,
    TransportNote,
)
from inspector.transports.http import StreamableHttpTransport
from inspector.transports.http_bounded import HttpLimitError
from inspector.transports.http_common import make_client, request_error_message
from inspector.transports.sse import LegacySseTransport

SMALL = DEFAULT_LIMITS.replace(
    message_bytes=1 * MiB,
    decompressed_bytes=2 * MiB,
    ratio_grace_bytes=256 * KiB,
    sse_line_bytes=4 * KiB,
    header_bytes=16 * KiB,
    error_body_bytes=4 * KiB,
    oauth_body_bytes=64 * KiB,
)
INIT = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
).encode()
INITIALIZED = b'{"jsonrpc":"2.0","method":"notifications/initialized"}'
LIST = b'{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
WAIT = 20.0


@pytest.fixture(scope="module")
def server() -> Iterator[HostileHttpServer]:
    with HostileHttpServer(max_seconds=30) as hostile:
        yield hostile


class Sink:
    def __init__(self) -> None:
        self.events: list[TransportEvent] = []

    def __call__(self, event: TransportEvent) -> None:
        self.events.append(event)

    async def until(self, found: Callable[[TransportEvent], bool], timeout: float = WAIT) -> TransportEvent:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for event in self.events:
                if found(event):
                    return event
            await asyncio.sleep(0.02)
        raise AssertionError(f"not seen within {timeout} s; events: {self.events!r:.3000}")

    def notes(self) -> list[str]:
        return [e.note for e in self.events if isinstance(e, HttpExchange)]


def failed_for(request_id: int) -> Callable[[TransportEvent], bool]:
    return lambda e: isinstance(e, SendFailed) and request_id in e.request_ids


def answered(request_id: int) -> Callable[[TransportEvent], bool]:
    return lambda e: isinstance(e, FrameReceived) and f'"id": {request_id}'.encode() in e.data


async def handshake(transport: StreamableHttpTransport, sink: Sink) -> None:
    await transport.start(sink)
    await transport.send(INIT)
    await sink.until(answered(1))
    transport.on_negotiated("2025-06-18")
    await transport.send(INITIALIZED)


def list_fails(server: HostileHttpServer, mode: str, limits: Limits = SMALL) -> tuple[SendFailed, Sink, float]:
    """tools/list against ``mode``: the SendFailed for it, the events, seconds it took."""

    async def body() -> tuple[SendFailed, Sink, float]:
        sink = Sink()
        transport = StreamableHttpTransport(server.url(mode), limits=limits)
        try:
            await handshake(transport, sink)
            began = time.monotonic()
            await transport.send(LIST)
            failed = await sink.until(failed_for(2))
            assert isinstance(failed, SendFailed)
            return failed, sink, time.monotonic() - began
        finally:
            await transport.close()

    return run(body, timeout=WAIT + 10)


# -- Streamable HTTP: POST answers ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "limit"),
    [
        ("gzip-json", "decompression_ratio"),
        ("deflate-json", "decompression_ratio"),
        ("gzip-sse", "decompression_ratio"),
        ("sse-data-endless", "message_bytes"),
        ("sse-comment-endless", "sse_line_bytes"),
        ("sse-id-endless", "sse_line_bytes"),
        ("json-endless", "message_bytes"),
        ("huge-headers", "header_bytes"),
    ],
)
def test_a_post_answer_that_breaks_a_limit_fails_its_request_with_the_limits_line(
    server: HostileHttpServer, mode: str, limit: str
) -> None:
    failed, sink, elapsed = list_fails(server, mode)
    assert f"(limit {limit} = " in failed.message, failed.message
    assert "\n" not in failed.message and "HTTP request" not in failed.message
    assert isinstance(failed.error, TransportError) and str(failed.error) == failed.message
    assert any(failed.message in note for note in sink.notes()), sink.notes()  # the exchange says it too
    assert elapsed < 10
    assert server.sent[mode] < 200 * MiB  # the client hung up long before the 10 GiB


def test_the_breach_lines_name_what_broke(server: HostileHttpServer) -> None:
    assert list_fails(server, "sse-data-endless")[0].message == (
        "an SSE event's data of more than 1 MiB (limit message_bytes = 1 MiB)"
    )
    assert list_fails(server, "sse-comment-endless")[0].message == (
        "an SSE comment line of more than 4 KiB (limit sse_line_bytes = 4 KiB)"
    )
    assert list_fails(server, "sse-id-endless")[0].message == (
        "an SSE 'id' line of more than 4 KiB (limit sse_line_bytes = 4 KiB)"
    )
    assert list_fails(server, "json-endless")[0].message == (
        "a JSON answer of more than 1 MiB (limit message_bytes = 1 MiB)"
    )
    without_ratio = SMALL.replace(decompression_ratio=10_000, message_bytes=8 * MiB)
    assert list_fails(server, "gzip-json", without_ratio)[0].message == (
        "a decoded HTTP body of more than 2 MiB (limit decompressed_bytes = 2 MiB)"
    )


def test_the_default_limits_stop_a_10_gib_gzip_bomb(server: HostileHttpServer) -> None:
    failed, _, elapsed = list_fails(server, "gzip-json", DEFAULT_LIMITS)
    assert failed.message == "an HTTP body with a compression ratio of 1006 (limit decompression_ratio = 100)"
    assert elapsed < 10


@pytest.mark.parametrize("mode", ["multi-gzip", "chained"])
def test_multi_member_and_chained_encodings_are_decoded(server: HostileHttpServer, mode: str) -> None:
    async def body() -> None:
        sink = Sink()
        transport = StreamableHttpTransport(server.url(mode), limits=SMALL)
        try:
            await handshake(transport, sink)
            await transport.send(LIST)
            frame = await sink.until(answered(2))
            assert isinstance(frame, FrameReceived)
            assert json.loads(frame.data)["result"]["tools"][0]["name"] == "echo"
            exchange = [e for e in sink.events if isinstance(e, HttpExchange) and 2 in e.carried_ids][-1]
            assert (
                "content-encoding",
                "gzip" if mode == "multi-gzip" else "deflate, gzip",
            ) in exchange.response_headers
            request = dict((k.lower(), v) for k, v in exchange.request_headers)
            assert request["accept-encoding"] == "gzip, deflate"
        finally:
            await transport.close()

    run(body, timeout=WAIT + 10)


def test_an_unknown_encoding_is_an_error_naming_it(server: HostileHttpServer) -> None:
    failed, _, _ = list_fails(server, "unknown-encoding")
    assert "Content-Encoding 'br'" in failed.message and "does not decode" in failed.message, failed.message


def test_headers_beyond_h11s_own_buffer_are_reported_as_header_bytes() -> None:
    with HostileHttpServer(header_size=200 * KiB) as hostile:
        failed, _, _ = list_fails(hostile, "huge-headers", DEFAULT_LIMITS)
    assert failed.message == "the response headers of more than 64 KiB (limit header_bytes = 64 KiB)"


# -- Streamable HTTP: the GET stream -------------------------------------------------------------------------


def test_a_gzip_bomb_on_the_get_stream_ends_it_with_a_note(server: HostileHttpServer) -> None:
    async def body() -> None:
        sink = Sink()
        transport = StreamableHttpTransport(server.url("gzip-get"), limits=SMALL)
        try:
            await handshake(transport, sink)
            note = await sink.until(lambda e: isinstance(e, TransportNote) and "decompression_ratio" in e.message)
            assert isinstance(note, TransportNote)
            assert note.message.startswith(
                "the stream for server-initiated messages ended: an HTTP body with a compression ratio of "
            )
            assert note.message.endswith(" (limit decompression_ratio = 100)")
            await transport.send(LIST)  # the connection itself goes on
            await sink.until(answered(2))
            await asyncio.sleep(1.5)  # past the reconnect floor: a breached stream is not re-opened
            gets = [r for r in server.requests if r[0] == "GET" and r[1].startswith("/gzip-get/")]
            assert len(gets) == 1, gets
        finally:
            await transport.close()

    run(body, timeout=WAIT + 10)


# -- legacy HTTP+SSE ----------------------------------------------------------------------------------------


def test_a_legacy_endpoint_event_that_never_ends(server: HostileHttpServer) -> None:
    async def body() -> None:
        sink = Sink()
        transport = LegacySseTransport(server.url("legacy-endless"), limits=SMALL, endpoint_timeout=WAIT)
        began = time.monotonic()
        with pytest.raises(TransportError) as caught:
            await transport.start(sink)
        assert str(caught.value) == "the endpoint event of more than 4 KiB (limit sse_line_bytes = 4 KiB)"
        assert time.monotonic() - began < 10
        assert not any(isinstance(e, TransportClosed) for e in sink.events)

    run(body, timeout=WAIT + 10)


def test_the_fallback_to_legacy_keeps_the_limits(server: HostileHttpServer) -> None:
    async def body() -> None:
        sink = Sink()
        transport = StreamableHttpTransport(server.url("legacy-endless"), limits=SMALL, sse_fallback=True)
        try:
            await transport.start(sink)
            await transport.send(INIT)
            failed = await sink.until(failed_for(1))
            assert isinstance(failed, SendFailed)
            assert "the endpoint event of more than 4 KiB (limit sse_line_bytes = 4 KiB)" in failed.message
        finally:
            await transport.close()

    run(body, timeout=WAIT + 10)


def test_a_legacy_message_that_never_ends_closes_the_transport(server: HostileHttpServer) -> None:
    async def body() -> None:
        sink = Sink()
        transport = LegacySseTransport(server.url("legacy-big"), limits=SMALL, endpoint_timeout=WAIT)
        await transport.start(sink)  # the endpoint event is small: accepted
        try:
            closed = await sink.until(lambda e: isinstance(e, TransportClosed))
            assert isinstance(closed, TransportClosed) and not closed.expected
            assert closed.reason == "an SSE event's data of more than 1 MiB (limit message_bytes = 1 MiB)"
        finally:
            await transport.close()

    run(body, timeout=WAIT + 10)


# -- OAuth: requests an auth flow sends through our client are not marked -----------------------------------


@pytest.mark.parametrize(("limits", "size"), [(SMALL, "64 KiB"), (DEFAULT_LIMITS, "1 MiB")])
def test_an_oauth_metadata_bomb_through_a_client_from_make_client(
    server: HostileHttpServer, limits: Limits, size: str
) -> None:
    async def body() -> None:
        url = server.url("oauth-bomb", "/.well-known/oauth-authorization-server")
        async with make_client(limits=limits) as client:
            with pytest.raises(HttpLimitError) as caught:
                await client.get(url)  # read whole, as the OAuth provider's requests are
        assert request_error_message(caught.value, url) == (
            f"an OAuth response of more than {size} (limit oauth_body_bytes = {size})"
        )

    run(body, timeout=WAIT + 10)


# -- through Connection -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "limits", "line"),
    [
        (
            "gzip-json",
            DEFAULT_LIMITS,
            r"an HTTP body with a compression ratio of 1006 \(limit decompression_ratio = 100\)",
        ),
        ("json-endless", SMALL, r"a JSON answer of more than 1 MiB \(limit message_bytes = 1 MiB\)"),
        ("gzip-sse", SMALL, r"an HTTP body with a compression ratio of \d+ \(limit decompression_ratio = 100\)"),
    ],
)
def test_through_connection(server: HostileHttpServer, mode: str, limits: Limits, line: str) -> None:
    async def body() -> None:
        conn = Connection(
            StreamableHttpTransport(server.url(mode), limits=limits),
            timeouts=Timeouts(request=WAIT),
            protocol_era="legacy",
        )
        async with conn:
            with pytest.raises(DeliveryFailed) as caught:
                await conn.list_tools()
            assert re.fullmatch(line, str(caught.value)), str(caught.value)
            assert await conn.ping() is not None  # the connection survives the one bad answer

    run(body, timeout=WAIT + 15)


# -- through the CLI, measuring the child's peak memory -------------------------------------------------------

_WRAPPER = """
import json, resource, subprocess, sys, time
began = time.monotonic()
proc = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=60)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps([proc.returncode, proc.stdout[-4000:], proc.stderr[-4000:], peak, time.monotonic() - began]))
"""


def cli(url: str, *extra: str) -> tuple[int, str, str, float, float]:
    """(exit status, stdout, stderr, peak RSS of the CLI in MB, seconds)."""
    command = [
        sys.executable,
        "-c",
        _WRAPPER,
        sys.executable,
        "-m",
        "inspector",
        "--cli",
        url,
        "--method",
        "tools/list",
    ]
    done = subprocess.run([*command, *extra], capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stderr
    code, out, err, peak_kib, seconds = json.loads(done.stdout)
    return code, out, err, peak_kib / 1024, seconds


@pytest.mark.parametrize(
    ("mode", "extra", "limit", "peak_mb"),
    [
        ("gzip-json", (), "decompression_ratio", 200),
        ("gzip-sse", (), "decompression_ratio", 200),
        ("json-endless", (), "message_bytes", 450),  # the default allows a 256 MiB message
        ("json-endless", ("--limit", "message_bytes=8MiB"), "message_bytes", 200),
        ("sse-data-endless", ("--limit", "message_bytes=8MiB"), "message_bytes", 200),
        ("legacy-endless", (), "sse_line_bytes", 200),
    ],
)
def test_cli_ends_with_one_line_naming_the_limit_and_bounded_memory(
    server: HostileHttpServer, mode: str, extra: tuple[str, ...], limit: str, peak_mb: int
) -> None:
    code, out, err, peak, seconds = cli(server.url(mode), *extra)
    assert code != 0, (out, err)
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and f"(limit {limit} = " in lines[0], err
    assert peak < peak_mb, f"peak RSS {peak:.0f} MB"
    assert seconds < 40


def _report(args: Any) -> None:  # pragma: no cover - by hand: figures for the report
    with HostileHttpServer() as hostile:
        for mode in args:
            code, _, err, peak, seconds = cli(hostile.url(mode))
            print(f"{mode}: exit {code}, peak {peak:.0f} MB, {seconds:.1f} s: {err.strip()}")


if __name__ == "__main__":  # pragma: no cover
    _report(sys.argv[1:])
