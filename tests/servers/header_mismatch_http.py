"""A stateless 2026-07-28 Streamable HTTP server that refuses calls by header rules (stdlib only, in-process).

``with HeaderMismatchServer() as server:`` listens on 127.0.0.1 (a free port) in a background thread;
``server.url()`` is its endpoint. Every POST is kept in ``server.requests`` (headers lower-cased, body). It
answers ``server/discover`` and ``tools/list`` (JSON), and ``tools/call`` by ``params.name``:

================  =====================================================================================
``route``         always ``400`` with ``-32020`` HeaderMismatch (``data``: the header it disliked), however
                  often the client lists the tools again: the misbehaviour a person must see explained
``needs_cap``     ``-32021`` MissingRequiredClientCapability (``data.requiredCapabilities``: elicitation form)
``old_version``   ``-32022`` UnsupportedProtocolVersion (``data.supported``, ``data.requested``)
``echo``          a text result
================  =====================================================================================

``tools/list`` also lists ``broken``, whose ``x-mcp-header`` sits on a ``number`` property (invalid: a client
drops it). ``server.list_count`` counts the ``tools/list`` requests.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import Any

from servers.httpkit import HandlerBase, ThreadedServer, jsonrpc_error

__all__ = ["TOOLS", "HeaderMismatchServer"]

MODERN = "2026-07-28"
_OBJECT = "object"
TOOLS: list[dict[str, Any]] = [
    {
        "name": "route",
        "description": "Refused with -32020 whatever the headers",
        "inputSchema": {
            "type": _OBJECT,
            "properties": {"region": {"type": "string", "x-mcp-header": "Region"}},
            "required": ["region"],
        },
    },
    {
        "name": "broken",
        "description": "x-mcp-header on a number: a client must drop this tool",
        "inputSchema": {"type": _OBJECT, "properties": {"score": {"type": "number", "x-mcp-header": "Score"}}},
    },
    {"name": "needs_cap", "inputSchema": {"type": _OBJECT}},
    {"name": "old_version", "inputSchema": {"type": _OBJECT}},
    {"name": "echo", "inputSchema": {"type": _OBJECT, "properties": {"text": {"type": "string"}}}},
]


@dataclass
class Seen:
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


class HeaderMismatchServer(ThreadedServer):
    def __init__(self) -> None:
        self.requests: list[Seen] = []
        self.lock = threading.Lock()
        super().__init__(_Handler)

    def methods(self) -> list[str | None]:
        with self.lock:
            return [(r.json() or {}).get("method") for r in self.requests]

    @property
    def list_count(self) -> int:
        return self.methods().count("tools/list")


class _Handler(HandlerBase):
    server_state: HeaderMismatchServer

    def do_GET(self) -> None:
        self._send(405, b"", None, Allow="POST")

    def do_DELETE(self) -> None:
        self._send(405, b"", None, Allow="POST")

    def do_POST(self) -> None:
        body = self._read_body()
        seen = Seen({name.lower(): value for name, value in self.headers.items()}, body)
        with self.server_state.lock:
            self.server_state.requests.append(seen)
        message = seen.json()
        if not isinstance(message, dict) or "id" not in message:
            self._send(202)
            return
        rid, method = message["id"], message.get("method")
        params = message.get("params") or {}
        if method == "server/discover":
            result = {"resultType": "complete", "supportedVersions": [MODERN], "capabilities": {"tools": {}}}
            self._json(200, {"jsonrpc": "2.0", "id": rid, "result": result})
        elif method == "tools/list":
            self._json(200, {"jsonrpc": "2.0", "id": rid, "result": {"resultType": "complete", "tools": TOOLS}})
        elif method == "tools/call":
            self._call(rid, params, seen.headers)
        else:
            self._json(404, jsonrpc_error(rid, -32601, f"Method not found: {method}"))

    def _call(self, rid: Any, params: dict[str, Any], headers: dict[str, str]) -> None:
        name = params.get("name")
        data: dict[str, Any]
        if name == "route":
            data = {"header": "Mcp-Param-Region", "received": headers.get("mcp-param-region"), "expected": "us-east1"}
            self._json(400, jsonrpc_error(rid, -32020, "Header mismatch: Mcp-Param-Region", data))
        elif name == "needs_cap":
            data = {"requiredCapabilities": {"elicitation": {"form": {}}}}
            self._json(200, jsonrpc_error(rid, -32021, "This tool needs elicitation", data))
        elif name == "old_version":
            data = {"supported": ["2025-11-25"], "requested": MODERN}
            self._json(400, jsonrpc_error(rid, -32022, "Unsupported protocol version", data))
        else:
            text = (params.get("arguments") or {}).get("text", "")
            result = {"resultType": "complete", "content": [{"type": "text", "text": f"echo: {text}"}]}
            self._json(200, {"jsonrpc": "2.0", "id": rid, "result": result})
