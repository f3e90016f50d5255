"""A stdio MCP server with tools whose outcomes are known in advance, for ``--load`` tests (stdlib only).

Run as ``python tests/servers/load_tools.py``. It reads newline-delimited JSON-RPC on stdin: ``initialize``
(echoes a known protocolVersion, else 2025-11-25; declares ``tools``; serverInfo name "load-tools"),
``ping`` -> {}, ``tools/list``, ``tools/call``; anything else -32601. Notifications are never answered; it
exits on stdin EOF. The n-th call of a tool (counted per tool, from 0, in the order the calls arrive):

``ok``          text "ok"
``tool_error``  ``isError: true`` with text "refused"
``mixed``       n % 4 == 0: JSON-RPC error -32603 "boom"; n % 4 == 1: ``isError: true``; else "ok"
``distinct``    JSON-RPC error -32603 "failure <n>" (a different message every time)
``sleep``       "ok" after ``arguments.ms`` milliseconds (answered from a timer: calls overlap)
"""

from __future__ import annotations

import json
import sys
import threading
from collections import Counter
from typing import Any

_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
_OBJECT: dict[str, Any] = {"type": "object"}
TOOLS: list[dict[str, Any]] = [
    {"name": "ok", "description": "always succeeds", "inputSchema": _OBJECT},
    {"name": "tool_error", "description": "always isError", "inputSchema": _OBJECT},
    {"name": "mixed", "description": "error, isError, ok, ok, ...", "inputSchema": _OBJECT},
    {"name": "distinct", "description": "an error with a new message each time", "inputSchema": _OBJECT},
    {
        "name": "sleep",
        "description": "answers after ms milliseconds",
        "inputSchema": {"type": "object", "properties": {"ms": {"type": "integer"}}},
    },
]

_lock = threading.Lock()
_calls: Counter[str] = Counter()


def send(message: dict[str, Any]) -> None:
    with _lock:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def reply(req_id: Any, result: dict[str, Any]) -> None:
    send({"jsonrpc": "2.0", "id": req_id, "result": result})


def fail(req_id: Any, code: int, message: str) -> None:
    send({"jsonrpc": "2.0", "id": req_id, "error": {"code": code, "message": message}})


def text(value: str, is_error: bool = False) -> dict[str, Any]:
    result: dict[str, Any] = {"content": [{"type": "text", "text": value}]}
    if is_error:
        result["isError"] = True
    return result


def call(req_id: Any, params: dict[str, Any]) -> None:
    name = params.get("name")
    arguments = params.get("arguments") or {}
    if not isinstance(name, str) or name not in {tool["name"] for tool in TOOLS}:
        fail(req_id, -32602, f"unknown tool: {name}")
        return
    with _lock:
        n = _calls[name]
        _calls[name] += 1
    if name == "ok":
        reply(req_id, text("ok"))
    elif name == "tool_error":
        reply(req_id, text("refused", is_error=True))
    elif name == "mixed":
        if n % 4 == 0:
            fail(req_id, -32603, "boom")
        else:
            reply(req_id, text("refused", is_error=True) if n % 4 == 1 else text("ok"))
    elif name == "distinct":
        fail(req_id, -32603, f"failure {n}")
    else:
        delay = float(arguments.get("ms", 0)) / 1000
        threading.Timer(delay, reply, (req_id, text("ok"))).start()


def dispatch(message: dict[str, Any]) -> None:
    method, req_id = message.get("method"), message.get("id")
    if req_id is None:
        return  # a notification
    params = message.get("params") or {}
    if method == "initialize":
        asked = params.get("protocolVersion")
        reply(
            req_id,
            {
                "protocolVersion": asked if asked in _VERSIONS else "2025-11-25",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "load-tools", "version": "1.0"},
            },
        )
    elif method == "ping":
        reply(req_id, {})
    elif method == "tools/list":
        reply(req_id, {"tools": TOOLS})
    elif method == "tools/call":
        call(req_id, params)
    else:
        fail(req_id, -32601, f"Method not found: {method}")


def main() -> int:
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if isinstance(message, dict):
            dispatch(message)
    return 0


if __name__ == "__main__":
    sys.exit(main())
