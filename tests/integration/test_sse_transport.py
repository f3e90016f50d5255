"""LegacySseTransport (2024-11-05 HTTP+SSE) through Connection: the demo server with ``--sse``, server-everything in
``sse`` mode, the fallback from Streamable HTTP, and clear errors for endpoints that are not legacy SSE."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

import nodetools
import pytest
from asynckit import run
from servers.http_misbehaving import Launched, MisbehavingHttpServer, free_port

from inspector.client.connection import Connection
from inspector.client.errors import ConnectFailed, ConnectionLost, NotConnected
from inspector.client.handlers import HeadlessHandlers
from inspector.protocol.session import Timeouts
from inspector.transports.base import HttpExchange, TransportClosed, TransportError, TransportEvent
from inspector.transports.http import StreamableHttpTransport
from inspector.transports.select import transport_for_target
from inspector.transports.sse import LegacySseTransport

REPO = str(Path(__file__).resolve().parents[2])
T = TypeVar("T")
DEMO_URL = r"listening on (http://127\.0\.0\.1:\d+/sse)"


def text_of(result: dict[str, Any]) -> str:
    return "".join(block.get("text", "") for block in result["content"])


def exchanges(events: list[TransportEvent], method: str) -> list[HttpExchange]:
    return [e for e in events if isinstance(e, HttpExchange) and e.method == method]


@pytest.fixture
def demo_sse() -> Iterator[Launched]:
    demo = Launched([sys.executable, "-m", "inspector.demo", "--sse", "0", "--clock-interval", "0.2"], cwd=REPO)
    try:
        yield demo
    finally:
        demo.stop()


def test_demo_over_legacy_sse(demo_sse: Launched) -> None:
    url = demo_sse.wait_for_line(DEMO_URL)
    events: list[TransportEvent] = []
    notes: list[str] = []

    async def body() -> None:
        transport = transport_for_target(url)
        assert isinstance(transport, LegacySseTransport)
        conn = Connection(
            transport,
            capabilities={"sampling": {}, "elicitation": {}},
            handlers=HeadlessHandlers(),
            timeouts=Timeouts(request=15),
            on_transport_event=events.append,
            on_notification=lambda n: notes.append(n.method),
            protocol_era="legacy",
        )
        async with conn:
            assert conn.server is not None and conn.server.server_info["name"] == "inspector-demo"
            assert transport.endpoint is not None and transport.endpoint.startswith(url.rsplit("/", 1)[0])
            assert "echo" in {t["name"] for t in (await conn.list_tools())["tools"]}
            steps: list[float] = []
            result = await conn.call_tool(
                "slow", {"seconds": 0.2, "steps": 2}, on_progress=lambda p, *_: steps.append(p)
            )
            assert text_of(result).startswith("Finished 2 steps") and steps == [1, 2]
            assert "automatic reply" in text_of(await conn.call_tool("sample", {}))
            await conn.subscribe_resource("demo://clock")
            while "notifications/resources/updated" not in notes:
                await asyncio.sleep(0.02)
        assert conn.violations == []

    run(body)
    posts = exchanges(events, "POST")
    assert posts and all(e.status == 202 for e in posts)
    assert any(e.carried_ids for e in posts)
    assert isinstance(events[-1], TransportClosed) and events[-1].expected


def test_fallback_from_streamable_http(demo_sse: Launched) -> None:
    url = demo_sse.wait_for_line(DEMO_URL)

    async def body() -> None:
        transport = StreamableHttpTransport(url, sse_fallback=True)
        async with Connection(transport, timeouts=Timeouts(request=15), protocol_era="legacy") as conn:
            assert transport.fell_back and transport.describe().endswith("(legacy HTTP+SSE)")
            assert text_of(await conn.call_tool("echo", {"message": "fell back"})) == "fell back"

    run(body)


def test_without_fallback_the_405_is_the_error(demo_sse: Launched) -> None:
    url = demo_sse.wait_for_line(DEMO_URL)

    async def body() -> None:
        conn = Connection(transport_for_target(url, transport="http"), protocol_era="legacy")
        with pytest.raises(ConnectFailed, match=r"^HTTP 405 Method Not Allowed"):
            await conn.connect()
        await conn.close()

    run(body)


def test_server_going_away_ends_the_transport(demo_sse: Launched) -> None:
    url = demo_sse.wait_for_line(DEMO_URL)

    async def body() -> None:
        conn = Connection(LegacySseTransport(url), timeouts=Timeouts(request=15), protocol_era="legacy")
        await conn.connect()
        slow = asyncio.ensure_future(conn.call_tool("slow", {"seconds": 30, "steps": 30}))
        await asyncio.sleep(0.3)
        demo_sse.proc.kill()
        with pytest.raises(ConnectionLost, match="SSE stream"):
            await slow
        assert conn.closed_event is not None and not conn.closed_event.expected
        with pytest.raises(NotConnected):
            await conn.ping()
        await conn.close()

    run(body)


# -- clear errors -------------------------------------------------------------------------------------------------


def start_error(url: str, **kwargs: Any) -> str:
    async def body() -> str:
        transport = LegacySseTransport(url, **kwargs)
        with pytest.raises(TransportError) as caught:
            await transport.start(lambda _event: None)
        await transport.close()
        return str(caught.value)

    return run(body)


def test_no_endpoint_event() -> None:
    with MisbehavingHttpServer() as server:
        message = start_error(server.url("/noendpoint"), endpoint_timeout=0.5)
    assert (
        message
        == f"the server sent no endpoint event within 0.5 s; is {server.url('/noendpoint')} a legacy HTTP+SSE endpoint?"
    )


def test_endpoint_on_another_origin_is_refused() -> None:
    with MisbehavingHttpServer() as server:
        message = start_error(server.url("/foreign"))
    assert message.startswith(
        "the endpoint event points to http://example.invalid/messages?session_id=1, another origin"
    )


def test_html_and_refused() -> None:
    with MisbehavingHttpServer() as server:
        assert start_error(server.url("/html")).startswith("the server answered with an HTML page (status 200")
    url = f"http://127.0.0.1:{free_port()}/sse"
    assert start_error(url) == f"cannot connect to {url}: connection refused"


# -- server-everything ----------------------------------------------------------------------------------------------


@pytest.mark.node
def test_server_everything_sse() -> None:
    cmd = nodetools.require_server_everything("sse")
    port = free_port()
    # server-everything listens on all interfaces; acceptable here because the test machine has no network.
    server = Launched(cmd, env={**os.environ, "PORT": str(port)})
    try:
        server.wait_for_port(port)

        async def body() -> None:
            transport = transport_for_target(f"http://127.0.0.1:{port}/sse")
            assert isinstance(transport, LegacySseTransport)
            async with Connection(transport, timeouts=Timeouts(request=15), protocol_era="legacy") as conn:
                assert "echo" in {t["name"] for t in (await conn.list_tools())["tools"]}
                assert "hello" in text_of(await conn.call_tool("echo", {"message": "hello"}))
                assert (await conn.list_prompts())["prompts"]

        run(body)
    finally:
        server.stop()
