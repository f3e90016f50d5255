"""A stateless 2026-07-28 Streamable HTTP server whose prompts, resources and completions are refused with the
errors only this era has (stdlib only, in-process): ``-32020`` HeaderMismatch, ``-32021``
MissingRequiredClientCapability and ``-32022`` UnsupportedProtocolVersion, each with its ``data``.

``with RefusalsServer() as server:`` listens on 127.0.0.1 (a free port); ``server.url()`` is its endpoint.

- ``prompts/get`` and ``resources/read`` answer by name / URI: ``mismatch`` (``test://mismatch``) -32020,
  ``needs_cap`` (``test://needs_cap``) -32021 (``data.requiredCapabilities``: sampling), ``old_version``
  (``test://old_version``) -32022 (``data.supported``: 2025-11-25); anything else a plain answer.
- ``completion/complete`` always -32021 (``data.requiredCapabilities``: roots).
- ``server/discover`` answers normally the first time; once ``server.refuse_discover`` is set, -32022 (what a
  2026-07-28 "ping" then meets).
- ``tools/list`` lists ``server.tools`` (a test may change them between listings: at first ``route``, whose
  ``region`` is mirrored into ``Mcp-Param-Region``, and ``broken``, which a client drops); -32021 while
  ``server.refuse_tools_list`` is set. ``tools/call`` answers a text; ``server.call_headers`` keeps each call's
  headers (lower-cased).
"""

from __future__ import annotations

import json
import threading
from typing import Any

from servers.httpkit import HandlerBase, ThreadedServer, jsonrpc_error

__all__ = ["BROKEN", "REFUSALS", "ROUTE", "RefusalsServer"]

MODERN = "2026-07-28"
OLD = "2025-11-25"

REFUSALS: dict[str, tuple[int, str, dict[str, Any]]] = {
    "mismatch": (-32020, "Header mismatch: Mcp-Name", {"header": "Mcp-Name", "expected": "mismatch"}),
    "needs_cap": (-32021, "Sampling needed", {"requiredCapabilities": {"sampling": {}}}),
    "old_version": (-32022, "Unsupported protocol version", {"supported": [OLD], "requested": MODERN}),
}
"""Name (prompts) or the URI's tail (resources) -> (code, message, data)."""

PROMPTS = [{"name": name} for name in REFUSALS] + [
    {"name": "greet", "arguments": [{"name": "who", "description": "completed (refused)", "required": False}]}
]
ROUTE: dict[str, Any] = {
    "name": "route",
    "inputSchema": {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}},
}
BROKEN: dict[str, Any] = {
    "name": "broken",
    "inputSchema": {"type": "object", "properties": {"score": {"type": "number", "x-mcp-header": "Score"}}},
}
RESOURCES = [{"uri": f"test://{name}", "name": name, "mimeType": "text/plain"} for name in (*REFUSALS, "fine")]


def _ok(rid: Any, result: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "result": {"resultType": "complete", **result}}


class RefusalsServer(ThreadedServer):
    def __init__(self) -> None:
        self.methods: list[str] = []
        self.refuse_discover = False
        self.tools: list[dict[str, Any]] = [ROUTE, BROKEN]
        self.refuse_tools_list = False
        self.call_headers: list[dict[str, str]] = []
        self.lock = threading.Lock()
        super().__init__(_Handler)


class _Handler(HandlerBase):
    server_state: RefusalsServer

    def do_GET(self) -> None:
        self._send(405, b"", None, Allow="POST")

    def do_DELETE(self) -> None:
        self._send(405, b"", None, Allow="POST")

    def do_POST(self) -> None:
        body = self._read_body()
        message = json.loads(body) if body else None
        if not isinstance(message, dict) or "id" not in message:
            self._send(202)
            return
        rid, method = message["id"], str(message.get("method"))
        with self.server_state.lock:
            self.server_state.methods.append(method)
        params = message.get("params") or {}
        if method == "server/discover":
            if self.server_state.refuse_discover:
                code, text, data = REFUSALS["old_version"]
                self._json(400, jsonrpc_error(rid, code, text, data))
                return
            caps: dict[str, Any] = {"prompts": {}, "resources": {}, "completions": {}, "tools": {}}
            self._json(200, _ok(rid, {"supportedVersions": [MODERN], "capabilities": caps}))
        elif method == "tools/list":
            if self.server_state.refuse_tools_list:
                self._json(200, jsonrpc_error(rid, -32021, "Roots needed", {"requiredCapabilities": {"roots": {}}}))
            else:
                self._json(200, _ok(rid, {"tools": list(self.server_state.tools)}))
        elif method == "tools/call":
            with self.server_state.lock:
                self.server_state.call_headers.append({name.lower(): value for name, value in self.headers.items()})
            self._json(200, _ok(rid, {"content": [{"type": "text", "text": "routed"}]}))
        elif method == "prompts/list":
            self._json(200, _ok(rid, {"prompts": PROMPTS}))
        elif method == "resources/list":
            self._json(200, _ok(rid, {"resources": RESOURCES}))
        elif method == "resources/templates/list":
            self._json(200, _ok(rid, {"resourceTemplates": []}))
        elif method == "prompts/get":
            self._refuse_or(rid, str(params.get("name")), {"messages": [_text("hello")]})
        elif method == "resources/read":
            uri = str(params.get("uri"))
            answer = {"contents": [{"uri": uri, "mimeType": "text/plain", "text": "fine"}]}
            self._refuse_or(rid, uri.removeprefix("test://"), answer)
        elif method == "completion/complete":
            self._json(200, jsonrpc_error(rid, -32021, "Roots needed", {"requiredCapabilities": {"roots": {}}}))
        else:
            self._json(404, jsonrpc_error(rid, -32601, f"Method not found: {method}", None))

    def _refuse_or(self, rid: Any, key: str, result: dict[str, Any]) -> None:
        if key in REFUSALS:
            code, text, data = REFUSALS[key]
            self._json(400 if code != -32021 else 200, jsonrpc_error(rid, code, text, data))
        else:
            self._json(200, _ok(rid, result))


def _text(text: str) -> dict[str, Any]:
    return {"role": "user", "content": {"type": "text", "text": text}}
