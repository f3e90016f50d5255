"""An HTTP server that misbehaves on purpose, for testing the HTTP transports (stdlib only, in-process).

``with MisbehavingHttpServer() as server:`` listens on 127.0.0.1 (a free port) in a background thread
(``MisbehavingHttpServer(tls=context)`` serves HTTPS with that server-side ``ssl.SSLContext``);
``server.url(path)`` gives a URL. Every request is kept in ``server.requests`` (method, path, headers with
lower-case names, body). Every response closes its connection; SSE streams use chunked encoding, so that
a *dropped* stream (closed without the final chunk) differs from one the server *ended*.

Paths:

=================  ===========================================================================================
``/mcp``           a small but correct Streamable HTTP MCP server with sessions (see below)
``/redirect``      307 to ``/mcp`` (same origin)
``/html``          200 with an HTML page, whatever the method
``/error500``      500, ``text/plain``, first line "Internal Server Error: database is down"
``/unauthorized``  401 with ``WWW-Authenticate: Bearer realm="mcp", error="invalid_token"``
``/noendpoint``    POST: 405; GET: an SSE stream of comments that never sends the ``endpoint`` event
``/foreign``       POST: 405; GET: an SSE stream whose ``endpoint`` event points to another origin
``/badendpoint``   POST: 405; GET: an SSE stream whose ``endpoint`` event holds an ESC sequence
=================  ===========================================================================================

``/mcp``: ``initialize`` creates a session (``Mcp-Session-Id``) and echoes a known protocolVersion; later
requests need the session id (none: 400, unknown: 404). Notifications and responses get 202. Requests:
``ping``; ``tools/list`` (``echo``, ``slow``, ``hold``); ``tools/call``: ``echo`` answers "echo: <text>",
``slow`` sends three progress notifications then the result, ``hold`` sends nothing until ``release`` is
set (or its session ends). Answers are SSE streams (a priming event with an id and ``retry``, then one event
per message, ids ``<stream>-<n>``) or JSON with ``json_response = True``. GET with ``Last-Event-ID``
replays the rest of that stream. Knobs (attributes, change them any time):

* ``expire_next``: the next request carrying a session id is answered 404 and the session forgotten;
* ``drop_post_after``: ``slow``'s POST stream is dropped after that many message events (None: never);
* ``drop_resumed``: how many resumed GET streams are dropped again after one event;
* ``retry_ms``: the ``retry`` field of priming events (None: no retry field);
* ``send_ids``: False sends POST stream events without ids (such a stream cannot be resumed);
* ``get_mode``: ``"405"`` (no GET stream), ``"sse"`` (one ``notifications/message`` then keep-alives),
  ``"drop"`` (the GET stream is dropped after its first message; a resumed one sends "after resume");
* ``delete_mode``: ``"200"`` or ``"405"``;
* ``session_id``: the session id given to the next sessions instead of a fresh hex one (sent as its Latin-1
  bytes, so ``"caf\xe9"`` puts the byte 0xE9 on the wire; requests must carry the same bytes back);
* ``event_id_suffix``: appended to the id of every event of a POST's response stream (the priming event too),
  e.g. ``"\x01"`` or ``"é"`` (sent as UTF-8; a ``Last-Event-ID`` is read back as UTF-8).
"""

from __future__ import annotations

import itertools
import json
import ssl
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from servers.httpkit import HandlerBase, QuietServer

VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MAX_STREAM_SECONDS = 30.0
TOOLS = [
    {"name": name, "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}
    for name in ("echo", "slow", "hold")
]


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


@dataclass
class _Session:
    streams: dict[str, list[tuple[str, bytes]]] = field(default_factory=dict)
    """stream id -> [(event id, data)] of every message event meant for it."""
    counter: itertools.count[int] = field(default_factory=lambda: itertools.count(1))


class MisbehavingHttpServer:
    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.scheme = "https" if tls is not None else "http"
        self.requests: list[Seen] = []
        self.sessions: dict[str, _Session] = {}
        self.lock = threading.Lock()
        self.release = threading.Event()
        self.stopping = threading.Event()
        self.json_response = False
        self.expire_next = False
        self.drop_post_after: int | None = None
        self.drop_resumed = 0
        self.retry_ms: int | None = 50
        self.send_ids = True
        self.get_mode = "405"
        self.delete_mode = "200"
        self.session_id: str | None = None
        self.event_id_suffix = ""
        outer = self

        class Handler(_Handler):
            server_state = outer

        self._httpd = QuietServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        if tls is not None:
            self._httpd.socket = tls.wrap_socket(self._httpd.socket, server_side=True, do_handshake_on_connect=False)
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> MisbehavingHttpServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.stopping.set()
        self.release.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(10)

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    def url(self, path: str = "/mcp") -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}{path}"

    def seen(self, method: str | None = None, path: str | None = None) -> list[Seen]:
        with self.lock:
            return [
                r for r in self.requests if (method is None or r.method == method) and (path is None or r.path == path)
            ]

    def rpc_methods(self) -> list[str | None]:
        """The JSON-RPC methods of every POST to /mcp, in order (None for responses)."""
        return [(r.json() or {}).get("method") for r in self.seen("POST", "/mcp")]


class _Handler(HandlerBase):
    server_state: MisbehavingHttpServer

    # ------------------------------------------------------------------ plumbing

    def _record(self) -> Seen:
        body = self._read_body()
        seen = Seen(self.command, self.path.split("?", 1)[0], {k.lower(): v for k, v in self.headers.items()}, body)
        with self.server_state.lock:
            self.server_state.requests.append(seen)
        return seen

    def _drop(self) -> None:
        """Close the connection in the middle of the chunked body."""
        try:
            self.wfile.flush()
        except OSError:
            pass
        self.close_connection = True

    def _priming(self, event_id: str) -> bool:
        retry = self.server_state.retry_ms
        return self._chunk(f"id: {event_id}\n" + (f"retry: {retry}\n" if retry is not None else "") + "data:\n\n")

    # ------------------------------------------------------------------ routing

    def do_POST(self) -> None:
        seen = self._record()
        self._route(seen)

    def do_GET(self) -> None:
        seen = self._record()
        self._route(seen)

    def do_DELETE(self) -> None:
        seen = self._record()
        self._route(seen)

    def _route(self, seen: Seen) -> None:
        path = seen.path
        if path == "/redirect":
            self._send(307, b"", None, Location="/mcp")
        elif path == "/html":
            page = b"<!DOCTYPE html>\n<html><head><title>Welcome to nginx!</title></head><body>hi</body></html>"
            self._send(200, page, "text/html; charset=utf-8")
        elif path == "/error500":
            body = b"Internal Server Error: database is down\nTraceback (most recent call last):\n  ...\n"
            self._send(500, body, "text/plain")
        elif path == "/unauthorized":
            self._send(401, b"no token", "text/plain", WWW_Authenticate='Bearer realm="mcp", error="invalid_token"')
        elif path in ("/noendpoint", "/foreign", "/badendpoint"):
            self._legacy_broken(seen)
        elif path == "/mcp":
            self._mcp(seen)
        else:
            self._send(404, b"not found", "text/plain")

    def _legacy_broken(self, seen: Seen) -> None:
        if seen.method != "GET":
            self._send(405, b"method not allowed", "text/plain", Allow="GET")
            return
        self._start_stream()
        if seen.path == "/foreign":
            self._chunk("event: endpoint\ndata: http://example.invalid/messages?session_id=1\n\n")
        elif seen.path == "/badendpoint":
            self._chunk("event: endpoint\ndata: /messages?session_id=\x1b]0;pwned\x07\n\n")
        deadline = time.monotonic() + MAX_STREAM_SECONDS
        while time.monotonic() < deadline and not self.server_state.stopping.is_set():
            if not self._chunk(": waiting\n\n"):
                return
            time.sleep(0.1)
        self._end_stream()

    # ------------------------------------------------------------------ /mcp

    def _session(self, seen: Seen) -> tuple[str, _Session] | None:
        """The request's session, or None after answering 400 / 404."""
        state = self.server_state
        sid = seen.headers.get("mcp-session-id")
        if sid is None:
            self._json(400, {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "missing session"}})
            return None
        with state.lock:
            if state.expire_next:
                state.expire_next = False
                state.sessions.pop(sid, None)
            session = state.sessions.get(sid)
        if session is None:
            self._json(404, {"jsonrpc": "2.0", "id": None, "error": {"code": -32001, "message": "Session not found"}})
            return None
        return sid, session

    def _mcp(self, seen: Seen) -> None:
        state = self.server_state
        if seen.method == "DELETE":
            found = self._session(seen)
            if found is None:
                return
            if state.delete_mode == "405":
                self._send(405, b"", None, Allow="GET, POST")
                return
            with state.lock:
                state.sessions.pop(found[0], None)
            self._send(200)
            return
        if seen.method == "GET":
            found = self._session(seen)
            if found is not None:
                self._get(seen, *found)
            return
        try:
            message = json.loads(seen.body)
        except ValueError:
            self._json(400, {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
            return
        if message.get("method") == "initialize":
            sid = state.session_id or uuid.uuid4().hex
            with state.lock:
                state.sessions[sid] = _Session()
            asked = (message.get("params") or {}).get("protocolVersion")
            result = {
                "protocolVersion": asked if asked in VERSIONS else VERSIONS[-1],
                "capabilities": {"tools": {"listChanged": True}},
                "serverInfo": {"name": "http-misbehaving", "version": "0"},
            }
            self._answer(sid, state.sessions[sid], [_response(message["id"], result)], Mcp_Session_Id=sid)
            return
        found = self._session(seen)
        if found is None:
            return
        sid, session = found
        if "id" not in message or "method" not in message:
            self._send(202)
            return
        self._request(sid, session, message)

    def _request(self, sid: str, session: _Session, message: dict[str, Any]) -> None:
        rid, method, params = message["id"], message["method"], message.get("params") or {}
        if method == "ping":
            self._answer(sid, session, [_response(rid, {})])
        elif method == "tools/list":
            self._answer(sid, session, [_response(rid, {"tools": TOOLS})])
        elif method == "tools/call" and params.get("name") == "echo":
            text = (params.get("arguments") or {}).get("text", "")
            self._answer(sid, session, [_response(rid, _text(f"echo: {text}"))])
        elif method == "tools/call" and params.get("name") == "slow":
            token = (params.get("_meta") or {}).get("progressToken", rid)
            progress = [
                {"jsonrpc": "2.0", "method": "notifications/progress",
                 "params": {"progressToken": token, "progress": n, "total": 3, "message": f"step {n}"}}
                for n in (1, 2, 3)
            ]  # fmt: skip
            self._answer(sid, session, [*progress, _response(rid, _text("slow done"))], drop=True)
        elif method == "tools/call" and params.get("name") == "hold":
            self._hold(sid, session, rid)
        else:
            error = {"code": -32601, "message": f"Method not found: {method}"}
            self._answer(sid, session, [{"jsonrpc": "2.0", "id": rid, "error": error}])

    def _answer(
        self, sid: str, session: _Session, messages: list[dict[str, Any]], drop: bool = False, **headers: str
    ) -> None:
        state = self.server_state
        if state.json_response:
            self._send(200, json.dumps(messages[-1]).encode(), "application/json", **headers)
            return
        stream = str(next(session.counter))
        suffix = state.event_id_suffix
        events = [(f"{stream}-{n}{suffix}", json.dumps(m).encode()) for n, m in enumerate(messages, 1)]
        with state.lock:
            session.streams[stream] = events
        self._start_stream(**headers)
        if state.send_ids and not self._priming(f"{stream}-0{suffix}"):
            return
        limit = state.drop_post_after if drop and state.drop_post_after is not None else None
        for n, (event_id, data) in enumerate(events):
            if limit is not None and n >= limit:
                self._drop()
                return
            head = f"id: {event_id}\n" if state.send_ids else ""
            if not self._chunk(f"{head}data: {data.decode()}\n\n"):
                return
        self._end_stream()

    def _hold(self, sid: str, session: _Session, rid: Any) -> None:
        state = self.server_state
        self._start_stream()
        self._priming(f"{next(session.counter)}-0")
        deadline = time.monotonic() + MAX_STREAM_SECONDS
        while not state.release.is_set() and time.monotonic() < deadline:
            with state.lock:
                alive = sid in state.sessions
            if not alive or not self._chunk(": holding\n\n"):
                self._drop()
                return
            time.sleep(0.05)
        self._chunk(f"data: {json.dumps(_response(rid, _text('released')))}\n\n")
        self._end_stream()

    def _get(self, seen: Seen, sid: str, session: _Session) -> None:
        state = self.server_state
        last = seen.headers.get("last-event-id")
        if last is not None:
            last = last.encode("latin-1").decode("utf-8", "replace")  # (http.server reads headers as Latin-1)
        if last is not None and not last.startswith("g-"):
            self._replay(session, last)
            return
        if state.get_mode == "405":
            self._send(405, b"", None, Allow="POST, DELETE")
            return
        self._start_stream()
        if last is None:
            self._priming("g-0")
            note = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "hello"}}
            self._chunk(f"id: g-1\ndata: {json.dumps(note)}\n\n")
            if state.get_mode == "drop":
                self._drop()
                return
        else:
            note = {
                "jsonrpc": "2.0",
                "method": "notifications/message",
                "params": {"level": "info", "data": "after resume"},
            }
            self._chunk(f"id: g-2\ndata: {json.dumps(note)}\n\n")
        deadline = time.monotonic() + MAX_STREAM_SECONDS
        while time.monotonic() < deadline and not state.stopping.is_set():
            with state.lock:
                alive = sid in state.sessions
            if not alive or not self._chunk(": keep-alive\n\n"):
                break
            time.sleep(0.05)
        self._end_stream()

    def _replay(self, session: _Session, last: str) -> None:
        state = self.server_state
        stream = last.split("-", 1)[0]
        with state.lock:
            events = list(session.streams.get(stream, []))
        ids = [event_id for event_id, _ in events]
        rest = events[ids.index(last) + 1 :] if last in ids else events
        self._start_stream()
        for n, (event_id, data) in enumerate(rest):
            if n == 1 and state.drop_resumed > 0:
                with state.lock:
                    state.drop_resumed -= 1
                self._drop()
                return
            if not self._chunk(f"id: {event_id}\ndata: {data.decode()}\n\n"):
                return
        self._end_stream()


def _response(rid: Any, result: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "result": result}


def _log_message(text: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": text}}


def _text(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}]}


if __name__ == "__main__":
    with MisbehavingHttpServer() as running:
        print(f"listening on {running.url()}", flush=True)
        try:
            time.sleep(600)
        except KeyboardInterrupt:
            pass


# -- launching real servers for tests -----------------------------------------------------------------------------


class Launched:
    """A server subprocess whose stderr is drained in the background (``lines``)."""

    def __init__(self, argv: list[str], *, env: dict[str, str] | None = None, cwd: str | None = None) -> None:
        import subprocess

        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            text=True, errors="replace",
        )  # fmt: skip
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line.rstrip("\n"))

    def wait_for_line(self, pattern: str, timeout: float = 30.0) -> str:
        """The first group of the first stderr line matching ``pattern`` (a regex)."""
        import re

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                found = re.search(pattern, line)
                if found:
                    return found.group(1)
            if self.proc.poll() is not None and not self._reader.is_alive():
                break
            time.sleep(0.02)
        raise AssertionError(f"no stderr line matching {pattern!r}; got: {self.lines[-5:]}")

    def wait_for_port(self, port: int, timeout: float = 30.0) -> None:
        import socket

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"server exited with {self.proc.returncode}: {self.lines[-5:]}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"nothing listening on port {port} after {timeout} s")

    def stop(self) -> None:
        import subprocess

        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=5)
        self._reader.join(5)
        if self.proc.stderr is not None and not self._reader.is_alive():
            self.proc.stderr.close()  # read to its end: close it, or the GC does, with a ResourceWarning


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
