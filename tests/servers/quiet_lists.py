"""A 2026-07-28 stdio MCP server whose lists are cacheable and change without a word (stdlib only).

Run as ``python tests/servers/quiet_lists.py``. Newline-delimited JSON-RPC on stdin, 2026-07-28 only
(``initialize`` is refused with -32601):

* ``server/discover``: ``supportedVersions`` ["2026-07-28"], ``tools``, ``prompts`` and ``resources`` declared
  **without** ``listChanged`` (so no client listens for changes), ``ttlMs`` 60000, public;
* ``tools/list``, ``prompts/list``, ``resources/list``, ``resources/templates/list``: cacheable for an hour
  (``ttlMs`` 3600000, ``cacheScope`` private): a cached answer stays fresh however the server changes;
* ``tools/call`` of ``add_quietly``: adds one tool (``quiet_N``), one prompt (``quiet_prompt_N``) and one resource
  (``quiet://N``) and sends **no** list_changed notification; ``echo``: echoes ``arguments.text``;
* ``prompts/get``, ``resources/read``: a short text; ``ping`` -> {}; anything else -32601.

Every result carries ``resultType: "complete"``. Exits on stdin EOF.
"""

from __future__ import annotations

import json
import sys
from typing import Any

HOUR_MS = 3_600_000
INFO = {"name": "quiet-lists", "version": "1.0.0"}
CAPABILITIES: dict[str, Any] = {"tools": {}, "prompts": {}, "resources": {}}
OBJECT: dict[str, Any] = {"type": "object"}


class Lists:
    def __init__(self) -> None:
        self.added = 0

    def tools(self) -> list[dict[str, Any]]:
        tools = [
            {"name": "add_quietly", "description": "Adds a tool, a prompt and a resource; says nothing",
             "inputSchema": OBJECT},
            {"name": "echo", "description": "Echoes text",
             "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}},
        ]  # fmt: skip
        tools += [{"name": f"quiet_{n}", "inputSchema": OBJECT} for n in range(1, self.added + 1)]
        return tools

    def prompts(self) -> list[dict[str, Any]]:
        return [{"name": "base_prompt"}] + [{"name": f"quiet_prompt_{n}"} for n in range(1, self.added + 1)]

    def resources(self) -> list[dict[str, Any]]:
        listed = [{"uri": "quiet://base", "name": "base"}]
        listed += [{"uri": f"quiet://{n}", "name": f"quiet {n}"} for n in range(1, self.added + 1)]
        return listed


def answer(lists: Lists, rid: Any, method: str, params: dict[str, Any]) -> dict[str, Any]:
    cached: dict[str, Any] = {"ttlMs": HOUR_MS, "cacheScope": "private"}
    result: dict[str, Any]
    if method == "server/discover":
        result = {"supportedVersions": ["2026-07-28"], "capabilities": CAPABILITIES, "serverInfo": INFO,
                  "ttlMs": 60_000, "cacheScope": "public"}  # fmt: skip
    elif method == "tools/list":
        result = {"tools": lists.tools(), **cached}
    elif method == "prompts/list":
        result = {"prompts": lists.prompts(), **cached}
    elif method == "resources/list":
        result = {"resources": lists.resources(), **cached}
    elif method == "resources/templates/list":
        result = {"resourceTemplates": [], **cached}
    elif method == "tools/call" and params.get("name") == "add_quietly":
        lists.added += 1
        result = {"content": [{"type": "text", "text": f"added quiet_{lists.added} (no list_changed sent)"}]}
    elif method == "tools/call" and params.get("name") == "echo":
        given = params.get("arguments")
        text = str(given.get("text", "")) if isinstance(given, dict) else ""
        result = {"content": [{"type": "text", "text": text}]}
    elif method == "prompts/get":
        text = f"prompt {params.get('name')}"
        result = {"messages": [{"role": "user", "content": {"type": "text", "text": text}}]}
    elif method == "resources/read":
        uri = str(params.get("uri", ""))
        result = {"contents": [{"uri": uri, "mimeType": "text/plain", "text": f"resource {uri}"}], "ttlMs": 0}
    elif method == "ping":
        result = {}
    else:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": f"Method not found: {method}"}}
    return {"jsonrpc": "2.0", "id": rid, "result": {"resultType": "complete", **result}}


def main() -> None:
    lists = Lists()
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict) or "id" not in message or "method" not in message:
            continue
        given = message.get("params")
        params: dict[str, Any] = given if isinstance(given, dict) else {}
        sys.stdout.write(json.dumps(answer(lists, message["id"], message["method"], params)) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
