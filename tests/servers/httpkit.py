"""The plumbing the stdlib HTTP test servers share: a quiet threading server and a handler base that reads a body,
answers with a body or an SSE stream (chunked), and never logs.

Handlers add their own headers to every answer by overriding ``_extra_headers`` (a session id, say); every answer
closes its connection (``Connection: close``), so each request is one connection the tests can count.
"""

from __future__ import annotations

import http.server
import json
import threading
from typing import Any, Self

__all__ = ["HandlerBase", "QuietServer", "ThreadedServer", "jsonrpc_error"]


class QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:  # e.g. a TLS handshake the client refused
        pass


class ThreadedServer:
    """A stdlib test server on 127.0.0.1 (a free port), served by a thread while used as a context manager.

    ``handler`` is the server's ``HandlerBase`` subclass; a subclass of it is bound to this object as its
    ``server_state``, so every request handler reaches the test's state (what it saw, what it should answer).
    """

    def __init__(self, handler: type[HandlerBase]) -> None:
        outer = self

        class Bound(handler):  # type: ignore[valid-type, misc]
            server_state = outer

        self._httpd = QuietServer(("127.0.0.1", 0), Bound)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.before_stop()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(10)

    def before_stop(self) -> None:
        """Called first when the server stops (before the threads are joined): release what handlers wait on."""

    def url(self, path: str = "/mcp") -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}{path}"


def jsonrpc_error(rid: Any, code: int, message: str, data: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": rid, "error": error}


class HandlerBase(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _read_body(self) -> bytes:
        length = int(self.headers.get("content-length") or 0)
        return self.rfile.read(length) if length else b""

    def _extra_headers(self) -> None:
        """Headers this server adds to every answer (none here)."""

    def _headers(self, headers: dict[str, str]) -> None:
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self._extra_headers()
        self.send_header("Connection", "close")

    def _send(self, status: int, body: bytes = b"", content_type: str | None = None, **headers: str) -> None:
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self._headers(headers)
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = True

    def _json(self, status: int, value: Any, **headers: str) -> None:
        self._send(status, json.dumps(value).encode(), "application/json", **headers)

    def _start_stream(self, **headers: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Transfer-Encoding", "chunked")
        self._headers(headers)
        self.end_headers()
        self.close_connection = True

    def _chunk(self, text: str) -> bool:
        data = text.encode()
        try:
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()
        except OSError:
            return False
        return True

    def _end_stream(self) -> None:
        try:
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except OSError:
            pass
