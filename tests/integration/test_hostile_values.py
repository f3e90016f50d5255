"""Values a server hands us to send back, and background failures: never an exception in a task, never a hang.

Over Streamable HTTP (tests/servers/http_misbehaving.py): a session id that cannot be sent back as it came
(non-ASCII, a control character, absurdly long) fails the handshake with one line at once; an SSE event id
that cannot go back as ``Last-Event-ID`` fails that request's resumption with one line (a non-ASCII one is
sent as UTF-8 and works). Over stdio (tests/servers/misbehaving.py): a transport whose ``send`` raises what it
must not, a recorder that breaks, a handler returning what cannot be sent: the connection fails with one line
and every pending request fails at once, or the server is answered with an error and the session goes on.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from asynckit import run
from servers.http_misbehaving import MisbehavingHttpServer

from inspector.client.connection import Connection
from inspector.client.errors import ConnectFailed, ConnectionLost, NotConnected
from inspector.client.handlers import HeadlessHandlers
from inspector.protocol.session import Timeouts
from inspector.protocol.wire import WireMessage
from inspector.transports.base import EventSink, SendFailed, Transport, TransportError, TransportEvent, TransportNote
from inspector.transports.http import StreamableHttpTransport
from inspector.transports.sse import LegacySseTransport
from inspector.transports.stdio import StdioTransport

STDIO_SERVER = str(Path(__file__).resolve().parents[1] / "servers" / "misbehaving.py")


@pytest.fixture
def server() -> Iterator[MisbehavingHttpServer]:
    with MisbehavingHttpServer() as running:
        yield running


def http_connection(server: MisbehavingHttpServer, events: list[TransportEvent], **kwargs: Any) -> Connection:
    kwargs.setdefault("timeouts", Timeouts(request=20))
    return Connection(
        StreamableHttpTransport(server.url()), on_transport_event=events.append, **kwargs, protocol_era="legacy"
    )


def text_of(result: dict[str, Any]) -> str:
    return "".join(block.get("text", "") for block in result["content"])


def settle() -> None:
    """Collect garbage so that a task exception nobody retrieved would be reported (to asynckit.run)."""
    gc.collect()


# ---------------------------------------------------------------------------------------------- session ids


@pytest.mark.parametrize(
    ("sid", "why"),
    [
        ("caf\xe9", "it holds the non-ASCII character U+00E9 at position 3"),
        ("a\x01b", "it holds the control character U+0001 at position 1"),
        ("a\x1b[2J", "it holds the control character U+001B at position 1"),
        ("s" * 9000, "it is 9000 characters long (more than 8192)"),
    ],
    ids=["non-ascii", "control", "escape", "long"],
)
def test_a_session_id_that_cannot_be_sent_back_fails_the_handshake_at_once(
    server: MisbehavingHttpServer, sid: str, why: str
) -> None:
    server.session_id = sid
    events: list[TransportEvent] = []

    async def body() -> None:
        conn = http_connection(server, events)
        began = time.monotonic()
        with pytest.raises(ConnectFailed) as caught:
            await conn.connect()
        assert time.monotonic() - began < 5
        message = str(caught.value)
        assert message.startswith("the server's session id ") and "cannot be sent back: " + why in message
        assert "(an Mcp-Session-Id must be visible ASCII, 0x21-0x7E)" in message
        assert message.isascii() and "\x1b" not in message and len(message) < 300
        with pytest.raises(NotConnected):
            await conn.ping()
        await conn.close()
        settle()

    run(body, timeout=30)
    assert server.rpc_methods() == ["initialize"]  # nothing was sent with (or without) the refused id
    assert next(e for e in events if isinstance(e, SendFailed)).message.startswith("the server's session id")


def test_a_session_id_with_a_space_is_used_with_a_note(server: MisbehavingHttpServer) -> None:
    server.session_id = "a b"
    events: list[TransportEvent] = []

    async def body() -> None:
        async with http_connection(server, events) as conn:
            assert await conn.ping() == {}

    run(body, timeout=30)
    notes = [e.message for e in events if isinstance(e, TransportNote)]
    assert "the session id 'a b' has characters outside visible ASCII (used anyway)" in notes
    assert server.seen("POST", "/mcp")[-1].headers["mcp-session-id"] == "a b"


def test_the_cli_says_why_in_one_line_and_the_probe_still_reports(server: MisbehavingHttpServer) -> None:
    server.session_id = "caf\xe9"
    argv = [sys.executable, "-m", "inspector", "--cli", server.url(), "--timeout", "10"]
    env = dict(os.environ)
    one = subprocess.run([*argv, "--method", "tools/list", "--format", "human"], capture_output=True, text=True,
                         timeout=60, env=env)  # fmt: skip
    probe = subprocess.run([*argv, "--probe"], capture_output=True, text=True, timeout=60, env=env)
    assert one.returncode == 1, one.stderr
    assert one.stdout == ""
    (line,) = one.stderr.splitlines()
    assert line.startswith("error: the server's session id 'caf\\xe9' cannot be sent back: it holds the non-ASCII")
    assert probe.returncode == 1, probe.stderr
    report = json.loads(probe.stdout)
    assert report["steps"][0]["method"] == "initialize" and report["steps"][0]["outcome"] == "error"
    assert "session id 'caf\\xe9' cannot be sent back" in report["steps"][0]["error"]["message"]
    assert "Traceback" not in one.stderr + probe.stderr


# ---------------------------------------------------------------------------------------------- event ids


def test_an_event_id_that_cannot_be_sent_back_fails_that_resumption_at_once(server: MisbehavingHttpServer) -> None:
    server.event_id_suffix = "\x01"
    server.drop_post_after = 1  # the slow tool's stream breaks after its first message: it must be resumed
    events: list[TransportEvent] = []

    async def body() -> None:
        async with http_connection(server, events) as conn:
            began = time.monotonic()
            with pytest.raises(ConnectFailed.__base__) as caught:  # DeliveryFailed (a ClientError)
                await conn.call_tool("slow", {})
            assert time.monotonic() - began < 5
            assert str(caught.value).startswith("cannot resume the response stream: the server's event id '")
            assert "cannot be sent back as Last-Event-ID: it holds the control character U+0001" in str(caught.value)
            assert text_of(await conn.call_tool("echo", {"text": "still here"})) == "echo: still here"
        settle()

    run(body, timeout=30)
    assert not [r for r in server.seen("GET", "/mcp") if "last-event-id" in r.headers]


def test_a_non_ascii_event_id_is_sent_back_as_utf8(server: MisbehavingHttpServer) -> None:
    server.event_id_suffix = "-é"
    server.drop_post_after = 1
    events: list[TransportEvent] = []

    async def body() -> None:
        async with http_connection(server, events) as conn:
            assert text_of(await conn.call_tool("slow", {})) == "slow done"

    run(body, timeout=30)
    (resumed,) = [r for r in server.seen("GET", "/mcp") if "last-event-id" in r.headers]
    assert resumed.headers["last-event-id"].encode("latin-1").decode("utf-8").endswith("-1-é")


# ---------------------------------------------------------------------------------------------- supervision


def test_a_header_httpx_cannot_encode_fails_the_connect_with_one_line(server: MisbehavingHttpServer) -> None:
    async def body() -> None:
        transport = StreamableHttpTransport(server.url(), headers={"X-Who": "Jos\xe9"})
        conn = Connection(transport, timeouts=Timeouts(request=20), protocol_era="legacy")
        with pytest.raises(ConnectFailed, match=r"^could not start http://127\.0\.0\.1:\d+/mcp: UnicodeEncodeError: "):
            await conn.connect()
        await conn.close()

    run(body, timeout=30)


class BuggyHttpTransport(StreamableHttpTransport):
    """Streamable HTTP with a bug in reading answers to ``tools/call`` (an exception in a POST's task)."""

    async def _answer(self, response: Any, started: float, frame: bytes, info: Any, sid: str | None) -> None:
        if info.method == "tools/call":
            raise AssertionError()
        await super()._answer(response, started, frame, info, sid)


def test_a_failing_http_task_ends_the_connection_at_once(server: MisbehavingHttpServer) -> None:
    events: list[TransportEvent] = []

    async def body() -> None:
        conn = Connection(
            BuggyHttpTransport(server.url()),
            on_transport_event=events.append,
            timeouts=Timeouts(30),
            protocol_era="legacy",
        )
        await conn.connect()
        began = time.monotonic()
        with pytest.raises(ConnectionLost) as caught:
            await conn.call_tool("echo", {"text": "x"})
        assert time.monotonic() - began < 5
        assert str(caught.value) == "internal error in the HTTP transport (http-post-tools/call): AssertionError"
        await conn.close()
        settle()

    run(body, timeout=30)
    assert server.seen("DELETE", "/mcp")  # closing still ended the session


class BreakingTransport(Transport):
    """A real stdio transport whose ``send`` raises an unexpected exception from the ``fail_at``-th frame on."""

    def __init__(self, inner: Transport, fail_at: int, exc: Exception) -> None:
        self.inner = inner
        self.fail_at = fail_at
        self.exc = exc
        self.sent = 0

    async def start(self, sink: EventSink) -> None:
        await self.inner.start(sink)

    async def send(self, frame: bytes, headers: Mapping[str, str] | None = None) -> None:
        self.sent += 1
        if self.sent >= self.fail_at:
            raise self.exc
        await self.inner.send(frame, headers)

    async def close(self) -> None:
        await self.inner.close()

    def describe(self) -> str:
        return self.inner.describe()


def stdio(mode: str = "none") -> StdioTransport:
    return StdioTransport(sys.executable, [STDIO_SERVER, "--mode", mode, "--max-lifetime", "60"])


@pytest.mark.parametrize(
    ("exc", "shown"),
    [(RuntimeError("boom"), "RuntimeError: boom"), (UnicodeError(), "UnicodeError"), (KeyError(""), "KeyError: ''")],
    ids=["message", "no message", "empty key"],
)
def test_a_send_that_raises_fails_the_connection_and_every_pending_request_at_once(exc: Exception, shown: str) -> None:
    events: list[TransportEvent] = []

    async def body() -> None:
        inner = stdio("silent")  # tools/call is never answered: only the failure can end it
        conn = Connection(
            BreakingTransport(inner, fail_at=4, exc=exc),
            on_transport_event=events.append,
            timeouts=Timeouts(30),
            protocol_era="legacy",
        )
        await conn.connect()  # initialize, notifications/initialized
        began = time.monotonic()
        waiting = asyncio.ensure_future(conn.call_tool("t", {"text": "never answered"}))  # frame 3: sent
        await asyncio.sleep(0.3)
        with pytest.raises(ConnectionLost) as caught:
            await conn.ping()  # frame 4: the transport raises
        with pytest.raises(ConnectionLost) as also:
            await waiting
        assert time.monotonic() - began < 5
        expected = f"the connection failed: the transport failed to send ping: {shown}"
        assert str(caught.value).startswith(expected) and str(also.value).startswith(expected)
        assert not conn.is_open
        with pytest.raises(NotConnected, match="the connection failed"):
            await conn.ping()
        await conn.close()
        assert inner.closed if hasattr(inner, "closed") else True
        settle()

    run(body, timeout=40)
    closed = [e for e in events if type(e).__name__ == "TransportClosed"]
    assert closed[0].reason.startswith("the connection failed: the transport failed to send ping")
    assert not closed[0].expected


class BreakingRecorder:
    """Records until the ``fail_at``-th message, then raises (a full disk, a bug)."""

    def __init__(self, fail_at: int) -> None:
        self.fail_at = fail_at
        self.messages = 0

    def record_message(self, msg: WireMessage) -> None:
        self.messages += 1
        if self.messages == self.fail_at:
            raise OSError(28, "No space left on device")

    def record_transport(self, event: TransportEvent) -> None:
        pass


def test_a_recorder_that_breaks_fails_the_connection_with_one_line() -> None:
    async def body() -> None:
        conn = Connection(stdio(), recorder=BreakingRecorder(fail_at=6), timeouts=Timeouts(30), protocol_era="legacy")
        await conn.connect()  # messages 1-3: initialize, its answer, initialized
        assert await conn.ping() == {}  # 4, 5
        began = time.monotonic()
        with pytest.raises(ConnectionLost) as caught:  # 6: the request is recorded as it is sent (raises)
            await conn.ping()
        assert time.monotonic() - began < 5
        assert str(caught.value).startswith(
            "the connection failed: internal error sending: OSError: [Errno 28] No space left on device"
        )
        await conn.close()
        settle()

    run(body, timeout=40)


def test_a_recorder_that_breaks_on_an_answer_fails_the_pending_request_at_once() -> None:
    async def body() -> None:
        conn = Connection(stdio(), recorder=BreakingRecorder(fail_at=5), timeouts=Timeouts(30), protocol_era="legacy")
        await conn.connect()  # 1-3
        began = time.monotonic()
        with pytest.raises(ConnectionLost) as caught:  # 4: ping sent; 5: its answer arrives, recording raises
            await conn.ping()
        assert time.monotonic() - began < 5
        assert str(caught.value).startswith(
            "the connection failed: internal error handling data: OSError: [Errno 28] No space left on device"
        )
        await conn.close()
        settle()

    run(body, timeout=40)


class UnsendableHandlers(HeadlessHandlers):
    async def create_message(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"role": "assistant", "content": {"type": "text", "text": object()}}


def test_a_handler_result_that_cannot_be_sent_answers_an_error_and_the_session_goes_on() -> None:
    async def body() -> None:
        caps = {"sampling": {}}
        async with Connection(
            stdio("undeclared-sampling"), handlers=UnsendableHandlers(), capabilities=caps, protocol_era="legacy"
        ) as conn:
            result = await conn.call_tool("t", {"text": "x"})
            text = text_of(result)
            assert text.startswith("sampling/createMessage answer: error ")
            assert "client handler failed: TypeError: Object of type object is not JSON serializable" in text
            assert await conn.ping() == {}
        settle()

    run(body, timeout=40)


# ---------------------------------------------------------------------------------------------- legacy endpoint


def test_a_legacy_endpoint_with_control_characters_is_refused_in_one_line(server: MisbehavingHttpServer) -> None:
    async def body() -> str:
        transport = LegacySseTransport(server.url("/badendpoint"), endpoint_timeout=5)
        with pytest.raises(TransportError) as caught:
            await transport.start(lambda _event: None)
        await transport.close()
        settle()
        return str(caught.value)

    message = run(body, timeout=30)
    assert message.startswith("the endpoint event holds no usable URL ('/messages?session_id=\\x1b]0;pwned\\x07'")
    assert "\x1b" not in message and "\x07" not in message
    assert not server.seen("POST", "/badendpoint")
