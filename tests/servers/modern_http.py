"""A 2026-07-28-shaped Streamable HTTP server for testing the transport's modern era (stdlib only, in-process).

``with ModernHttpServer() as server:`` listens on 127.0.0.1 (a free port) in a background thread;
``server.url()`` is its endpoint (``/mcp``). Every request is kept in ``server.requests`` (method, path, the
headers as received, in order, and the body). Every response closes its connection; SSE streams use chunked
encoding, so that a stream the server *drops* (closed without the final chunk) differs from one it *ends*.

It is stateless like a 2026-07-28 server, but mints an ``Mcp-Session-Id`` on every answer (``session_id``;
None: none) to show that the client does not adopt it. GET and DELETE: 405. POST, by JSON-RPC method:

========================  ===================================================================================
a notification            202
``server/discover``       200 JSON, a ``DiscoverResult``
``tools/call``            by ``params.name``: ``echo`` an SSE stream (a priming event with an id and
                          ``retry``, then the result, echoing ``arguments.text``); ``drop`` priming, one
                          ``notifications/progress``, then the connection is dropped; ``end`` the same but the
                          stream is ended cleanly, without an answer; ``hold`` priming, then nothing until the
                          client closes the exchange; ``hold_json`` no answer at all (not even headers) until
                          the client closes the exchange
``null/id``               400 JSON, a JSON-RPC error whose id is null
``plain/404``             404 ``text/plain`` (what a server that is no MCP endpoint says)
anything else             404 JSON, a JSON-RPC error -32601 (Method not found) for the request's id
========================  ===================================================================================

``server.closed_by_client``: the JSON-RPC ids of the ``hold`` / ``hold_json`` requests whose exchange the
client closed (seen by the server as the connection's end).
"""

from __future__ import annotations

import json
import select
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any

from servers.httpkit import HandlerBase, ThreadedServer

__all__ = ["ModernHttpServer", "Seen"]

MAX_HOLD_SECONDS = 30.0


@dataclass
class Seen:
    method: str
    path: str
    header_list: list[tuple[str, str]]
    """Every header as received (names lower-cased), duplicates kept."""
    body: bytes

    @property
    def headers(self) -> dict[str, str]:
        return dict(self.header_list)

    def all(self, name: str) -> list[str]:
        return [value for key, value in self.header_list if key == name.lower()]

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


class ModernHttpServer(ThreadedServer):
    def __init__(self) -> None:
        self.requests: list[Seen] = []
        self.closed_by_client: list[Any] = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.session_id: str | None = "minted-by-the-server"
        super().__init__(_Handler)

    def before_stop(self) -> None:
        self.stopping.set()  # held answers end at once

    def seen(self, method: str | None = None) -> list[Seen]:
        with self.lock:
            return [r for r in self.requests if method is None or r.method == method]

    def rpc_methods(self) -> list[str | None]:
        return [(r.json() or {}).get("method") for r in self.seen("POST")]


class _Handler(HandlerBase):
    server_state: ModernHttpServer

    # ------------------------------------------------------------------ plumbing

    def _record(self) -> Seen:
        body = self._read_body()
        pairs = [(name.lower(), value) for name, value in self.headers.items()]
        seen = Seen(self.command, self.path.split("?", 1)[0], pairs, body)
        with self.server_state.lock:
            self.server_state.requests.append(seen)
        return seen

    def _extra_headers(self) -> None:
        sid = self.server_state.session_id
        if sid is not None:
            self.send_header("Mcp-Session-Id", sid)

    def _event(self, event_id: str, message: dict[str, Any]) -> bool:
        return self._chunk(f"id: {event_id}\nevent: message\ndata: {json.dumps(message)}\n\n")

    def _end_stream(self) -> None:
        try:
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except OSError:
            pass

    def _wait_for_client_close(self, rid: Any) -> None:
        """Block until the client closes the connection (the request body is read: any readability is EOF)."""
        sock: socket.socket = self.connection
        deadline = time.monotonic() + MAX_HOLD_SECONDS
        while time.monotonic() < deadline and not self.server_state.stopping.is_set():
            readable, _, _ = select.select([sock], [], [], 0.02)
            if not readable:
                continue
            try:
                data = sock.recv(1, socket.MSG_PEEK)
            except OSError:
                data = b""
            if not data:
                with self.server_state.lock:
                    self.server_state.closed_by_client.append(rid)
                return

    # ------------------------------------------------------------------ routing

    def do_GET(self) -> None:
        self._record()
        self._send(405, b"", None, Allow="POST")

    def do_DELETE(self) -> None:
        self._record()
        self._send(405, b"", None, Allow="POST")

    def do_POST(self) -> None:
        seen = self._record()
        try:
            message = json.loads(seen.body)
        except ValueError:
            self._json(400, {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
            return
        if not isinstance(message, dict) or "method" not in message:
            self._json(400, {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}})
            return
        if "id" not in message:
            self._send(202)
            return
        rid, method = message["id"], message["method"]
        params = message.get("params") or {}
        if method == "server/discover":
            result = {"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}}
            self._json(200, {"jsonrpc": "2.0", "id": rid, "result": result})
        elif method == "tools/call":
            self._tool(rid, params)
        elif method == "null/id":
            self._json(400, {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "no id for you"}})
        elif method == "plain/404":
            self._send(404, b"Not Found\n", "text/plain")
        else:
            error = {"code": -32601, "message": f"Method not found: {method}"}
            self._json(404, {"jsonrpc": "2.0", "id": rid, "error": error})

    def _tool(self, rid: Any, params: dict[str, Any]) -> None:
        name = params.get("name")
        if name == "hold_json":
            self._wait_for_client_close(rid)
            return
        self._start_stream()
        if not self._chunk("id: s-0\nretry: 10\ndata:\n\n"):
            return
        if name == "echo":
            text = (params.get("arguments") or {}).get("text", "")
            result = {"resultType": "complete", "content": [{"type": "text", "text": f"echo: {text}"}]}
            self._event("s-1", {"jsonrpc": "2.0", "id": rid, "result": result})
            self._end_stream()
        elif name in ("drop", "end"):
            progress = {"progressToken": rid, "progress": 1, "total": 2}
            self._event("s-1", {"jsonrpc": "2.0", "method": "notifications/progress", "params": progress})
            if name == "end":
                self._end_stream()
            # "drop": return without the final chunk; the connection closes in the middle of the body
        elif name == "hold":
            self._wait_for_client_close(rid)
        else:
            error = {"code": -32602, "message": f"Unknown tool: {name}"}
            self._event("s-1", {"jsonrpc": "2.0", "id": rid, "error": error})
            self._end_stream()
