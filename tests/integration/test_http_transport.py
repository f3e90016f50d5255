"""StreamableHttpTransport through Connection: the demo server over HTTP, server-everything, and a server that
misbehaves on purpose (tests/servers/http_misbehaving.py): session expiry, stream resumption, HTML and error
answers, refused connections, TLS, redirects, header masking, transport selection and the recording of exchanges.
"""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import os
import ssl
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import nodetools
import pytest
from asynckit import run
from demowire import demo_http
from servers.http_misbehaving import Launched, MisbehavingHttpServer, free_port

from inspector.client.connection import Connection, DeliveryFailed
from inspector.client.errors import ConnectFailed, ConnectionLost
from inspector.client.handlers import HeadlessHandlers
from inspector.protocol.events import NotificationReceived
from inspector.protocol.session import Timeouts
from inspector.protocol.wire import Kind
from inspector.store.recording import Recording
from inspector.transports.base import MASK, HttpExchange, SendFailed, SessionExpired, TransportEvent
from inspector.transports.http import StreamableHttpTransport
from inspector.transports.http_common import HttpAuthError
from inspector.transports.select import transport_for_target, transport_name_for
from inspector.transports.sse import LegacySseTransport
from inspector.transports.stdio import StdioTransport

REPO = str(Path(__file__).resolve().parents[2])
T = TypeVar("T")
ALL_CAPS = {"sampling": {}, "elicitation": {}, "roots": {"listChanged": True}}


class Events:
    """Transport events seen by a connection (``on_transport_event``)."""

    def __init__(self) -> None:
        self.all: list[TransportEvent] = []

    def __call__(self, event: TransportEvent) -> None:
        self.all.append(event)

    def exchanges(self, method: str | None = None) -> list[HttpExchange]:
        return [e for e in self.all if isinstance(e, HttpExchange) and (method is None or e.method == method)]


def connection(transport: StreamableHttpTransport | LegacySseTransport, events: Events, **kwargs: Any) -> Connection:
    kwargs.setdefault("timeouts", Timeouts(request=15))
    return Connection(transport, on_transport_event=events, **kwargs, protocol_era="legacy")


def text_of(result: dict[str, Any]) -> str:
    return "".join(block.get("text", "") for block in result["content"])


async def wait_until(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    async def poll() -> None:
        while not predicate():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(poll(), timeout)


@pytest.fixture
def server() -> Iterator[MisbehavingHttpServer]:
    with MisbehavingHttpServer() as running:
        yield running


@pytest.fixture(scope="module")
def demo_url() -> Iterator[str]:
    with demo_http() as url:
        yield url


# -- the demo server over Streamable HTTP ---------------------------------------------------------------------


def test_demo_handshake_tools_progress_and_close(demo_url: str) -> None:
    events = Events()

    async def body() -> None:
        transport = StreamableHttpTransport(demo_url)
        async with connection(transport, events) as conn:
            assert conn.server is not None and conn.server.server_info["name"] == "inspector-demo"
            assert transport.session_id and transport.protocol_version == conn.server.protocol_version
            tools = await conn.list_tools()
            assert {"echo", "slow", "sample", "toggle_tool"} <= {t["name"] for t in tools["tools"]}
            steps: list[tuple[float, float | None, str | None]] = []
            result = await conn.call_tool("slow", {"seconds": 0.3, "steps": 3}, on_progress=lambda *a: steps.append(a))
            assert text_of(result).startswith("Finished 3 steps")
            assert [s[0] for s in steps] == [1, 2, 3]
            assert text_of(await conn.call_tool("echo", {"message": "over http"})) == "over http"
            sid = transport.session_id
        assert conn.violations == []
        posts = events.exchanges("POST")
        first, later = posts[0], posts[-1]
        assert dict(first.request_headers)["accept"] == "application/json, text/event-stream"
        assert "mcp-session-id" not in dict(first.request_headers)
        assert dict(later.request_headers)["mcp-session-id"] == sid
        assert dict(later.request_headers)["mcp-protocol-version"] == "2025-11-25"
        initialized = next(e for e in posts if e.status == 202)
        assert dict(initialized.request_headers)["mcp-protocol-version"] == "2025-11-25"
        assert any(e.note == "SSE response stream" for e in posts)
        delete = events.exchanges("DELETE")
        assert len(delete) == 1 and delete[0].status == 200 and dict(delete[0].request_headers)["mcp-session-id"] == sid

    run(body)


def test_demo_server_notifications_on_the_get_stream_and_post_stream(demo_url: str) -> None:
    events = Events()
    seen: list[NotificationReceived] = []

    async def body() -> None:
        async with connection(StreamableHttpTransport(demo_url), events, on_notification=seen.append) as conn:
            await conn.subscribe_resource("demo://clock")
            await wait_until(lambda: any(n.method == "notifications/resources/updated" for n in seen))
            await conn.unsubscribe_resource("demo://clock")
            await conn.call_tool("toggle_tool", {"enabled": True})
            await wait_until(lambda: any(n.method == "notifications/tools/list_changed" for n in seen))
            await conn.call_tool("toggle_tool", {"enabled": False})

    run(body)
    gets = events.exchanges("GET")
    assert gets and gets[0].status == 200 and gets[0].note == "stream for server-initiated messages"


def test_demo_server_requests_answered_by_headless_handlers(demo_url: str) -> None:
    async def body() -> None:
        conn = connection(
            StreamableHttpTransport(demo_url), Events(), capabilities=ALL_CAPS, handlers=HeadlessHandlers()
        )
        async with conn:
            sampled = text_of(await conn.call_tool("sample", {"prompt": "hi"}))
            assert "automatic reply from mcp-inspect" in sampled
            elicited = text_of(await conn.call_tool("elicit_form", {}))
            assert '"action": "accept"' in elicited
            roots = await conn.call_tool("list_roots", {})
            assert '"roots": []' in text_of(roots)

    run(body)


@pytest.mark.parametrize("flag", ["--json-response", "--stateless"])
def test_demo_server_json_and_stateless_modes(flag: str) -> None:
    demo = Launched([sys.executable, "-m", "inspector.demo", "--http", "0", flag], cwd=REPO)
    events = Events()
    try:
        url = demo.wait_for_line(r"listening on (http://127\.0\.0\.1:\d+/mcp)")

        async def body() -> None:
            transport = StreamableHttpTransport(url)
            async with connection(transport, events) as conn:
                assert text_of(await conn.call_tool("echo", {"message": "json"})) == "json"
                assert (await conn.list_tools())["tools"]
                if flag == "--stateless":
                    assert transport.session_id is None

        run(body)
    finally:
        demo.stop()
    if flag == "--json-response":
        assert all(e.note != "SSE response stream" for e in events.exchanges("POST"))
    else:
        assert not events.exchanges("DELETE")  # no session, nothing to end


# -- session expiry -----------------------------------------------------------------------------------------------


def test_session_expiry_reinitializes_and_resends_the_refused_request(server: MisbehavingHttpServer) -> None:
    events = Events()

    async def body() -> None:
        transport = StreamableHttpTransport(server.url())
        async with connection(transport, events) as conn:
            first_sid = transport.session_id
            server.expire_next = True
            assert text_of(await conn.call_tool("echo", {"text": "again"})) == "echo: again"
            assert transport.session_id not in (None, first_sid)
            assert text_of(await conn.call_tool("echo", {"text": "later"})) == "echo: later"

    run(body)
    methods = server.rpc_methods()
    assert methods.count("initialize") == 2 and methods.count("notifications/initialized") == 2
    initializes = [r for r in server.seen("POST", "/mcp") if (r.json() or {}).get("method") == "initialize"]
    assert "mcp-session-id" not in initializes[1].headers
    expired = [e for e in events.all if isinstance(e, SessionExpired)]
    assert len(expired) == 1 and len(expired[0].unsent) == 1
    assert any(e.status == 404 and e.note == "session expired" for e in events.exchanges("POST"))


def test_session_expiry_fails_requests_the_old_session_had_accepted(server: MisbehavingHttpServer) -> None:
    async def body() -> None:
        async with connection(StreamableHttpTransport(server.url()), Events()) as conn:
            held = asyncio.ensure_future(conn.call_tool("hold", {}))
            await wait_until(
                lambda: any((r.json() or {}).get("params", {}).get("name") == "hold" for r in server.seen("POST"))
            )
            server.expire_next = True
            assert text_of(await conn.call_tool("echo", {"text": "x"})) == "echo: x"
            with pytest.raises(ConnectionLost, match="ended the session before answering tools/call"):
                await held

    run(body)


def test_event_streams_are_not_read_while_the_consumer_is_backlogged(server: MisbehavingHttpServer) -> None:
    """After each chunk of an event stream the transport asks ``backpressure`` and waits when told to."""

    async def body() -> None:
        async with connection(StreamableHttpTransport(server.url()), Events()) as conn:
            asked: list[float] = []
            gate = asyncio.Event()

            def backpressure() -> Awaitable[None] | None:
                asked.append(time.monotonic())
                return None if gate.is_set() else gate.wait()

            conn.transport.backpressure = backpressure
            held = asyncio.ensure_future(conn.call_tool("hold", {}))  # a ": holding" chunk every 50 ms
            await wait_until(lambda: len(asked) >= 1)
            await asyncio.sleep(0.5)
            assert len(asked) <= 2  # one wait per open stream (the POST's, maybe the GET's), nothing read since
            gate.set()
            await wait_until(lambda: len(asked) >= 6)  # reading goes on
            server.release.set()
            assert text_of(await held) == "released"

    run(body)


def test_a_server_that_keeps_expiring_sessions_is_given_up(server: MisbehavingHttpServer) -> None:
    events = Events()

    async def body() -> None:
        conn = connection(StreamableHttpTransport(server.url()), events)
        await conn.connect()

        async def keep_expiring() -> None:  # every request carrying a session id is answered 404
            while conn.closed_event is None:
                server.expire_next = True
                await asyncio.sleep(0.002)

        expirer = asyncio.ensure_future(keep_expiring())
        try:
            with pytest.raises(ConnectionLost, match="in a row"):
                await conn.ping()
            await wait_until(lambda: conn.closed_event is not None)
        finally:
            expirer.cancel()
            await conn.close()

    run(body)
    assert 2 <= server.rpc_methods().count("initialize") <= 5


# -- stream resumption ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("drops", [0, 2])
def test_dropped_response_stream_is_resumed_with_last_event_id(server: MisbehavingHttpServer, drops: int) -> None:
    server.drop_post_after = 1
    server.drop_resumed = drops
    server.retry_ms = 30
    events = Events()

    async def body() -> None:
        steps: list[float] = []
        async with connection(StreamableHttpTransport(server.url()), events) as conn:
            result = await conn.call_tool("slow", {}, on_progress=lambda p, _t, _m: steps.append(p))
            assert text_of(result) == "slow done"
        assert steps == [1, 2, 3]

    run(body)
    resumed = [r.headers["last-event-id"] for r in server.seen("GET", "/mcp") if "last-event-id" in r.headers]
    assert len(resumed) == drops + 1
    assert resumed[0].endswith("-1")
    broken = [e for e in events.exchanges("POST") if "broke" in e.note]
    assert len(broken) == 1 and broken[0].event_id == resumed[0] and broken[0].retry == 30
    assert broken[0].carried_ids == ()  # only a progress notification came before the drop
    assert any(2 in e.carried_ids for e in events.exchanges("GET"))  # the answer to tools/call (id 2), resumed


def test_a_stream_without_event_ids_cannot_be_resumed(server: MisbehavingHttpServer) -> None:
    server.drop_post_after = 1
    server.send_ids = False

    async def body() -> None:
        async with connection(StreamableHttpTransport(server.url()), Events()) as conn:
            with pytest.raises(DeliveryFailed, match="before answering"):
                await conn.call_tool("slow", {})
            assert text_of(await conn.call_tool("echo", {"text": "still here"})) == "echo: still here"

    run(body)


def test_get_stream_delivers_and_resumes(server: MisbehavingHttpServer) -> None:
    server.get_mode = "drop"
    server.retry_ms = 20
    seen: list[Any] = []

    async def body() -> None:
        async with connection(StreamableHttpTransport(server.url()), Events(), on_notification=seen.append):
            await wait_until(lambda: len(seen) >= 2)

    run(body)
    assert [n.params["data"] for n in seen[:2]] == ["hello", "after resume"]
    assert [r.headers.get("last-event-id") for r in server.seen("GET")] == [None, "g-1"]


def test_get_and_delete_405_are_accepted(server: MisbehavingHttpServer) -> None:
    server.delete_mode = "405"
    events = Events()

    async def body() -> None:
        async with connection(StreamableHttpTransport(server.url()), events) as conn:
            await conn.ping()
            await wait_until(lambda: bool(events.exchanges("GET")))

    run(body)
    assert events.exchanges("GET")[0].status == 405
    assert events.exchanges("DELETE")[0].status == 405
    assert not [e for e in events.all if isinstance(e, SendFailed)]
    assert events.all[-1].__class__.__name__ == "TransportClosed"


# -- clear errors ----------------------------------------------------------------------------------------------------


def connect_error(url: str, **kwargs: Any) -> ConnectFailed:
    async def body() -> ConnectFailed:
        conn = connection(StreamableHttpTransport(url, **kwargs), Events())
        with pytest.raises(ConnectFailed) as caught:
            await conn.connect()
        await conn.close()
        return caught.value

    return run(body)


def test_html_page_answer(server: MisbehavingHttpServer) -> None:
    error = connect_error(server.url("/html"))
    assert (
        str(error) == "the server answered with an HTML page (status 200, text/html) \u2014 is this the MCP endpoint?"
    )


def test_server_error_answer(server: MisbehavingHttpServer) -> None:
    assert str(connect_error(server.url("/error500"))) == "server error 500: Internal Server Error: database is down"


def test_connection_refused() -> None:
    url = f"http://127.0.0.1:{free_port()}/mcp"
    assert str(connect_error(url)) == f"cannot connect to {url}: connection refused"


def test_unauthorized_is_a_distinct_error(server: MisbehavingHttpServer) -> None:
    error = connect_error(server.url("/unauthorized"))
    assert str(error) == 'unauthorized (401): Bearer realm="mcp", error="invalid_token"'
    cause = error.__cause__
    assert isinstance(cause, DeliveryFailed) and isinstance(cause.error, HttpAuthError)
    assert cause.error.status == 401 and cause.error.www_authenticate == 'Bearer realm="mcp", error="invalid_token"'


def test_redirect_on_the_same_origin_is_followed_and_adopted(server: MisbehavingHttpServer) -> None:
    events = Events()

    async def body() -> None:
        transport = StreamableHttpTransport(server.url("/redirect"))
        async with connection(transport, events) as conn:
            await conn.ping()
            assert transport.describe() == server.url("/mcp")

    run(body)
    assert events.exchanges("POST")[0].status == 307
    assert len(server.seen(path="/redirect")) == 1


def test_headers_are_sent_and_secrets_masked_in_events(server: MisbehavingHttpServer) -> None:
    events = Events()
    headers = {"Authorization": "Bearer s3cret", "X-Api-Key": "k3y", "X-Trace": "visible"}

    async def body() -> None:
        transport = StreamableHttpTransport(server.url(), headers=headers, secret_headers=["x-api-key"])
        async with connection(transport, events) as conn:
            await conn.ping()

    run(body)
    received = server.seen("POST")[0].headers
    assert (received["authorization"], received["x-api-key"], received["x-trace"]) == (
        "Bearer s3cret",
        "k3y",
        "visible",
    )
    for exchange in events.exchanges():
        sent = dict(exchange.request_headers)
        assert sent["authorization"] == MASK and sent["x-api-key"] == MASK and sent["x-trace"] == "visible"
    assert "s3cret" not in repr(events.all) and "k3y" not in repr(events.all)


# -- TLS -------------------------------------------------------------------------------------------------------------


@pytest.fixture
def tls_files(tmp_path: Path) -> tuple[ssl.SSLContext, str]:
    """A private CA, a server certificate for 127.0.0.1 signed by it, and the CA bundle path."""
    x509 = pytest.importorskip("cryptography.x509")
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.UTC)

    def name(text: str) -> Any:
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder().subject_name(name("test CA")).issuer_name(name("test CA"))
        .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )  # fmt: skip
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder().subject_name(name("127.0.0.1")).issuer_name(ca.subject)
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )  # fmt: skip
    bundle = tmp_path / "ca.pem"
    bundle.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    chain = tmp_path / "server.pem"
    chain.write_bytes(
        cert.public_bytes(serialization.Encoding.PEM)
        + key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(chain)
    return context, str(bundle)


def test_tls_with_a_private_ca(tls_files: tuple[ssl.SSLContext, str]) -> None:
    context, bundle = tls_files
    with MisbehavingHttpServer(tls=context) as server:
        error = connect_error(server.url())
        assert str(error).startswith(f"TLS certificate verification failed for {server.url()}: ")

        async def body() -> None:
            async with connection(StreamableHttpTransport(server.url(), ca_bundle=bundle), Events()) as conn:
                assert await conn.ping() == {}

        run(body)


def test_a_missing_ca_bundle_is_a_clear_error(tmp_path: Path) -> None:
    from inspector.transports.base import TransportError

    async def body() -> None:
        transport = StreamableHttpTransport("https://127.0.0.1:1/mcp", ca_bundle=str(tmp_path / "nope.pem"))
        with pytest.raises(TransportError, match="cannot load the CA bundle"):
            await transport.start(lambda _e: None)

    run(body)


# -- transport selection and fallback ------------------------------------------------------------------------------


def test_transport_selection() -> None:
    assert isinstance(transport_for_target("http://127.0.0.1:1/sse"), LegacySseTransport)
    assert isinstance(transport_for_target("https://example.test/api/sse/"), LegacySseTransport)
    guessed = transport_for_target("http://127.0.0.1:1/mcp")
    assert isinstance(guessed, StreamableHttpTransport) and guessed.sse_fallback
    forced = transport_for_target("http://127.0.0.1:1/sse", transport="http")
    assert isinstance(forced, StreamableHttpTransport) and not forced.sse_fallback
    assert isinstance(transport_for_target("http://127.0.0.1:1/mcp", transport="sse"), LegacySseTransport)
    stdio = transport_for_target("python -m inspector.demo")
    assert isinstance(stdio, StdioTransport) and stdio.describe() == "python -m inspector.demo"
    assert isinstance(transport_for_target(["uvx", "mcp-server-time"], transport="stdio"), StdioTransport)
    assert transport_name_for("https://x.test/mcp", "streamable-http") == "http"
    for target, transport in (("python server.py", "http"), ("http://x.test/mcp", "stdio"), ("x", "ws")):
        with pytest.raises(ValueError):
            transport_for_target(target, transport=transport)
    with pytest.raises(ValueError):
        transport_for_target("")


def test_fallback_fails_clearly_when_no_endpoint_event_comes(server: MisbehavingHttpServer) -> None:
    error = connect_error(server.url("/noendpoint"), sse_fallback=True, endpoint_timeout=0.5)
    assert str(error).startswith("HTTP 405 Method Not Allowed")
    assert "the legacy HTTP+SSE transport did not work either" in str(error)
    assert "no endpoint event within 0.5 s" in str(error)


# -- recording --------------------------------------------------------------------------------------------------------


def test_exchanges_are_recorded_and_linked(server: MisbehavingHttpServer, tmp_path: Path) -> None:
    recording = Recording.create(tmp_path, label="http")

    async def body() -> None:
        headers = {"Authorization": "Bearer s3cret"}
        async with Connection(
            StreamableHttpTransport(server.url(), headers=headers), recorder=recording, protocol_era="legacy"
        ) as conn:
            await conn.call_tool("echo", {"text": "recorded"})

    run(body)
    try:
        assert recording.meta()["schema_version"] == "2"
        http_rows = recording.rows(_filter(Kind.HTTP), limit=100)
        assert http_rows and all('"status"' in row.raw for row in http_rows)
        assert "s3cret" not in "".join(row.raw for row in http_rows)
        request = next(row for row in recording.rows(_filter(Kind.REQUEST)) if row.method == "tools/call")
        linked = recording.exchanges_for(request.seq)
        assert linked and all(recording.get(seq).kind is Kind.HTTP for seq in linked)  # type: ignore[union-attr]
        response = recording.find_response(request.seq)
        assert response is not None and recording.exchanges_for(response) == linked
    finally:
        recording.close()
    reopened = Recording.open(recording.path)
    try:
        assert reopened.count(_filter(Kind.HTTP)) == len(http_rows)
    finally:
        reopened.close()


def _filter(kind: Kind) -> Any:
    from inspector.store.recording import RecordFilter

    return RecordFilter(kinds=[kind])


# -- server-everything ---------------------------------------------------------------------------------------------


@pytest.mark.node
def test_server_everything_streamable_http() -> None:
    cmd = nodetools.require_server_everything("streamableHttp")
    port = free_port()
    # server-everything listens on all interfaces; acceptable here because the test machine has no network.
    server = Launched(cmd, env={**os.environ, "PORT": str(port)})
    try:
        server.wait_for_port(port)

        async def body() -> None:
            events = Events()
            conn = connection(StreamableHttpTransport(f"http://127.0.0.1:{port}/mcp"), events, capabilities=ALL_CAPS)
            async with conn:
                names = {t["name"] for t in (await conn.list_tools())["tools"]}
                assert "echo" in names
                assert "hi" in text_of(await conn.call_tool("echo", {"message": "hi"}))
                assert (await conn.list_resources())["resources"]
            assert events.exchanges("DELETE")

        run(body)
    finally:
        server.stop()
