"""The Connection in both eras against real servers: era selection (legacy / modern / auto and its fallback),
multi-round-trip requests answered through the same handlers as server requests, and what each era's
API calls turn into.

Servers: the bundled demo (official SDK, ``--era legacy|modern|both``) over stdio and Streamable HTTP, and
the misbehaving fixture (a handshake-only server that answers server/discover -32601, or never).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from asynckit import run
from clikit import run_inspector
from demowire import demo_http

from inspector.client.connection import Connection
from inspector.client.discover_cache import DiscoverCache
from inspector.client.errors import ConnectFailed, RemoteError
from inspector.client.handlers import HeadlessHandlers, RequestInfo, current_request
from inspector.protocol.session import Timeouts
from inspector.protocol.versions import MODERN_VERSION, Era
from inspector.protocol.wire import Direction, Kind, WireMessage
from inspector.transports.base import Transport
from inspector.transports.http import StreamableHttpTransport
from inspector.transports.stdio import StdioTransport

REPO = Path(__file__).resolve().parents[2]
MISBEHAVING = str(REPO / "tests" / "servers" / "misbehaving.py")
CAPS = {"sampling": {}, "elicitation": {"form": {}}, "roots": {}}


def demo_stdio(era: str = "both") -> Transport:
    return StdioTransport(sys.executable, ["-m", "inspector.demo", "--era", era], cwd=str(REPO))


def misbehaving(mode: str) -> Transport:
    return StdioTransport(sys.executable, [MISBEHAVING, "--mode", mode])


class Noting(HeadlessHandlers):
    """Headless answers, remembering which request each one answered."""

    def __init__(self) -> None:
        super().__init__(roots=[{"uri": "file:///tmp/demo", "name": "demo"}])
        self.seen: list[RequestInfo | None] = []

    async def create_message(self, params: dict[str, Any]) -> dict[str, Any]:
        self.seen.append(current_request.get())
        return await super().create_message(params)

    async def elicit(self, params: dict[str, Any]) -> dict[str, Any]:
        self.seen.append(current_request.get())
        return await super().elicit(params)

    async def list_roots(self, params: dict[str, Any]) -> dict[str, Any]:
        self.seen.append(current_request.get())
        return await super().list_roots(params)


def connect(transport: Transport, era: str, **kw: Any) -> Connection:
    kw.setdefault("discover_cache", DiscoverCache())  # each test its own: no answers from other tests
    kw.setdefault("capabilities", CAPS)
    kw.setdefault("timeouts", Timeouts(request=20))
    return Connection(transport, protocol_era=era, **kw)


# ---------------------------------------------------------------------------- era selection


@pytest.mark.parametrize(
    ("server", "asked", "chosen", "why"),
    [
        ("both", "auto", Era.MODERN, "answered server/discover"),
        ("both", "legacy", Era.HANDSHAKE, "legacy asked for"),
        ("both", "modern", Era.MODERN, "modern asked for"),
        ("modern", "auto", Era.MODERN, "answered server/discover"),
        ("legacy", "auto", Era.HANDSHAKE, "so initialize"),
    ],
)
def test_the_demo_over_stdio_in_each_era(server: str, asked: str, chosen: Era, why: str) -> None:
    async def body() -> None:
        async with connect(demo_stdio(server), asked) as conn:
            assert conn.server is not None
            assert conn.server.era is chosen
            assert why in conn.server.era_reason
            assert conn.server.server_info["name"] == "inspector-demo"
            tools = await conn.list_tools()
            assert "echo" in {t["name"] for t in tools["tools"]}
            result = await conn.call_tool("echo", {"message": "hi"})
            assert result["content"][0]["text"] == "hi"
            await conn.ping()
            assert conn.violations == [], conn.violations

    run(body, timeout=60)


def test_a_modern_only_server_refuses_legacy_with_one_clear_line() -> None:
    async def body() -> None:
        conn = connect(demo_stdio("modern"), "legacy")
        with pytest.raises(ConnectFailed, match="initialize"):
            await conn.connect()
        await conn.close()

    run(body)


@pytest.mark.parametrize(("mode", "why"), [("none", "was refused"), ("ignore-discover", "got no answer within")])
def test_auto_falls_back_to_initialize_whatever_the_legacy_server_does(mode: str, why: str) -> None:
    notes: list[str] = []

    async def body() -> None:
        conn = connect(
            misbehaving(mode), "auto", discover_timeout=1.0,
            on_transport_event=lambda e: notes.append(getattr(e, "message", "")),
        )  # fmt: skip
        async with conn:
            assert conn.server is not None
            assert conn.server.era is Era.HANDSHAKE
            assert why in conn.server.era_reason
            assert conn.server.protocol_version == "2025-11-25"
            result = await conn.call_tool("t", {"text": "hello"})
            assert "hello" in json.dumps(result)

    t0 = time.monotonic()
    run(body)
    assert any("trying initialize" in n for n in notes), notes
    assert time.monotonic() - t0 < 15


def test_modern_against_a_legacy_server_fails_without_falling_back() -> None:
    async def body() -> None:
        conn = connect(misbehaving("none"), "modern")
        with pytest.raises(ConnectFailed, match="server/discover"):
            await conn.connect()
        await conn.close()

    run(body)


def test_the_demo_over_http_in_each_era() -> None:
    with demo_http("--era", "both") as url:

        async def body() -> None:
            for asked, chosen in (("auto", Era.MODERN), ("legacy", Era.HANDSHAKE), ("modern", Era.MODERN)):
                messages: list[WireMessage] = []
                conn = connect(StreamableHttpTransport(url), asked, on_message=messages.append)
                async with conn:
                    assert conn.server is not None and conn.server.era is chosen
                    result = await conn.call_tool("echo", {"message": "over http"})
                    assert result["content"][0]["text"] == "over http"
                out = [m for m in messages if m.direction is Direction.OUT and m.kind is Kind.REQUEST]
                if chosen is Era.MODERN:
                    assert all(m.headers.get("MCP-Protocol-Version") == MODERN_VERSION for m in out)
                    assert {m.headers.get("Mcp-Method") for m in out} >= {"server/discover", "tools/call"}
                else:
                    assert all(not m.headers for m in out)

        run(body, timeout=60)


# ---------------------------------------------------------------------------- multi round trip


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_mrtr_of_each_kind_goes_through_the_same_handlers(transport: str) -> None:
    handlers = Noting()

    async def body(url: str | None) -> None:
        t = StreamableHttpTransport(url) if url else demo_stdio("modern")
        messages: list[WireMessage] = []
        async with connect(t, "modern", handlers=handlers, on_message=messages.append) as conn:
            result = await conn.call_tool("ask_all_at_once", {})
            assert result.get("isError") is not True, result
            kinds = {info.method for info in handlers.seen if info is not None}
            assert kinds == {"elicitation/create", "sampling/createMessage", "roots/list"}
            assert all(info is not None and info.asked_by == "tools/call" for info in handlers.seen)
            handlers.seen.clear()
            two = await conn.call_tool("ask_twice", {})
            assert two.get("isError") is not True, two
            assert len(handlers.seen) == 2  # two rounds, one elicitation each
            handlers.seen.clear()
            prompt = await conn.get_prompt("greet_me", {})
            assert prompt["messages"], prompt
            read = await conn.read_resource("demo://files/vault/recipe")
            # the headless answer to "reveal it?" is the form's minimal value (no), so it stays hidden
            assert read["contents"][0]["text"] == "(not revealed)\n"
            assert [(i.asked_by, i.input_key) for i in handlers.seen if i is not None] == [
                ("prompts/get", "name"),
                ("resources/read", "reveal"),
            ]
        calls = [json.loads(m.raw) for m in messages if m.direction is Direction.OUT and m.method == "tools/call"]
        ids = [c["id"] for c in calls]
        assert len(ids) == len(set(ids)) >= 3  # every round its own id
        retries = [c for c in calls if "inputResponses" in c["params"] or "requestState" in c["params"]]
        assert retries, calls

    if transport == "http":
        with demo_http("--era", "modern") as url:
            run(lambda: body(url), timeout=60)
    else:
        run(lambda: body(None), timeout=60)


def test_request_state_is_echoed_exactly() -> None:
    async def body() -> None:
        messages: list[WireMessage] = []
        async with connect(demo_stdio("modern"), "modern", on_message=messages.append) as conn:
            result = await conn.call_tool("retry_with_state", {})
            assert result.get("isError") is not True, result
        answers = [json.loads(m.raw) for m in messages if m.direction is Direction.IN and m.kind is Kind.RESPONSE]
        states = [a["result"]["requestState"] for a in answers if a.get("result", {}).get("requestState")]
        echoes = [
            json.loads(m.raw)["params"].get("requestState")
            for m in messages
            if m.direction is Direction.OUT and m.method == "tools/call"
        ]
        assert states and states[0] in echoes

    run(body)


def test_in_the_modern_era_logging_level_rides_in_meta_and_ping_is_discover() -> None:
    async def body() -> None:
        messages: list[WireMessage] = []
        async with connect(demo_stdio("modern"), "modern", on_message=messages.append) as conn:
            assert await conn.set_logging_level("debug") == {}
            await conn.list_tools()
            await conn.ping()
            await conn.send_roots_list_changed()  # no such notification in 2026-07-28: nothing is sent
        out = [json.loads(m.raw) for m in messages if m.direction is Direction.OUT]
        methods = [m["method"] for m in out]
        assert "logging/setLevel" not in methods and "ping" not in methods
        assert "notifications/roots/list_changed" not in methods
        listed = next(m for m in out if m["method"] == "tools/list")
        assert listed["params"]["_meta"]["io.modelcontextprotocol/logLevel"] == "debug"
        assert methods.count("server/discover") == 2

    run(body)


# ---------------------------------------------------------------------------- subscriptions/listen


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_listen_acknowledges_a_subset_routes_by_id_and_closes(transport: str) -> None:
    async def body(url: str | None) -> None:
        t = StreamableHttpTransport(url) if url else demo_stdio("modern")
        async with connect(t, "modern") as conn:
            got: list[str] = []
            sub = await conn.listen(
                {"toolsListChanged": True, "resourceSubscriptions": ["demo://clock", "demo://nowhere"]},
                lambda ev: got.append(ev.method),
            )
            assert sub.acknowledged is not None and sub.acknowledged.get("toolsListChanged") is True
            assert sub.refused == {"resourceSubscriptions": ["demo://nowhere"]}
            assert any("demo://nowhere" in d.message for d in conn.diagnostics)
            await conn.call_tool("toggle_tool", {})
            for _ in range(100):
                if "notifications/tools/list_changed" in got and "notifications/resources/updated" in got:
                    break
                await asyncio.sleep(0.05)
            assert "notifications/tools/list_changed" in got
            assert "notifications/resources/updated" in got  # the clock ticks
            await sub.close()
            assert not sub.active
            before = len(got)
            await asyncio.sleep(0.5)
            assert len(got) == before  # nothing is routed after close

    if transport == "http":
        with demo_http("--era", "modern", "--clock-interval", "0.2") as url:
            run(lambda: body(url), timeout=60)
    else:
        run(lambda: body(None), timeout=60)


def test_subscribe_resource_in_the_modern_era_rides_on_listen() -> None:
    async def body() -> None:
        updates: list[Any] = []
        conn = connect(
            StdioTransport(sys.executable, ["-m", "inspector.demo", "--era", "modern", "--clock-interval", "0.2"]),
            "modern",
            on_notification=lambda ev: updates.append(ev) if ev.method == "notifications/resources/updated" else None,
        )
        async with conn:
            assert await conn.subscribe_resource("demo://clock") == {}
            for _ in range(60):
                if updates:
                    break
                await asyncio.sleep(0.05)
            assert updates and updates[0].params["uri"] == "demo://clock"
            with pytest.raises(RemoteError, match="did not acknowledge"):
                await conn.subscribe_resource("demo://nowhere")
            await conn.unsubscribe_resource("demo://clock")
            await conn.unsubscribe_resource("demo://nowhere")
            n = len(updates)
            await asyncio.sleep(0.6)
            assert len(updates) <= n + 1  # at most one already on the way

    run(body)


# ---------------------------------------------------------------------------- the result cache


def test_fresh_results_come_from_the_cache_and_fresh_true_asks_again() -> None:
    async def body() -> None:
        messages: list[WireMessage] = []
        notes: list[str] = []
        conn = connect(
            demo_stdio("modern"), "modern", on_message=messages.append,
            on_transport_event=lambda e: notes.append(getattr(e, "message", "")),
        )  # fmt: skip
        async with conn:

            def asked(method: str) -> int:
                return sum(1 for m in messages if m.direction is Direction.OUT and m.method == method)

            first = await conn.list_resource_templates()  # the demo: ttlMs 1 h, public
            again = await conn.list_resource_templates()
            assert again == first and asked("resources/templates/list") == 1
            assert any("answered from the cache" in n for n in notes)
            await conn.list_resource_templates(fresh=True)
            assert asked("resources/templates/list") == 2
            await conn.list_tools()
            await conn.list_tools()
            assert asked("tools/list") == 2  # ttlMs 0: never cached
            entries = conn.cache.entries()
            assert [e.cached.method for e in entries] == ["server/discover", "resources/templates/list"]
            assert all(e.fresh for e in entries)
            await conn.ping()
            await conn.ping()
            assert asked("server/discover") == 3  # the opening + two pings: a ping always asks

    run(body)


def test_a_public_discover_answer_is_reused_per_http_endpoint_and_per_connection() -> None:
    with demo_http("--era", "modern") as url:

        async def body() -> None:
            shared = DiscoverCache()
            reasons: list[str] = []
            sent: list[list[str]] = []
            for reuse in (True, True, False):
                messages: list[WireMessage] = []
                conn = connect(
                    StreamableHttpTransport(url), "auto", on_message=messages.append, discover_cache=shared,
                    reuse_discover=reuse,
                )  # fmt: skip
                async with conn:
                    assert conn.server is not None and conn.server.era is Era.MODERN
                    reasons.append(conn.server.era_reason)
                    await conn.discover()  # this connection's own answer, while fresh
                    await conn.list_tools()
                sent.append([m.method or "" for m in messages if m.direction is Direction.OUT])
            assert sent[0][:1] == ["server/discover"] and sent[0].count("server/discover") == 1
            assert "server/discover" not in sent[1]  # opened from the first connection's answer
            assert "earlier connection" in reasons[1]
            assert sent[2][:1] == ["server/discover"]  # reuse_discover=False asks the server

        run(body, timeout=60)


def test_over_stdio_the_answer_lives_as_long_as_the_process() -> None:
    async def body() -> None:
        for _ in range(2):
            messages: list[WireMessage] = []
            async with connect(demo_stdio("modern"), "modern", on_message=messages.append) as conn:
                await conn.discover()
                await conn.discover(fresh=True)
            out = [m.method for m in messages if m.direction is Direction.OUT]
            assert out.count("server/discover") == 2  # the opening (a new process each time) + the fresh one

    run(body)


# ---------------------------------------------------------------------------- the probe in 2026-07-28


def test_the_probe_explains_modern_errors_and_sends_header_values_that_need_base64() -> None:
    import subprocess

    from servers.http_misbehaving import Launched

    server = Launched([sys.executable, str(REPO / "tests" / "servers" / "headers_server.py")], cwd=str(REPO))
    try:
        url = server.wait_for_line(r"listening on (http://127\.0\.0\.1:\d+/mcp)")
        proc = subprocess.run(
            [sys.executable, "-m", "inspector", "--cli", "--probe", "--format", "json", url],
            capture_output=True, text=True, timeout=120, cwd=str(REPO), check=False,
        )  # fmt: skip
    finally:
        server.stop()
    report = json.loads(proc.stdout)
    assert report["server"]["era"]["chosen"] == "modern", report["server"]
    steps = {s.get("name"): s for s in report["steps"] if s["method"] == "tools/call"}
    refused = steps["needs_extension"]["error"]
    assert refused["code"] == -32021
    assert "io.example/ext" in refused["explanation"]
    # route's string argument mirrored into Region: the probe's value needs =?base64?...?= and the server
    # (the official SDK checks the headers against the body) accepted it
    assert steps["route"]["outcome"] == "ok", steps["route"]
    assert steps["route"]["arguments"]["region"] == "probe ✓ value"


def _cli(*args: str) -> Any:
    return run_inspector("--cli", *args)


DEMO_ARGV = [sys.executable, "-m", "inspector.demo"]


@pytest.mark.parametrize(
    ("flags", "server_era", "status", "says"),
    [
        (["--protocol-era", "legacy"], "modern", 1, "initialize"),
        (["--protocol-era", "modern"], "legacy", 1, "server/discover"),
        # usage errors exit 1, as the official CLI
        (["--protocol-version", "2026-07-28", "--protocol-era", "legacy"], "both", 1, "--protocol-era legacy"),
        (["--protocol-version", "2099-01-01"], "both", 1, "unknown version"),
        (["--protocol-era", "sideways"], "both", 1, "sideways"),
    ],
)
def test_cli_era_flags(flags: list[str], server_era: str, status: int, says: str) -> None:
    proc = _cli(*flags, "--method", "tools/list", "--", *DEMO_ARGV, "--era", server_era)
    assert proc.returncode == status, proc.stderr
    assert says in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("server_era", "chosen", "why"),
    [("legacy", "handshake", "so initialize"), ("both", "modern", "answered server/discover")],
)
def test_the_probe_report_says_which_era_and_why(server_era: str, chosen: str, why: str) -> None:
    proc = _cli("--probe", "--format", "json", *DEMO_ARGV, "--era", server_era)
    report = json.loads(proc.stdout)
    era = report["server"]["era"]
    assert (era["chosen"], era["asked"]) == (chosen, "auto")
    assert why in era["why"]
