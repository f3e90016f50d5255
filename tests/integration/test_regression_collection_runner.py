"""The collection runner in process against the in-memory demo: both eras, bounded waits, a lost connection,
and only the named calls."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from inspector.client.connection import Connection
from inspector.client.discover_cache import DiscoverCache
from inspector.client.handlers import HeadlessHandlers
from inspector.demo.in_memory import demo_transport
from inspector.protocol.session import Timeouts
from inspector.regression.assertions import assertion_from_json
from inspector.regression.collection import Collection, SavedCall
from inspector.regression.runner import CallReport, run_collection

pytestmark = [pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")]

CAPS: dict[str, Any] = {"sampling": {}, "elicitation": {"form": {}}, "roots": {}}


def _call(name: str, method: str, params: dict[str, Any] | None, *raw: dict[str, Any], **kw: Any) -> SavedCall:
    return SavedCall(name, method, params, tuple(assertion_from_json(item, method) for item in raw), **kw)


COLLECTION = Collection(
    "runner",
    (
        _call(
            "echo",
            "tools/call",
            {"name": "echo", "arguments": {"message": "m"}},
            {"kind": "equals", "path": "$.content[0].text", "value": "m"},
        ),
        _call(
            "weather schema",
            "tools/call",
            {"name": "get_weather", "arguments": {"city": "Oslo"}},
            {"kind": "output_schema"},
            {"kind": "equals", "path": "$.structuredContent.city", "value": "Oslo"},
        ),
        _call(
            "rounds", "tools/call", {"name": "ask_all_at_once", "arguments": {}}, {"kind": "outcome", "expect": "ok"}
        ),
        _call(
            "sampling",
            "tools/call",
            {"name": "sample", "arguments": {"prompt": "hi"}},
            {"kind": "outcome", "expect": "ok"},
        ),
        _call(
            "slow", "tools/call", {"name": "slow", "arguments": {"seconds": 30}}, {"kind": "outcome"}, timeout_ms=300
        ),
        _call("unknown method", "no/such/method", {}, {"kind": "outcome", "expect": "error", "code": -32601}),
        _call("no schema", "tools/call", {"name": "echo", "arguments": {"message": "m"}}, {"kind": "output_schema"}),
        _call("renamed", "tools/call", {"name": "not_a_tool", "arguments": {}}, {"kind": "output_schema"}),
    ),
)


def _connect(era: str) -> Connection:
    return Connection(
        demo_transport("both"),
        protocol_era=era,
        discover_cache=DiscoverCache(),
        capabilities=CAPS,
        handlers=HeadlessHandlers(),
        timeouts=Timeouts(request=20),
    )


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_runner_in_both_eras(era: str) -> None:
    heard: list[CallReport] = []

    async def body() -> None:
        async with _connect(era) as conn:
            started = time.monotonic()
            report = await run_collection(conn, COLLECTION, timeout=20, on_call=heard.append)
            elapsed = time.monotonic() - started
            assert elapsed < 15, elapsed  # the slow call was cut at its 300 ms
            statuses = {call.call.name: call.status for call in report.calls}
            assert statuses == {
                "echo": "passed",
                "weather schema": "passed",
                "rounds": "passed",
                "sampling": "passed",
                "slow": "error",
                "unknown method": "passed",
                "no schema": "failed",
                "renamed": "failed",
            }
            slow = next(call for call in report.calls if call.call.name == "slow")
            assert slow.failure_line() == "outcome is ok: no answer: no answer within 0.3 s"
            assert 250 <= slow.observed.latency_ms < 5000
            assert (
                next(c for c in report.calls if c.call.name == "no schema")
                .failure_line()
                .endswith("the tool declares no outputSchema")
            )
            assert (
                next(c for c in report.calls if c.call.name == "renamed")
                .failure_line()
                .endswith("the tool is not in the server's tools/list")
            )
            assert report.server["era"] == ("modern" if era == "modern" else "handshake")
            assert not report.passed
            # the connection is still usable after the cut-off call
            assert (await conn.call_tool("echo", {"message": "after"}))["content"][0]["text"] == "after"

    asyncio.run(body())
    assert [call.call.name for call in heard] == [saved.name for saved in COLLECTION.calls]


def test_only_the_named_calls_run_and_unknown_names_are_refused() -> None:
    async def body() -> None:
        async with _connect("modern") as conn:
            report = await run_collection(conn, COLLECTION, ["echo", "rounds"])
            assert [call.call.name for call in report.calls] == ["echo", "rounds"]
            assert report.passed and report.counts()["passed"] == 2
            with pytest.raises(KeyError, match="no call named 'nope'"):
                await run_collection(conn, COLLECTION, ["nope"])

    asyncio.run(body())


def test_calls_after_the_connection_closed_are_errors_not_hangs() -> None:
    async def body() -> None:
        conn = _connect("legacy")
        await conn.connect()
        await conn.close()
        started = time.monotonic()
        report = await run_collection(conn, COLLECTION, ["echo", "weather schema"], timeout=5)
        assert time.monotonic() - started < 2
        assert [call.status for call in report.calls] == ["error", "error"]
        assert "not connected" in report.calls[0].failure_line()

    asyncio.run(body())
