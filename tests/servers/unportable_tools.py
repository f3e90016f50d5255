"""A stdio MCP server whose tools/list holds schemas that are legal JSON Schema but not portable (stdlib only).

Run as ``python tests/servers/unportable_tools.py [all|warnings|clean|invalid] [violate]`` (words, not
options, so that no CLI takes them for its own). It reads newline-delimited JSON-RPC on stdin: ``initialize``
(echoes a known protocolVersion, else 2025-11-25; declares ``tools``; serverInfo name "unportable-tools"),
``ping`` -> {}, ``tools/list`` -> the set's tools, ``tools/call`` -> one text content "ok"; anything else
-32601. Notifications are never answered; it exits on stdin EOF.

Sets (``TOOLS_BY_SET``): ``all`` hits every portability rule (boolean-schema errors, type-union, remote-ref
and untyped-schema warnings) in every schema position the lint walks; ``warnings`` only the warning rules;
``clean`` none at all; ``invalid`` holds tools that are not valid MCP tools (``inputSchema`` ``{}`` and
``true``). ``violate`` adds a protocol violation the official CLI lets pass: before the tools/list answer, a
response to an id no request has (``"stray-<id>"``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")


def _tool(name: str, input_schema: Any, output_schema: Any = None) -> dict[str, Any]:
    tool: dict[str, Any] = {"name": name, "description": f"tool {name}", "inputSchema": input_schema}
    if output_schema is not None:
        tool["outputSchema"] = output_schema
    return tool


_OBJECT: dict[str, Any] = {"type": "object"}

_WARNING_TOOLS: list[dict[str, Any]] = [
    _tool(
        "type_union",
        {
            "type": "object",
            "properties": {
                "nullable": {"type": ["string", "null"]},
                "either": {"type": ["string", "number"]},
                "weird": {"type": ["string", "string"]},  # duplicates: not a portable union, not reported
            },
        },
    ),
    _tool(
        "remote_ref",
        {
            "type": "object",
            "properties": {
                "remote": {"$ref": "https://example.com/schemas/thing.json"},
                "local": {"$ref": "#/$defs/thing"},
            },
            "$defs": {"thing": {"type": "string"}},
        },
    ),
    _tool(  # an embedded $id anywhere: a remote-looking $ref may resolve inside the document, not reported
        "remote_ref_with_id",
        {
            "type": "object",
            "properties": {"remote": {"$ref": "thing.json"}},
            "$defs": {"thing": {"$id": "thing.json", "type": "string"}},
        },
    ),
    _tool(
        "untyped",
        {
            "type": "object",
            "properties": {
                "anything": {"description": "no validation keyword"},
                "first-name": {"title": "quoted in the path"},
                "9": {},  # an integer-like key: JavaScript lists it first
                "negated": {"not": {}},  # {} under not: fine
                "conditional": {"if": {"type": "string"}, "then": {"minLength": 1}},
                "lone_if": {"if": {"type": "string"}},
            },
            "patternProperties": {"^x-": {"description": "pattern"}},
            "definitions": {"legacy": {"description": "old-style definitions"}},
            "dependencies": {"a": ["b"], "c": {"description": "schema dependency"}},
        },
    ),
    _tool(
        "nested",
        {
            "type": "object",
            "properties": {
                "list": {"type": "array", "items": {"type": ["integer", "null"]}},
                "tuple": {"type": "array", "items": [{"type": "string"}, {}]},
                "prefix": {"type": "array", "prefixItems": [{"title": "p0"}]},
                "choice": {"anyOf": [{"type": "string"}, {"description": "b"}]},
                "all": {"allOf": [{"type": ["object", "null"]}]},
                "one": {"oneOf": [{"const": 1}, {}]},
                "has": {"type": "array", "contains": {}},
                "keys": {"type": "object", "propertyNames": {"description": "n"}},
                "encoded": {"type": "string", "contentSchema": {"title": "c"}},
                "open": {"type": "object", "additionalProperties": {"title": "v"}},
            },
            "dependentSchemas": {"list": {"description": "d"}},
        },
        {"type": "object", "properties": {"out": {"type": ["number", "null"]}, "free": {}}},
    ),
]

_ERROR_TOOLS: list[dict[str, Any]] = [
    _tool(
        "boolean_schemas",
        {
            "type": "object",
            "properties": {
                "free": True,
                "forbidden": False,
                "array": {"type": "array", "items": True},
                "never": {"not": True},
                "choice": {"anyOf": [True, {"type": "string"}]},
                "open": {"type": "object", "additionalProperties": True},  # boolean-valued keyword: fine
                "closed": {"type": "object", "additionalProperties": False, "unevaluatedProperties": False},
            },
            "$defs": {"any": True},
        },
    ),
    _tool("boolean_output", _OBJECT, {"type": "object", "properties": {"result": True}}),
    _tool("mixed", {"type": "object", "properties": {"x": True, "y": {"type": ["boolean", "null"]}}}),
]

_CLEAN_TOOLS: list[dict[str, Any]] = [
    _tool("echo", {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
    _tool("noargs", {"type": "object", "additionalProperties": False}),
    _tool(
        "structured",
        {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}},
        {"type": "object", "properties": {"double": {"type": "integer"}}, "required": ["double"]},
    ),
]

# Not valid MCP tools (an inputSchema must be an object schema with "type": "object"): the official CLI drops
# them from tools/list before linting; ours reports a protocol violation and lints them too.
_INVALID_TOOLS: list[dict[str, Any]] = [
    _tool("empty_root", {}),
    _tool("boolean_root", True),
]

TOOLS_BY_SET: dict[str, list[dict[str, Any]]] = {
    "all": _CLEAN_TOOLS[:1] + _WARNING_TOOLS + _ERROR_TOOLS,
    "warnings": _CLEAN_TOOLS[:1] + _WARNING_TOOLS,
    "clean": _CLEAN_TOOLS,
    "invalid": _CLEAN_TOOLS[:1] + _INVALID_TOOLS,
}


class Server:
    def __init__(self, tools: list[dict[str, Any]], violate: bool) -> None:
        self.tools = tools
        self.violate = violate

    def send(self, message: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()

    def answer(self, req_id: Any, result: dict[str, Any]) -> None:
        self.send({"jsonrpc": "2.0", "id": req_id, "result": result})

    def handle(self, message: Any) -> None:
        if not isinstance(message, dict) or "id" not in message or not isinstance(message.get("method"), str):
            return
        req_id, method = message["id"], message["method"]
        given = message.get("params")
        params: dict[str, Any] = given if isinstance(given, dict) else {}
        if method == "initialize":
            requested = params.get("protocolVersion")
            self.answer(
                req_id,
                {
                    "protocolVersion": requested if requested in _VERSIONS else "2025-11-25",
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "unportable-tools", "version": "1.0.0"},
                },
            )
        elif method == "ping":
            self.answer(req_id, {})
        elif method == "tools/list":
            if self.violate:
                self.answer(f"stray-{req_id}", {})
            self.answer(req_id, {"tools": self.tools})
        elif method == "tools/call":
            self.answer(req_id, {"content": [{"type": "text", "text": "ok"}]})
        else:
            error = {"code": -32601, "message": f"Method not found: {method}"}
            self.send({"jsonrpc": "2.0", "id": req_id, "error": error})

    def serve(self) -> None:
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except ValueError:
                continue
            self.handle(message)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("set", nargs="?", choices=sorted(TOOLS_BY_SET), default="all")
    parser.add_argument("violate", nargs="?", choices=["violate"])
    ns = parser.parse_args()
    Server(TOOLS_BY_SET[ns.set], ns.violate is not None).serve()


if __name__ == "__main__":
    main()
