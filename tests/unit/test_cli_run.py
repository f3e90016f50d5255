"""Pieces of the CLI run path that need no server: failures (kinds, exit codes, envelopes), client
capabilities, early start."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

import pytest

from inspector.cli.early import EarlyTransport
from inspector.cli.exitcodes import ExitCode
from inspector.cli.failures import _closed_line, is_unreachable
from inspector.cli.run import _failure_from, client_capabilities
from inspector.client.errors import ConnectFailed, InvalidResponse, RemoteError, RequestTimeout
from inspector.client.renewal import DeliveryFailed
from inspector.transports.base import (
    EventSink,
    StderrLine,
    Transport,
    TransportClosed,
    TransportError,
    TransportEvent,
    TransportNote,
)
from inspector.transports.http_common import HttpAuthError, HttpError


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
    assert remote.exit_code == ExitCode.ERROR
    assert remote.to_json() == {
        "code": "error", "message": "Unknown tool: x", "kind": "protocol", "jsonrpcCode": -32602,
        "data": {"k": 1}, "method": "tools/call",
    }  # fmt: skip
    assert remote.line() == "error: tools/call failed: server returned error -32602: Unknown tool: x"
    assert "data" not in _failure_from(RemoteError(-1, "m"), None).to_json()
    # the server's message as it sent it (some SDKs put "MCP error <code>: " into it themselves)
    assert _failure_from(RemoteError(-32602, "MCP error -32602: gone"), None).message == "MCP error -32602: gone"

    timeout = _failure_from(RequestTimeout("tools/call timed out after 5 s without an answer"), None)
    assert timeout.exit_code == ExitCode.ERROR and "--timeout" in timeout.message
    invalid = _failure_from(InvalidResponse("tools/call: both"), None)
    assert (invalid.exit_code, invalid.kind) == (ExitCode.ERROR, "protocol")
    spawn = _failure_from(ConnectFailed("command not found: nope"), None)
    assert (spawn.exit_code, spawn.line()) == (ExitCode.ERROR, "error: command not found: nope")
    assert spawn.to_json()["code"] == "error"
    refused = _failure_from(ConnectFailed("initialize refused", -32602), None)
    assert (refused.kind, refused.to_json()["jsonrpcCode"]) == ("protocol", -32602)
    other = _failure_from(RuntimeError(), None)
    assert other.exit_code == ExitCode.ERROR and other.message == "RuntimeError"


def test_unreachable_and_auth_failures() -> None:
    unreachable = _failure_from(ConnectFailed("cannot connect to http://127.0.0.1:9/mcp: connection refused"), None)
    assert (unreachable.exit_code, unreachable.to_json()["code"]) == (ExitCode.UNREACHABLE, "unreachable")
    dns = _failure_from(ConnectFailed("cannot connect to http://x.invalid/mcp: host 'x.invalid' not found"), None)
    assert dns.exit_code == ExitCode.UNREACHABLE
    assert not is_unreachable("server process exited (exit status 1)")

    def delivered(error: Exception) -> ConnectFailed:
        try:
            raise ConnectFailed("initialize could not be delivered") from DeliveryFailed("HTTP 401", error)  # type: ignore[arg-type]
        except ConnectFailed as exc:
            return exc

    auth = _failure_from(delivered(HttpAuthError("401", status=401, url="http://h/mcp")), None)
    assert auth.exit_code == ExitCode.AUTH_REQUIRED
    assert auth.to_json() == {
        "code": "auth_required", "message": "initialize could not be delivered", "status": 401, "url": "http://h/mcp",
        "kind": "auth",
    }  # fmt: skip
    forbidden = _failure_from(DeliveryFailed("HTTP 403", HttpAuthError("403", status=403)), None)
    assert forbidden.exit_code == ExitCode.AUTH_REQUIRED
    # an error status that is not about authorization, even with "cannot connect" in its text, is exit 1
    server_down = _failure_from(delivered(HttpError("cannot connect: HTTP 502", status=502)), None)
    assert (server_down.exit_code, server_down.to_json()["status"]) == (ExitCode.ERROR, 502)


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
