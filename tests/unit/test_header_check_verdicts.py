"""The log's header verdicts: each Mcp-* header of a request checked against its body (content.header_check)."""

from __future__ import annotations

from typing import Any

from inspector.content.header_check import check_headers, tool_params_from_pages
from inspector.protocol import mcp_headers as mh
from inspector.protocol.envelope import PROTOCOL_VERSION_KEY

MODERN = "2026-07-28"
ROUTE = {
    "name": "route",
    "inputSchema": {
        "type": "object",
        "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "priority": {"type": "integer", "x-mcp-header": "Priority"},
            "query": {"type": "string"},
        },
    },
}
BAD = {"name": "bad", "inputSchema": {"type": "object", "properties": {"s": {"type": "number", "x-mcp-header": "S"}}}}


def body(method: str, params: dict[str, Any] | None = None, version: str | None = MODERN) -> dict[str, Any]:
    params = dict(params or {})
    if version is not None:
        params["_meta"] = {PROTOCOL_VERSION_KEY: version}
    return {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}


def by_header(verdicts: list[Any]) -> dict[str, Any]:
    return {v.header: v for v in verdicts}


def test_what_the_engine_sends_passes_every_check() -> None:
    tools = tool_params_from_pages([{"tools": [ROUTE, BAD]}])
    params = {"name": "route", "arguments": {"region": "eu wést", "priority": 3, "query": "x"}}
    sent = mh.request_headers("tools/call", params, MODERN, tools)
    verdicts = check_headers(body("tools/call", params), list(sent.items()), tools)
    assert [v.header for v in verdicts] == [
        "MCP-Protocol-Version", "Mcp-Method", "Mcp-Name", "Mcp-Param-Region", "Mcp-Param-Priority",
    ]  # fmt: skip
    assert all(v.status == "pass" for v in verdicts), verdicts
    assert "Base64" in by_header(verdicts)["Mcp-Param-Region"].rule
    assert "bad" not in tools  # dropped, as the client drops it


def test_each_disagreement_fails_with_its_rule_in_words() -> None:
    tools = tool_params_from_pages([{"tools": [ROUTE]}])
    params = {"name": "route", "arguments": {"region": "eu", "query": "x"}}
    sent = [
        ("MCP-Protocol-Version", "2025-11-25"),
        ("Mcp-Method", "tools/list"),
        ("Mcp-Name", "other"),
        ("Mcp-Param-Region", "us"),
        ("Mcp-Param-Priority", "5"),
        ("Mcp-Param-Sneaky", "1"),
    ]
    found = by_header(check_headers(body("tools/call", params), sent, tools))
    assert {name: v.status for name, v in found.items()} == dict.fromkeys(found, "fail")
    assert found["MCP-Protocol-Version"].rule.startswith('does not match the body: "2025-11-25" here, "2026-07-28"')
    assert found["Mcp-Name"].rule == 'does not match the body: "other" here, "route" in params.name'
    assert found["Mcp-Param-Region"].expected == "eu"
    assert found["Mcp-Param-Priority"].rule == "must be omitted: arguments.priority is absent or null"
    assert found["Mcp-Param-Sneaky"].rule == "the tool 'route' declares no x-mcp-header 'Sneaky'"


def test_missing_headers_and_headers_a_method_does_not_carry() -> None:
    listed = check_headers(body("tools/list"), [("Mcp-Name", "x"), ("Mcp-Param-A", "1")], {})
    found = by_header(listed)
    assert found["MCP-Protocol-Version"].rule.startswith("missing")
    assert found["Mcp-Method"].status == "fail"
    assert found["Mcp-Name"].rule.startswith("tools/list carries no Mcp-Name")
    assert found["Mcp-Param-A"].rule == "tools/list carries no Mcp-Param-* headers (only tools/call does)"
    read = by_header(check_headers(body("resources/read", {"uri": "demo://x"}), [("MCP-Protocol-Version", MODERN)]))
    assert read["Mcp-Name"].rule == "missing: resources/read mirrors params.uri in Mcp-Name"


def test_a_non_ascii_name_sent_as_is_or_in_broken_base64_fails() -> None:
    params = {"name": "café"}
    raw = by_header(check_headers(body("prompts/get", params), [("Mcp-Name", "café")]))
    assert raw["Mcp-Name"].rule.endswith("must travel Base64-encoded (=?base64?…?=)")
    broken = by_header(check_headers(body("prompts/get", params), [("Mcp-Name", "=?base64?!!?=")]))
    assert "not canonical Base64" in broken["Mcp-Name"].rule


def test_handshake_era_and_unknown_annotations_are_information_only() -> None:
    old = check_headers(body("tools/call", {"name": "route"}, version=None), [("MCP-Protocol-Version", "2025-11-25")])
    assert [(v.header, v.status) for v in old] == [("MCP-Protocol-Version", "info")]
    params = {"name": "route", "arguments": {"region": "eu"}}
    unknown = by_header(check_headers(body("tools/call", params), [("Mcp-Param-Region", "eu")], None))
    assert unknown["Mcp-Param-Region"].status == "info" and "not known" in unknown["Mcp-Param-Region"].rule
    assert check_headers("not a body", []) == []


def test_a_later_listing_replaces_the_annotations() -> None:
    plain = {"name": "route", "inputSchema": {"type": "object", "properties": {"region": {"type": "string"}}}}
    assert "route" in tool_params_from_pages([{"tools": [ROUTE]}])
    assert tool_params_from_pages([{"tools": [ROUTE]}, {"tools": [plain]}])["route"].params == ()
