"""Checks of our requests' results beyond their schema, as protocol findings: what the window's viewers find
(a structuredContent that breaks the tool's outputSchema, base64 that does not decode, bytes that contradict
their declared mimeType) is a diagnostic on the answer's frame, so it is recorded, counted and filtered like
every other; the viewers show the same findings, from the same functions (``inspector.content``).

The outputSchemas are learnt from the ``tools/list`` results the connection receives (every page); one
:class:`OutputSchemaCheck` per connection, installed in each of its sessions (``ClientSession.result_checks``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from inspector.content.blocks import InvalidBase64Error, decode_base64
from inspector.content.media import mime_mismatch
from inspector.content.validation import SchemaIssue, validate_tool_result
from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode, Severity

__all__ = ["OutputSchemaCheck", "output_schema_diagnostic", "payload_diagnostics"]


def output_schema_diagnostic(tool: str, issue: SchemaIssue) -> Diagnostic:
    """One outputSchema issue as a diagnostic, its path inside the response frame."""
    if issue.path.startswith("$"):
        path: str | None = "$.result.structuredContent" + issue.path[1:]
    elif issue.path == "structuredContent":
        path = "$.result.structuredContent"
    else:
        path = None
    where = f" at {issue.path}" if issue.path.startswith("$") else ""
    return Diagnostic(
        DiagnosticCode.OUTPUT_SCHEMA,
        f"structuredContent does not match the outputSchema of {tool}{where}: {issue.message}",
        Severity.VIOLATION,
        path,
    )


def _payloads(method: str, result: dict[str, Any]) -> Iterator[tuple[str, Any, Any]]:
    """(path of the base64 string, the string, the declared mimeType) of every binary payload of a result."""

    def of_block(block: Any, path: str) -> Iterator[tuple[str, Any, Any]]:
        if not isinstance(block, dict):
            return
        if block.get("type") in ("image", "audio") and "data" in block:
            yield f"{path}.data", block["data"], block.get("mimeType")
        resource = block.get("resource")
        if block.get("type") == "resource" and isinstance(resource, dict) and "blob" in resource:
            yield f"{path}.resource.blob", resource["blob"], resource.get("mimeType")

    if method == "tools/call" and isinstance(result.get("content"), list):
        for i, block in enumerate(result["content"]):
            yield from of_block(block, f"$.result.content[{i}]")
    elif method == "prompts/get" and isinstance(result.get("messages"), list):
        for i, message in enumerate(result["messages"]):
            if isinstance(message, dict):
                yield from of_block(message.get("content"), f"$.result.messages[{i}].content")
    elif method == "resources/read" and isinstance(result.get("contents"), list):
        for i, item in enumerate(result["contents"]):
            if isinstance(item, dict) and "blob" in item:
                yield f"$.result.contents[{i}].blob", item["blob"], item.get("mimeType")


def payload_diagnostics(method: str, result: Any) -> list[Diagnostic]:
    """Base64 payloads of a tools/call, prompts/get or resources/read result that do not decode (a violation)
    or whose bytes are clearly another format than their mimeType says (a warning) — what the viewers flag."""
    if not isinstance(result, dict):
        return []
    found: list[Diagnostic] = []
    for path, data, mime in _payloads(method, result):
        try:
            raw = decode_base64(data)
        except InvalidBase64Error as exc:
            found.append(Diagnostic(DiagnosticCode.CONTENT, f"{method} result: {exc}", Severity.VIOLATION, path))
            continue
        mismatch = mime_mismatch(mime if isinstance(mime, str) else None, raw)
        if mismatch:
            found.append(Diagnostic(DiagnosticCode.CONTENT, f"{method} result: {mismatch}", Severity.WARNING, path))
    return found


class OutputSchemaCheck:
    """``check(method, params, result)`` for ``ClientSession.result_checks``: outputSchemas and payloads."""

    def __init__(self) -> None:
        self.schemas: dict[str, dict[str, Any]] = {}
        """Tool name -> its outputSchema (tools that declare none are absent)."""

    def __call__(self, method: str, params: dict[str, Any] | None, result: Any) -> list[Diagnostic]:
        if not isinstance(result, dict):
            return []
        if method == "tools/list":
            self._learn(result)
            return []
        found = payload_diagnostics(method, result)
        if method == "tools/call" and isinstance(params, dict):
            name = params.get("name")
            schema = self.schemas.get(name) if isinstance(name, str) else None
            if schema is not None and isinstance(name, str):
                found[:0] = [output_schema_diagnostic(name, issue) for issue in validate_tool_result(result, schema)]
        return found

    def _learn(self, result: dict[str, Any]) -> None:
        tools = result.get("tools")
        if not isinstance(tools, list):
            return
        for tool in tools:
            if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
                continue
            schema = tool.get("outputSchema")
            if isinstance(schema, dict):
                self.schemas[tool["name"]] = schema
            else:
                self.schemas.pop(tool["name"], None)
