"""Pieces of the CLI run path that need no server: error lines, client capabilities, early start."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

import pytest

from inspector.cli.early import EarlyTransport
from inspector.cli.exitcodes import ExitCode
from inspector.cli.run import _closed_line, _failure_from, client_capabilities
from inspector.client.errors import ConnectFailed, InvalidResponse, RemoteError, RequestTimeout
from inspector.transports.base import (
    EventSink,
    StderrLine,
    Transport,
    TransportClosed,
    TransportError,
    TransportEvent,
    TransportNote,
)


def test_closed_line() -> None:
    closed = TransportClosed("server process exited", exit_code=3, stderr_tail=("starting", "fatal: something broke"))
    assert _closed_line(closed, []) == "server process exited (exit status 3); last stderr: fatal: something broke"
    killed = TransportClosed("server process exited", signal=9)
    assert _closed_line(killed, ["from the connection", "  "]) == (
        "server process exited (killed by signal 9); last stderr: from the connection"
    )
    assert _closed_line(TransportClosed("server closed stdout but is still running"), []) == (
        "server closed stdout but is still running"
    )


def test_failures_from_client_errors() -> None:
    remote = _failure_from(RemoteError(-32602, "Unknown tool: x", {"k": 1}, method="tools/call"), None)
    assert remote.exit_code == ExitCode.PROTOCOL_ERROR
    assert remote.to_json() == {
        "kind": "protocol", "message": "Unknown tool: x", "code": -32602, "data": {"k": 1}, "method": "tools/call",
    }  # fmt: skip
    assert remote.line() == "error: tools/call failed: server returned error -32602: Unknown tool: x"
    assert "data" not in _failure_from(RemoteError(-1, "m"), None).to_json()

    timeout = _failure_from(RequestTimeout("tools/call timed out after 5 s without an answer"), None)
    assert timeout.exit_code == ExitCode.CONNECTION and "--timeout" in timeout.message
    invalid = _failure_from(InvalidResponse("tools/call: both"), None)
    assert invalid.exit_code == ExitCode.PROTOCOL_ERROR
    spawn = _failure_from(ConnectFailed("command not found: nope"), None)
    assert (spawn.exit_code, spawn.line()) == (ExitCode.CONNECTION, "error: command not found: nope")
    other = _failure_from(RuntimeError(), None)
    assert other.exit_code == ExitCode.CONNECTION and other.message == "RuntimeError"


@pytest.mark.parametrize(
    ("version", "elicitation"),
    [("2024-11-05", None), ("2025-03-26", None), ("2025-06-18", {}), ("2025-11-25", {"form": {}})],
)
def test_client_capabilities_follow_the_version(version: str, elicitation: object) -> None:
    caps = client_capabilities(version)
    assert caps["sampling"] == {} and caps["roots"] == {}
    assert caps.get("elicitation") == elicitation


class FakeTransport(Transport):
    def __init__(self, fail: bool = False) -> None:
        self.sink: EventSink | None = None
        self.sent: list[bytes] = []
        self.closed = False
        self.fail = fail

    async def start(self, sink: EventSink) -> None:
        if self.fail:
            raise TransportError("cannot start nope: No such file or directory")
        self.sink = sink
        sink(TransportNote("started"))
        sink(StderrLine("booting"))

    async def send(self, frame: bytes, headers: Mapping[str, str] | None = None) -> None:
        self.sent.append(frame)

    async def close(self) -> None:
        self.closed = True

    def describe(self) -> str:
        return "fake"


def test_early_transport_replays_then_forwards() -> None:
    async def scenario() -> list[TransportEvent]:
        inner = FakeTransport()
        early = EarlyTransport(inner)
        await early.prestart()
        assert inner.sink is not None
        inner.sink(StderrLine("still booting"))
        seen: list[TransportEvent] = []
        await early.start(seen.append)
        inner.sink(StderrLine("after start"))
        await early.send(b"{}")
        await early.close()
        assert inner.sent == [b"{}"] and inner.closed and early.describe() == "fake"
        with pytest.raises(TransportError):
            await early.start(seen.append)
        return seen

    seen = asyncio.run(scenario())
    assert seen == [
        TransportNote("started"), StderrLine("booting"), StderrLine("still booting"), StderrLine("after start"),
    ]  # fmt: skip


def test_early_transport_reports_a_failed_start_when_started() -> None:
    async def scenario() -> None:
        early = EarlyTransport(FakeTransport(fail=True))
        await early.prestart()  # does not raise here
        with pytest.raises(TransportError, match="cannot start nope"):
            await early.start(lambda event: None)

    asyncio.run(scenario())


def test_early_transport_starts_lazily_too() -> None:
    async def scenario() -> list[TransportEvent]:
        seen: list[TransportEvent] = []
        await EarlyTransport(FakeTransport()).start(seen.append)
        return seen

    assert len(asyncio.run(scenario())) == 2


@pytest.mark.parametrize(
    ("flags", "declared"),
    [
        ([], set()),
        (["--grant", "client_credentials", "--client-id", "c", "--client-secret", "s"],
         {"io.modelcontextprotocol/oauth-client-credentials", "io.modelcontextprotocol/auth/dpop"}),  # dpop: auto
        (["--grant", "client_credentials", "--client-id", "c", "--client-secret", "s", "--dpop", "off"],
         {"io.modelcontextprotocol/oauth-client-credentials"}),
    ],
)  # fmt: skip
def test_grant_flags_declare_their_auth_extension(flags: list[str], declared: set[str]) -> None:
    from inspector.cli.args import parse_args
    from inspector.cli.run import _with_auth_extensions

    opts = parse_args(["--cli", *flags, "https://example.com/mcp", "--method", "tools/list"])
    caps = _with_auth_extensions({"roots": {}}, opts)
    assert set(caps.get("extensions") or {}) == declared
    assert caps["roots"] == {}
