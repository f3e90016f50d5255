"""A bare 2026-07-28 HTTP client whose headers come from inspector.protocol.mcp_headers (for the conformance suite).

``python tests/servers/headers_client.py URL``: ``server/discover``, ``tools/list`` (tools with invalid
``x-mcp-header`` annotations dropped, as the spec requires), then every kept tool called (with the arguments
the scenario passes in ``MCP_CONFORMANCE_CONTEXT`` ``toolCalls``, else its required string arguments as
``"x"``), every listed resource read and every listed prompt got. Each request carries the headers
:func:`request_headers` computes, so the scenarios' header checks judge exactly those functions.
It is not the inspector's client (that one has its own transport); it exists to test the pure header rules.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
from typing import Any

import httpx2

from inspector.protocol.mcp_headers import filter_tools, header_params_by_tool, request_headers

VERSION = "2026-07-28"
_ids = itertools.count(1)


def rpc(client: httpx2.Client, url: str, method: str, params: dict[str, Any], tools: dict[str, Any]) -> Any:
    meta = {
        "io.modelcontextprotocol/protocolVersion": VERSION,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "headers-client", "version": "0"},
    }
    body = {"jsonrpc": "2.0", "id": next(_ids), "method": method, "params": {**params, "_meta": meta}}
    headers = {"Accept": "application/json, text/event-stream", **request_headers(method, params, VERSION, tools)}
    response = client.post(url, json=body, headers=headers)
    text = response.text
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        data = [line[5:].strip() for line in text.splitlines() if line.startswith("data:") and line[5:].strip()]
        text = data[-1] if data else "{}"
    answer = json.loads(text) if text.strip() else {}
    return answer.get("result", {})


def default_arguments(tool: dict[str, Any]) -> dict[str, Any]:
    found = tool.get("inputSchema")
    schema: dict[str, Any] = found if isinstance(found, dict) else {}
    listed = schema.get("properties")
    props: dict[str, Any] = listed if isinstance(listed, dict) else {}
    return {name: "x" for name in schema.get("required", []) if isinstance(props.get(name), dict)}


def main(url: str) -> int:
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    planned = {call["name"]: call.get("arguments", {}) for call in context.get("toolCalls", [])}
    with httpx2.Client(timeout=20) as client:
        rpc(client, url, "server/discover", {}, {})
        tools = rpc(client, url, "tools/list", {}, {}).get("tools", [])
        kept, dropped = filter_tools(tools)
        for gone in dropped:
            print(f"warning: {gone.message}", file=sys.stderr)
        index = header_params_by_tool(kept)
        for tool in kept:
            arguments = planned.get(tool["name"], default_arguments(tool))
            rpc(client, url, "tools/call", {"name": tool["name"], "arguments": arguments}, index)
        for resource in rpc(client, url, "resources/list", {}, {}).get("resources", []):
            rpc(client, url, "resources/read", {"uri": resource["uri"]}, {})
        for prompt in rpc(client, url, "prompts/list", {}, {}).get("prompts", []):
            rpc(client, url, "prompts/get", {"name": prompt["name"], "arguments": {}}, {})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[-1]))
