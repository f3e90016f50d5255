"""StreamableHttpTransport in the 2026-07-28 era, driven directly (its sink gets the events), against real servers:
the 2026-07-28-shaped test server (tests/servers/modern_http.py), the demo server (the official SDK, which speaks
both eras on one endpoint) and the demo's legacy HTTP+SSE server.

Shown: the per-message headers arrive as given and are in the log; no session id, GET or DELETE in the modern
era; a 404 (or 400) whose body is a JSON-RPC error for the request is delivered as a frame; a broken stream fails
its request with one line and is not resumed; ``abandon`` closes the exchange (the server sees it);
``notifications/cancelled`` is not POSTed; switching to the handshake era on the same object behaves as a fresh
transport does (session, negotiated version header, GET stream, DELETE, legacy fallback).
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from asynckit import run
from demowire import demo_http
from servers.http_misbehaving import Launched
from servers.modern_http import ModernHttpServer

from inspector.protocol.versions import Era
from inspector.transports.base import (
    MASK,
    FrameReceived,
    HttpExchange,
    SendFailed,
    SessionExpired,
    TransportClosed,
    TransportEvent,
    TransportNote,
)
from inspector.transports.http import StreamableHttpTransport

REPO = str(Path(__file__).resolve().parents[2])
MODERN = "2026-07-28"
META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "transport-tests", "version": "0"},
}


class Sink:
    """The events a transport emitted, in order."""

    def __init__(self) -> None:
        self.events: list[TransportEvent] = []

    def __call__(self, event: TransportEvent) -> None:
        self.events.append(event)

    def of(self, kind: type[Any]) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]

    def messages(self) -> list[dict[str, Any]]:
        return [json.loads(e.data) for e in self.of(FrameReceived)]

    def answer(self, rid: int | str) -> dict[str, Any] | None:
        return next((m for m in self.messages() if m.get("id") == rid and "method" not in m), None)

    def exchanges(self, method: str | None = None) -> list[HttpExchange]:
        return [e for e in self.of(HttpExchange) if method is None or e.method == method]

    def failures(self) -> list[SendFailed]:
        return self.of(SendFailed)

    async def until(self, predicate: Callable[[], object], timeout: float = 10.0) -> None:
        async def poll() -> None:
            while not predicate():
                await asyncio.sleep(0.01)

        await asyncio.wait_for(poll(), timeout)


def request(rid: int, method: str, params: dict[str, Any] | None = None) -> bytes:
    body = {"jsonrpc": "2.0", "id": rid, "method": method, "params": {**(params or {}), "_meta": META}}
    return json.dumps(body).encode()


def headers_for(method: str, name: str | None = None, **extra: str) -> dict[str, str]:
    headers = {"MCP-Protocol-Version": MODERN, "Mcp-Method": method}
    if name is not None:
        headers["Mcp-Name"] = name
    headers.update(extra)
    return headers


async def call(transport: StreamableHttpTransport, rid: int, tool: str, **arguments: Any) -> None:
    params = {"name": tool, "arguments": arguments}
    await transport.send(request(rid, "tools/call", params), headers_for("tools/call", tool))


@pytest.fixture
def server() -> Iterator[ModernHttpServer]:
    with ModernHttpServer() as running:
        yield running


@pytest.fixture(scope="module")
def demo_url() -> Iterator[str]:
    with demo_http() as url:
        yield url


# -- headers, statelessness -----------------------------------------------------------------------------------------


def test_per_message_headers_arrive_as_given_and_are_in_the_log(server: ModernHttpServer) -> None:
    sink = Sink()

    async def body() -> None:
        transport = StreamableHttpTransport(server.url(), headers={"Authorization": "Bearer s3cret"})
        transport.set_era(Era.MODERN)
        assert transport.era is Era.MODERN and transport.cancels_by_closing
        await transport.start(sink)
        await transport.send(request(1, "server/discover"), headers_for("server/discover"))
        params = {"name": "echo", "arguments": {"text": "hi", "region": "us-west1"}}
        sent = headers_for("tools/call", "echo", **{"Mcp-Param-Region": "us-west1"})
        await transport.send(request(2, "tools/call", params), sent)
        await sink.until(lambda: sink.answer(1) and sink.answer(2))
        await transport.close()

    run(body)
    by_method = {seen.json()["method"]: seen for seen in server.seen("POST")}  # (requests go out concurrently)
    discover, echo = by_method["server/discover"], by_method["tools/call"]
    for seen in (discover, echo):
        assert seen.all("mcp-protocol-version") == [MODERN]  # as given, not a second negotiated one on top
        assert seen.all("accept") == ["application/json, text/event-stream"]
        assert seen.headers["content-type"] == "application/json"
        assert seen.headers["authorization"] == "Bearer s3cret"
        assert "mcp-session-id" not in seen.headers  # the server minted one on every answer
    assert discover.all("mcp-method") == ["server/discover"] and "mcp-name" not in discover.headers
    assert echo.all("mcp-method") == ["tools/call"] and echo.all("mcp-name") == ["echo"]
    assert echo.all("mcp-param-region") == ["us-west1"]
    assert sink.answer(2) == {
        "jsonrpc": "2.0",
        "id": 2,
        "result": {"resultType": "complete", "content": [{"type": "text", "text": "echo: hi"}]},
    }
    logged = {e.carried_ids[0]: dict(e.request_headers) for e in sink.exchanges("POST")}
    logged_discover, logged_echo = logged[1], logged[2]
    assert logged_discover["mcp-method"] == "server/discover" and logged_discover["mcp-protocol-version"] == MODERN
    assert logged_echo["mcp-name"] == "echo" and logged_echo["mcp-param-region"] == "us-west1"
    assert logged_echo["authorization"] == MASK
    notes = [e.message for e in sink.of(TransportNote) if "session id" in e.message]
    assert notes == [
        f"the server sent the session id 'minted-by-the-server'; {MODERN} has no sessions, so it is not sent back"
    ]


def test_modern_era_opens_no_get_stream_resumes_nothing_and_deletes_nothing(server: ModernHttpServer) -> None:
    sink = Sink()

    async def body() -> StreamableHttpTransport:
        transport = StreamableHttpTransport(server.url())
        transport.set_era(Era.MODERN)
        await transport.start(sink)
        transport.on_negotiated(MODERN)  # ignored in this era: no version header of its own, no GET stream
        await transport.send(request(1, "server/discover"), headers_for("server/discover"))
        await call(transport, 2, "echo", text="a")
        await call(transport, 3, "drop")
        await sink.until(lambda: sink.answer(1) and sink.answer(2) and sink.failures())
        await asyncio.sleep(0.3)  # time for a (wrong) resumption or GET stream to show up
        assert transport.session_id is None and transport.protocol_version is None
        await transport.close()
        return transport

    transport = run(body)
    assert [r.method for r in server.requests] == ["POST", "POST", "POST"]  # no GET, no DELETE
    assert all("last-event-id" not in r.headers and "mcp-session-id" not in r.headers for r in server.requests)
    assert transport.closed and sink.of(TransportClosed)[-1].expected


# -- errors: as frames when they answer the request, else one line -------------------------------------------------


def test_404_with_a_jsonrpc_error_for_the_request_is_delivered_as_a_frame(server: ModernHttpServer) -> None:
    sink = Sink()

    async def body() -> None:
        transport = StreamableHttpTransport(server.url(), sse_fallback=True)
        transport.set_era(Era.MODERN)
        await transport.start(sink)
        await transport.send(request(1, "nope/unknown"), headers_for("nope/unknown"))
        await transport.send(request(2, "plain/404"), headers_for("plain/404"))
        await transport.send(request(3, "null/id"), headers_for("null/id"))
        await sink.until(lambda: sink.answer(1) and len(sink.failures()) == 2)
        await transport.close()

    run(body)
    assert sink.answer(1) == {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {"code": -32601, "message": "Method not found: nope/unknown"},
    }
    assert not sink.of(SessionExpired)
    by_id = {f.request_ids: f for f in sink.failures()}
    assert set(by_id) == {(2,), (3,)}
    assert by_id[(2,)].message == "HTTP 404 Not Found: Not Found"
    assert by_id[(3,)].message == "HTTP 400 Bad Request: no id for you (JSON-RPC error -32600)"
    assert [r.method for r in server.requests] == ["POST", "POST", "POST"]  # no legacy fallback (GET) either


def test_the_sdk_server_answers_unknown_methods_and_header_mismatches_as_frames(demo_url: str) -> None:
    sink = Sink()

    async def body() -> None:
        transport = StreamableHttpTransport(demo_url)
        transport.set_era(Era.MODERN)
        await transport.start(sink)
        await transport.send(request(1, "server/discover"), headers_for("server/discover"))
        await transport.send(request(2, "nope/unknown"), headers_for("nope/unknown"))
        params = {"name": "echo", "arguments": {"message": "x"}}
        await transport.send(request(3, "tools/call", params), headers_for("tools/call", "not-echo"))
        await sink.until(lambda: all(sink.answer(i) for i in (1, 2, 3)))
        await transport.close()

    run(body)
    discover = sink.answer(1)
    assert discover is not None and MODERN in discover["result"]["supportedVersions"]
    unknown, mismatch = sink.answer(2), sink.answer(3)
    assert unknown is not None and unknown["error"]["code"] == -32601
    assert mismatch is not None and mismatch["error"]["code"] == -32020
    statuses = {e.carried_ids[0]: e.status for e in sink.exchanges("POST") if e.carried_ids}
    assert statuses == {1: 200, 2: 404, 3: 400}
    assert not sink.failures() and not sink.of(SessionExpired)
    assert not sink.exchanges("GET") and not sink.exchanges("DELETE")


# -- broken streams, cancellation -----------------------------------------------------------------------------------


def test_a_broken_or_ended_stream_fails_its_request_with_one_line(server: ModernHttpServer) -> None:
    sink = Sink()

    async def body() -> None:
        transport = StreamableHttpTransport(server.url())
        transport.set_era(Era.MODERN)
        await transport.start(sink)
        await call(transport, 1, "drop")
        await call(transport, 2, "end")
        await sink.until(lambda: len(sink.failures()) == 2)
        await asyncio.sleep(0.2)
        await transport.close()

    run(body)
    by_id = {f.request_ids: f.message for f in sink.failures()}
    assert set(by_id) == {(1,), (2,)} and len(sink.failures()) == 2
    assert by_id[(1,)].startswith("the response stream broke before the answer arrived (stream broke: ")
    assert by_id[(1,)].endswith(f"; {MODERN} streams cannot be resumed: the request must be sent again")
    assert by_id[(2,)] == (
        f"the response stream was closed by the server before the answer arrived; {MODERN} streams cannot be "
        "resumed: the request must be sent again"
    )
    assert all("\n" not in message for message in by_id.values())
    progress = [m for m in sink.messages() if m.get("method") == "notifications/progress"]
    assert len(progress) == 2  # what the streams carried before they ended was delivered
    assert server.rpc_methods() == ["tools/call", "tools/call"] and not server.seen("GET")


@pytest.mark.parametrize("tool", ["hold", "hold_json"])
def test_abandon_closes_the_exchange_and_the_server_sees_it(server: ModernHttpServer, tool: str) -> None:
    sink = Sink()

    async def body() -> None:
        transport = StreamableHttpTransport(server.url())
        transport.set_era(Era.MODERN)
        await transport.start(sink)
        await call(transport, 7, tool)
        if tool == "hold":  # the answer's stream is open
            await sink.until(lambda: any(e.note == "SSE response stream" for e in sink.exchanges("POST")))
        else:  # the POST is waiting for the answer's headers
            await sink.until(lambda: server.rpc_methods() == ["tools/call"])
            await asyncio.sleep(0.1)
        before = len(sink.events)
        transport.abandon([7])
        await sink.until(lambda: server.closed_by_client == [7], timeout=5)
        await asyncio.sleep(0.1)
        after = sink.events[before:]
        assert [type(e) for e in after] == [HttpExchange]  # no SendFailed, no frame: only the close, recorded
        closed = after[0]
        assert isinstance(closed, HttpExchange) and closed.note == "closed by the client (this cancels the request)"
        assert closed.status == (200 if tool == "hold" else None)
        assert dict(closed.request_headers)["mcp-name"] == tool
        await transport.close()

    run(body)


def test_cancelled_notification_is_not_posted_in_the_modern_era(server: ModernHttpServer) -> None:
    sink = Sink()
    cancelled = json.dumps(
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "reason": "user"}}
    ).encode()

    async def body() -> None:
        transport = StreamableHttpTransport(server.url())
        transport.set_era(Era.MODERN)
        await transport.start(sink)
        await transport.send(cancelled)
        assert not server.seen()
        transport.set_era(Era.HANDSHAKE)  # the handshake-era transport POSTs it as before
        assert not transport.cancels_by_closing
        await transport.send(cancelled)
        await transport.close()

    run(body)
    assert server.rpc_methods() == ["notifications/cancelled"]
    assert any(e.message.startswith("notifications/cancelled not POSTed") for e in sink.of(TransportNote))


def test_a_header_that_cannot_be_sent_fails_the_message_unsent(server: ModernHttpServer) -> None:
    sink = Sink()

    async def body() -> None:
        transport = StreamableHttpTransport(server.url())
        transport.set_era(Era.MODERN)
        await transport.start(sink)
        await transport.send(request(1, "tools/call", {"name": "x"}), headers_for("tools/call", "bad\r\nX-Evil: 1"))
        await transport.send(request(2, "server/discover"), {**headers_for("server/discover"), "Mcp-Session-Id": "x"})
        await transport.close()

    run(body)
    assert [(f.request_ids, f.message) for f in sink.failures()] == [
        ((1,), "cannot send the tools/call: the value of Mcp-Name cannot be sent as it is: it holds the control "
         "character U+000D at position 3"),
        ((2,), "cannot send the server/discover: Mcp-Session-Id is set by the transport itself"),
    ]  # fmt: skip
    assert not server.seen()


# -- back to the handshake era on the same object ------------------------------------------------------------------


def test_handshake_after_modern_on_the_same_transport_behaves_as_today(demo_url: str) -> None:
    sink = Sink()
    initialize = {
        "jsonrpc": "2.0",
        "id": 10,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
    }

    async def body() -> StreamableHttpTransport:
        transport = StreamableHttpTransport(demo_url, sse_fallback=True)
        transport.set_era(Era.MODERN)
        await transport.start(sink)
        await transport.send(request(1, "server/discover"), headers_for("server/discover"))
        await sink.until(lambda: sink.answer(1))
        assert transport.session_id is None
        transport.set_era(Era.HANDSHAKE)
        transport.set_era(Era.HANDSHAKE)  # again: nothing changes
        await transport.send(json.dumps(initialize).encode())
        await sink.until(lambda: sink.answer(10))
        answer = sink.answer(10)
        assert answer is not None and answer["result"]["protocolVersion"] == "2025-11-25"
        assert transport.session_id  # adopted, as today
        transport.on_negotiated("2025-11-25")
        await transport.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        await transport.send(b'{"jsonrpc":"2.0","id":11,"method":"tools/list"}')
        await sink.until(lambda: sink.answer(11) and sink.exchanges("GET"))
        await transport.close()
        return transport

    transport = run(body)
    assert not transport.fell_back
    posts = [dict(e.request_headers) for e in sink.exchanges("POST") if not e.note.startswith("stream done")]
    discover, init, initialized, tools = posts
    assert "mcp-session-id" not in discover and discover["mcp-method"] == "server/discover"
    assert "mcp-session-id" not in init and "mcp-protocol-version" not in init and "mcp-method" not in init
    sid = initialized["mcp-session-id"]
    assert tools["mcp-session-id"] == sid and tools["mcp-protocol-version"] == "2025-11-25"
    assert initialized["mcp-protocol-version"] == "2025-11-25"
    get = sink.exchanges("GET")[0]
    assert get.status == 200 and dict(get.request_headers)["mcp-session-id"] == sid
    delete = sink.exchanges("DELETE")
    assert len(delete) == 1 and delete[0].status == 200 and dict(delete[0].request_headers)["mcp-session-id"] == sid
    assert not sink.failures()


def test_leaving_the_handshake_era_ends_its_session_and_switching_back_starts_fresh(demo_url: str) -> None:
    sink = Sink()
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
    }

    async def body() -> None:
        transport = StreamableHttpTransport(demo_url)
        await transport.start(sink)
        await transport.send(json.dumps(initialize).encode())
        await sink.until(lambda: sink.answer(1))
        old = transport.session_id
        assert old
        transport.on_negotiated("2025-11-25")
        await transport.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        await sink.until(lambda: sink.exchanges("GET"))
        transport.set_era(Era.MODERN)
        assert transport.session_id is None and transport.protocol_version is None
        await sink.until(lambda: sink.exchanges("DELETE"))
        await transport.send(request(2, "server/discover"), headers_for("server/discover"))
        await sink.until(lambda: sink.answer(2))
        transport.set_era(Era.HANDSHAKE)
        await transport.send(json.dumps({**initialize, "id": 3}).encode())
        await sink.until(lambda: sink.answer(3))
        assert transport.session_id and transport.session_id != old
        await transport.close()

        delete = sink.exchanges("DELETE")
        assert [dict(e.request_headers)["mcp-session-id"] for e in delete] == [old, transport.session_id]
        assert dict(delete[0].request_headers)["mcp-protocol-version"] == "2025-11-25"
        posts = [dict(e.request_headers) for e in sink.exchanges("POST") if not e.note.startswith("stream done")]
        assert "mcp-session-id" not in posts[2] and "mcp-protocol-version" not in posts[3]  # discover, 2nd init
        assert "mcp-session-id" not in posts[3]

    run(body)


def test_legacy_fallback_is_probed_in_the_handshake_era_only() -> None:
    sink = Sink()
    demo = Launched([sys.executable, "-m", "inspector.demo", "--sse", "0"], cwd=REPO)
    try:
        url = demo.wait_for_line(r"listening on (http://127\.0\.0\.1:\d+/sse)")

        async def body() -> StreamableHttpTransport:
            transport = StreamableHttpTransport(url, sse_fallback=True)
            transport.set_era(Era.MODERN)
            await transport.start(sink)
            await transport.send(request(1, "server/discover"), headers_for("server/discover"))
            await sink.until(lambda: sink.failures())
            assert not transport.fell_back and not sink.exchanges("GET")  # the connection falls back, not this
            transport.set_era(Era.HANDSHAKE)
            init = {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2024-11-05",
                    "capabilities": {},
                    "clientInfo": {"name": "t", "version": "0"},
                },
            }
            await transport.send(json.dumps(init).encode())
            await sink.until(lambda: sink.answer(2))
            assert transport.fell_back
            await transport.close()
            return transport

        run(body)
    finally:
        demo.stop()
    failed = sink.failures()
    assert len(failed) == 1 and failed[0].request_ids == (1,) and failed[0].message.startswith("HTTP 405")
