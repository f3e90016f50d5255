"""A stdio MCP server that echoes each request's ``params._meta`` back, in both eras (stdlib only).

Run as ``python tests/servers/meta_echo.py``. Newline-delimited JSON-RPC on stdin:

* ``initialize`` (handshake era: echoes a known protocolVersion, else 2025-11-25) or ``server/discover``
  (2026-07-28: ``supportedVersions`` ["2026-07-28"]); both declare ``tools`` and ``resources``;
* ``tools/list``: the tool ``echo_meta``, whose ``description`` is the JSON of the request's ``_meta``, and two
  tools whose results have no raw form (for ``--output-format raw``): ``two_images`` (two image blocks, no text)
  and ``bad_image`` (one image block whose data is not base64);
* ``tools/call``: ``echo_meta``: a text block with the JSON of ``_meta``, and ``structuredContent``
  ``{"meta": _meta}``; an unknown name: -32602;
* ``resources/read``: one text content, the JSON of ``_meta``;
* ``ping`` -> {}; anything else -32601; notifications are ignored.

In the 2026-07-28 era (after ``server/discover``) every result carries ``resultType: "complete"`` (and the
cacheable ones ``ttlMs: 0``, ``cacheScope: "private"``). ``_meta`` is
echoed as received, with every key (the client's own envelope keys among them). Exits on stdin EOF.
"""

from __future__ import annotations

import json
import sys
from typing import Any

HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
CAPABILITIES: dict[str, Any] = {"tools": {}, "resources": {}}
INFO = {"name": "meta-echo", "version": "1.0.0"}
IMAGES = {"two_images": ["iVBORw0KGgo=", "iVBORw0KGgo="], "bad_image": ["not base64!"]}


def answer(rid: Any, method: str, params: dict[str, Any], modern: bool) -> dict[str, Any]:
    meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
    echoed = json.dumps(meta, sort_keys=True)
    result: dict[str, Any]
    if method == "initialize":
        asked = params.get("protocolVersion")
        version = asked if asked in HANDSHAKE_VERSIONS else "2025-11-25"
        result = {"protocolVersion": version, "capabilities": CAPABILITIES, "serverInfo": INFO}
    elif method == "server/discover":
        result = {"supportedVersions": ["2026-07-28"], "capabilities": CAPABILITIES, "serverInfo": INFO}
    elif method == "tools/list":
        tool = {"name": "echo_meta", "description": echoed, "inputSchema": {"type": "object"}}
        others = [{"name": name, "inputSchema": {"type": "object"}} for name in IMAGES]
        result = {"tools": [tool, *others]}
    elif method == "tools/call" and params.get("name") in IMAGES:
        result = {"content": [{"type": "image", "mimeType": "image/png", "data": d} for d in IMAGES[params["name"]]]}
    elif method == "tools/call" and params.get("name") == "echo_meta":
        result = {"content": [{"type": "text", "text": echoed}], "structuredContent": {"meta": meta}}
    elif method == "tools/call":
        error = {"code": -32602, "message": f"Unknown tool: {params.get('name')}"}
        return {"jsonrpc": "2.0", "id": rid, "error": error}
    elif method == "resources/read":
        result = {"contents": [{"uri": params.get("uri", ""), "mimeType": "application/json", "text": echoed}]}
    elif method == "ping":
        result = {}
    else:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": f"Method not found: {method}"}}
    if modern:
        result = {"resultType": "complete", **result}
        if method in ("tools/list", "resources/read"):  # cacheable results say how long they stay fresh
            result.update(ttlMs=0, cacheScope="private")
    return {"jsonrpc": "2.0", "id": rid, "result": result}


def main() -> None:
    modern = False
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict) or "id" not in message or "method" not in message:
            continue
        method = message["method"]
        given = message.get("params")
        params: dict[str, Any] = given if isinstance(given, dict) else {}
        if method == "server/discover":
            modern = True
        elif method == "initialize":
            modern = False
        sys.stdout.write(json.dumps(answer(message["id"], method, params, modern)) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
