"""The bundled demo server in this process (``inspector.demo.in_memory``): a Connection over ``MemoryTransport``
behaves as over stdio, in each era the demo answers, server requests included."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import pytest
from asynckit import run

from inspector.client.connection import Connection
from inspector.client.discover_cache import DiscoverCache
from inspector.client.handlers import HeadlessHandlers
from inspector.demo.eras import Era as ServerEra
from inspector.demo.in_memory import demo_transport
from inspector.protocol.session import Timeouts
from inspector.protocol.versions import Era
from inspector.protocol.wire import Direction, Kind, WireMessage
from inspector.transports.base import StderrLine, TransportEvent

pytestmark = [
    # The SDK marks logging, subscribe, sampling and roots as deprecated for 2026-07-28; the demo covers them anyway.
    pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning"),
]

CAPS: dict[str, Any] = {"sampling": {}, "elicitation": {"form": {}}, "roots": {}}


def connect(server_era: ServerEra, era: str, **kw: Any) -> Connection:
    kw.setdefault("discover_cache", DiscoverCache())
    kw.setdefault("capabilities", CAPS)
    kw.setdefault("timeouts", Timeouts(request=20))
    return Connection(demo_transport(server_era), protocol_era=era, **kw)


@pytest.mark.parametrize(
    ("server", "asked", "chosen"),
    [
        ("both", "auto", Era.MODERN),
        ("both", "legacy", Era.HANDSHAKE),
        ("modern", "modern", Era.MODERN),
        ("legacy", "auto", Era.HANDSHAKE),
    ],
)
def test_lists_and_calls_tools_in_each_era(server: ServerEra, asked: str, chosen: Era) -> None:
    async def body() -> None:
        messages: list[WireMessage] = []
        async with connect(server, asked, on_message=messages.append) as conn:
            assert conn.server is not None
            assert conn.server.era is chosen
            assert conn.server.server_info["name"] == "inspector-demo"
            tools = await conn.list_tools()
            names = {t["name"] for t in tools["tools"]}
            assert {"echo", "add", "get_weather", "sample"} <= names
            echoed = await conn.call_tool("echo", {"message": "hi in memory"})
            assert echoed["content"][0]["text"] == "hi in memory"
            added = await conn.call_tool("add", {"a": 2, "b": 40})
            assert added["structuredContent"] == {"sum": 42}
            failed = await conn.call_tool("business_error", {})
            assert failed["isError"] is True
            await conn.ping()
            assert conn.violations == [], conn.violations
        # the log sees the frames themselves, as stdio carries them: one JSON-RPC message each
        incoming = [m for m in messages if m.direction is Direction.IN]
        assert incoming and all(m.kind is not Kind.INVALID for m in incoming)
        answer = next(m for m in incoming if m.method == "tools/call" and b"hi in memory" in m.raw)
        assert json.loads(answer.raw)["result"]["content"][0]["text"] == "hi in memory"

    run(body, timeout=60)


@pytest.mark.parametrize(("server", "asked"), [("both", "legacy"), ("modern", "modern")])
def test_server_requests_reach_the_handlers(server: ServerEra, asked: str) -> None:
    handlers = HeadlessHandlers(sampling_text="answered in memory")

    async def body() -> None:
        async with connect(server, asked, handlers=handlers) as conn:
            result = await conn.call_tool("sample", {"prompt": "hello"})
            assert result.get("isError") is not True, result
            assert "answered in memory" in json.dumps(result)

    run(body, timeout=60)


def test_each_connection_gets_a_fresh_server_and_its_close_is_expected() -> None:
    async def body() -> None:
        before: list[set[str]] = []
        for _ in range(2):
            transport = demo_transport("both")
            async with Connection(transport, protocol_era="legacy", discover_cache=DiscoverCache()) as conn:
                before.append({t["name"] for t in (await conn.list_tools())["tools"]})
                toggled = await conn.call_tool("toggle_tool", {"enabled": True})
                assert toggled.get("isError") is not True, toggled
                assert "bonus_tool" in {t["name"] for t in (await conn.list_tools())["tools"]}
                assert transport.is_running
            assert not transport.is_running
            assert conn.closed_event is not None and conn.closed_event.expected, conn.closed_event
        # what toggle_tool added lived in the first connection's server only
        assert "echo" in before[1] and "bonus_tool" not in before[1]
        assert before[0] == before[1]

    run(body, timeout=60)


def test_connecting_takes_no_process_start() -> None:
    """The point of it: a connection in well under what a Python process needs to start (~1 s with the SDK)."""

    async def body() -> float:
        began = time.perf_counter()
        async with connect("both", "legacy") as conn:
            await conn.list_tools()
        return time.perf_counter() - began

    run(body, timeout=60)  # the first one imports whatever the demo needs
    assert run(body, timeout=60) < 0.5


def test_cancelling_reaches_the_server_which_says_so_on_its_stderr() -> None:
    events: list[TransportEvent] = []

    async def body() -> None:
        async with connect("both", "legacy", on_transport_event=events.append) as conn:
            call = asyncio.ensure_future(conn.call_tool("slow", {"seconds": 30, "steps": 30}))
            await asyncio.sleep(0.3)
            call.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await call
            for _ in range(200):
                if any(isinstance(e, StderrLine) and "slow cancelled after" in e.line for e in events):
                    break
                await asyncio.sleep(0.02)

    run(body, timeout=60)
    lines = [e.line for e in events if isinstance(e, StderrLine)]
    assert any(line.startswith("inspector-demo: slow cancelled after") for line in lines), lines
