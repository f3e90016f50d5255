"""A Streamable HTTP server that provokes a reconnection storm (stdlib only, in a background thread).

``with StormServer() as server:`` listens on 127.0.0.1 (a free port); ``server.url()`` is its endpoint.

* ``initialize``: a JSON answer (with ``Mcp-Session-Id``), so the handshake works; notifications and
  responses: 202; DELETE: 200.
* Every other request's POST: an SSE stream with ``retry: 0`` and one empty (priming) event with an id,
  then the server closes it. Every resume (GET with ``Last-Event-ID``) is answered the same way, so a client
  that resumes at once as ``retry`` says, and counts any event as progress, resumes forever.
* GET without ``Last-Event-ID`` (the stream for server-initiated messages): ``get_mode`` ``"405"`` (no
  such stream) or ``"storm"`` (the same empty stream, then closed).
* ``notify_each = True``: each stream also carries a ``notifications/message`` (real progress) before it
  closes, so only a per-minute budget can bound the resumptions.

Every request is kept in ``server.requests`` (method, monotonic arrival time, headers, JSON-RPC method).
Bounded: after ``max_requests`` requests every answer is 503, and nothing lives past ``close()``.
"""

from __future__ import annotations

import http.server
import itertools
import json
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Any

VERSION = "2025-06-18"


@dataclass(frozen=True)
class Hit:
    method: str
    at: float
    """time.monotonic() when the request arrived."""
    headers: dict[str, str]
    rpc: str | None
    """The JSON-RPC method of a POST (None: a response, or not a POST)."""

    @property
    def last_event_id(self) -> str | None:
        return self.headers.get("last-event-id")


class StormServer:
    def __init__(self, *, get_mode: str = "405", notify_each: bool = False, max_requests: int = 20_000) -> None:
        self.get_mode = get_mode
        self.notify_each = notify_each
        self.max_requests = max_requests
        self.requests: list[Hit] = []
        self.lock = threading.Lock()
        self.counter = itertools.count(1)
        outer = self

        class Handler(_Handler):
            state = outer

        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> StormServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(10)

    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/mcp"

    def hits(self, method: str | None = None) -> list[Hit]:
        with self.lock:
            return [h for h in self.requests if method is None or h.method == method]

    def resumes(self) -> list[Hit]:
        """GETs resuming a POST's response stream (their Last-Event-ID names a POST stream)."""
        return [h for h in self.hits("GET") if (h.last_event_id or "").startswith("p")]

    def listens(self) -> list[Hit]:
        """GETs (re)opening the stream for server-initiated messages."""
        return [h for h in self.hits("GET") if not (h.last_event_id or "").startswith("p")]


class _Handler(http.server.BaseHTTPRequestHandler):
    state: StormServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _hit(self) -> tuple[Hit, Any]:
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        try:
            message = json.loads(body) if body else None
        except ValueError:
            message = None
        rpc = message.get("method") if isinstance(message, dict) else None
        hit = Hit(self.command, time.monotonic(), {k.lower(): v for k, v in self.headers.items()}, rpc)
        with self.state.lock:
            self.state.requests.append(hit)
            over = len(self.state.requests) > self.state.max_requests
        if over:
            self._send(503, b"too many requests for this test server")
            return hit, None
        return hit, message if isinstance(message, dict) else {}

    def _send(self, status: int, body: bytes = b"", content_type: str = "text/plain", **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = True

    def _storm_stream(self, prefix: str) -> None:
        """``retry: 0``, an empty event with an id (and a notification with ``notify_each``), then closed."""
        n = next(self.state.counter)
        text = f"retry: 0\nid: {prefix}{n}\ndata:\n\n"
        if self.state.notify_each:
            note = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": n}}
            text += f"id: {prefix}{n}-m\ndata: {json.dumps(note)}\n\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(text.encode())))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(text.encode())
        self.close_connection = True

    def do_POST(self) -> None:
        hit, message = self._hit()
        if message is None:
            return
        if hit.rpc == "initialize":
            result = {
                "protocolVersion": VERSION,
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "storm", "version": "1"},
            }
            answer = json.dumps({"jsonrpc": "2.0", "id": message.get("id"), "result": result}).encode()
            self._send(200, answer, "application/json", Mcp_Session_Id=uuid.uuid4().hex)
        elif "id" not in message or "method" not in message:
            self._send(202)
        else:
            self._storm_stream("p")

    def do_GET(self) -> None:
        hit, message = self._hit()
        if message is None:
            return
        last = hit.last_event_id
        if last and last.startswith("p"):
            self._storm_stream("p")
        elif self.state.get_mode == "storm":
            self._storm_stream("g")
        else:
            self._send(405, b"no stream here")

    def do_DELETE(self) -> None:
        _, message = self._hit()
        if message is not None:
            self._send(200)
