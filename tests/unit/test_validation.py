"""Validation of inbound MCP messages against mcp-types: diagnostics with exact JSON paths, never exceptions."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.protocol import validation
from inspector.protocol.diagnostics import DiagnosticCode, Severity
from inspector.protocol.validation import (
    MAX_DIAGNOSTICS_PER_MESSAGE,
    known_server_notification,
    known_server_request,
    validate_client_result,
    validate_server_notification,
    validate_server_request,
    validate_server_result,
)
from inspector.protocol.versions import HANDSHAKE_VERSIONS

V = "2025-11-25"
SCHEMA_OBJ = {"type": "object"}
INFO = {"name": "s", "version": "1"}


def paths(diags) -> list[str]:
    assert all(d.code is DiagnosticCode.SCHEMA for d in diags)
    assert all(d.severity is Severity.VIOLATION for d in diags)
    return sorted(d.path for d in diags)


# ---------------------------------------------------------------- results of our requests

RESULTS = [
    # (method, result, expected paths (sorted); [] = valid)
    ("initialize", {"protocolVersion": V, "capabilities": {}, "serverInfo": INFO}, []),
    ("initialize", {"protocolVersion": V, "capabilities": {}, "serverInfo": INFO, "instructions": "x"}, []),
    ("initialize", {"protocolVersion": V, "capabilities": {}}, ["$.result.serverInfo"]),
    ("initialize", {"protocolVersion": 5, "capabilities": {}, "serverInfo": INFO}, ["$.result.protocolVersion"]),
    (
        "initialize",
        {"protocolVersion": V, "capabilities": {}, "serverInfo": {"name": "s"}},
        ["$.result.serverInfo.version"],
    ),
    (
        "initialize",
        {"protocolVersion": V, "capabilities": {"experimental": {"my-ext": 5}}, "serverInfo": INFO},
        ['$.result.capabilities.experimental["my-ext"]'],
    ),
    ("ping", {}, []),
    ("ping", {"_meta": {"k": 1}}, []),
    ("ping", [], ["$.result"]),
    ("ping", {"_meta": 5}, ["$.result._meta"]),
    ("logging/setLevel", {}, []),
    ("resources/subscribe", {}, []),
    ("tools/list", {"tools": []}, []),
    ("tools/list", {"tools": [{"name": "a", "inputSchema": SCHEMA_OBJ}], "nextCursor": "c2"}, []),
    ("tools/list", {}, ["$.result.tools"]),
    ("tools/list", {"tools": {}}, ["$.result.tools"]),
    ("tools/list", {"tools": [{"name": 1, "inputSchema": SCHEMA_OBJ}]}, ["$.result.tools[0].name"]),
    ("tools/list", {"tools": [{"name": "a"}]}, ["$.result.tools[0].inputSchema"]),
    (
        "tools/list",
        {"tools": [{"name": "a", "inputSchema": {"type": "array"}}]},
        ["$.result.tools[0].inputSchema.type"],
    ),
    ("tools/list", {"tools": [], "nextCursor": 3}, ["$.result.nextCursor"]),
    (
        "tools/list",
        {"tools": [{"name": "a", "inputSchema": SCHEMA_OBJ, "icons": [{"mimeType": "image/png"}]}]},
        ["$.result.tools[0].icons[0].src"],
    ),
    (
        "tools/list",
        {"tools": [{"name": "a", "inputSchema": SCHEMA_OBJ}, {"name": "b", "inputSchema": SCHEMA_OBJ, "title": 1}]},
        ["$.result.tools[1].title"],
    ),
    ("tools/call", {"content": [{"type": "text", "text": "hi"}]}, []),
    ("tools/call", {"content": [], "isError": True, "structuredContent": {"a": 1}}, []),
    (
        "tools/call",
        {
            "content": [
                {"type": "image", "data": "aGk=", "mimeType": "image/png"},
                {"type": "audio", "data": "aGk=", "mimeType": "audio/wav"},
                {"type": "resource_link", "uri": "file:///a", "name": "a"},
                {"type": "resource", "resource": {"uri": "file:///a", "text": "x"}},
                {"type": "resource", "resource": {"uri": "file:///b", "blob": "aGk="}},
            ]
        },
        [],
    ),
    ("tools/call", {}, ["$.result.content"]),
    ("tools/call", {"content": "text"}, ["$.result.content"]),
    ("tools/call", {"content": [{"type": "text"}]}, ["$.result.content[0].text"]),
    (
        "tools/call",
        {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": 5}]},
        ["$.result.content[1].text"],
    ),
    ("tools/call", {"content": [{"type": "image", "data": "aGk="}]}, ["$.result.content[0].mimeType"]),
    ("tools/call", {"content": [{"type": "audio"}]}, ["$.result.content[0].data", "$.result.content[0].mimeType"]),
    ("tools/call", {"content": [{"type": "resource_link", "uri": "file:///a"}]}, ["$.result.content[0].name"]),
    ("tools/call", {"content": [{"type": "video"}]}, ["$.result.content[0].type"]),
    ("tools/call", {"content": [], "structuredContent": [1]}, ["$.result.structuredContent"]),
    ("resources/list", {"resources": [{"uri": "file:///a", "name": "a", "mimeType": "text/plain"}]}, []),
    ("resources/list", {"resources": [{"uri": "file:///a"}]}, ["$.result.resources[0].name"]),
    ("resources/templates/list", {"resourceTemplates": [{"uriTemplate": "file:///{p}", "name": "t"}]}, []),
    ("resources/templates/list", {"resourceTemplates": [{"name": "t"}]}, ["$.result.resourceTemplates[0].uriTemplate"]),
    ("resources/read", {"contents": [{"uri": "a://b", "text": "x"}, {"uri": "a://c", "blob": "aGk="}]}, []),
    ("resources/read", {"contents": [{"uri": "a://b"}]}, ["$.result.contents[0].blob", "$.result.contents[0].text"]),
    ("prompts/list", {"prompts": [{"name": "p", "arguments": [{"name": "a", "required": True}]}]}, []),
    (
        "prompts/list",
        {"prompts": [{"name": "p", "arguments": [{"required": True}]}]},
        ["$.result.prompts[0].arguments[0].name"],
    ),
    ("prompts/get", {"messages": [{"role": "user", "content": {"type": "text", "text": "x"}}]}, []),
    (
        "prompts/get",
        {"messages": [{"role": "bot", "content": {"type": "text", "text": "x"}}]},
        ["$.result.messages[0].role"],
    ),
    (
        "prompts/get",
        {"messages": [{"role": "user", "content": {"type": "text"}}]},
        ["$.result.messages[0].content.text"],
    ),
    (
        "prompts/get",
        {"messages": [{"role": "user", "content": {"type": "video"}}]},
        ["$.result.messages[0].content.type"],
    ),
    ("completion/complete", {"completion": {"values": ["a"], "hasMore": False, "total": 1}}, []),
    ("completion/complete", {}, ["$.result.completion"]),
    ("completion/complete", {"completion": {"values": "a"}}, ["$.result.completion.values"]),
]


@pytest.mark.parametrize(("method", "result", "expected"), RESULTS)
def test_server_results(method: str, result: Any, expected: list[str]) -> None:
    diags = validate_server_result(method, V, result)
    assert paths(diags) == expected
    for d in diags:
        assert d.message.startswith(f"{method} result: ")


@pytest.mark.parametrize("version", HANDSHAKE_VERSIONS)
def test_results_are_checked_in_every_handshake_version(version: str) -> None:
    assert validate_server_result("tools/list", version, {"tools": [{"name": "a", "inputSchema": SCHEMA_OBJ}]}) == []
    assert paths(validate_server_result("tools/list", version, {"tools": [{"name": 2}]})) == [
        "$.result.tools[0].inputSchema",
        "$.result.tools[0].name",
    ]


@pytest.mark.parametrize(
    ("method", "version"),
    [("vendor/custom", V), ("tools/list", "1999-01-01"), ("server/discover", V), ("tasks/get", V)],
)
def test_unknown_methods_and_versions_are_not_checked(method: str, version: str) -> None:
    assert validate_server_result(method, version, object()) == []


@pytest.mark.parametrize(
    "result",
    [None, 5, "x", [], {"tools": [None, 1, "x"]}, {"tools": [{"name": {"deep": [[[]]]}}]}],
)
def test_garbage_results_never_raise(result: Any) -> None:
    diags = validate_server_result("tools/list", V, result)
    assert diags
    assert all(d.path and d.path.startswith("$.result") for d in diags)


# ---------------------------------------------------------------- union pruning


def test_text_block_without_text_reports_only_text() -> None:
    diags = validate_server_result("tools/call", V, {"content": [{"type": "text"}]})
    assert [(d.path, d.message) for d in diags] == [("$.result.content[0].text", "tools/call result: Field required")]


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        ({"type": "text", "text": 1}, ["$.result.content[0].text"]),
        ({"type": "image", "mimeType": "image/png"}, ["$.result.content[0].data"]),
        ({"type": "audio", "data": "x"}, ["$.result.content[0].mimeType"]),
        ({"type": "resource_link", "name": "n"}, ["$.result.content[0].uri"]),
        ({"type": "resource"}, ["$.result.content[0].resource"]),
        ({"type": "image", "data": "x", "mimeType": 5}, ["$.result.content[0].mimeType"]),
    ],
)
def test_a_tagged_block_is_blamed_only_for_its_own_arm(block: dict[str, Any], expected: list[str]) -> None:
    assert paths(validate_server_result("tools/call", V, {"content": [block]})) == expected


@pytest.mark.parametrize("tag", ["video", "", 5, None, "TEXT"])
def test_an_unknown_tag_is_reported_once(tag: Any) -> None:
    diags = validate_server_result("tools/call", V, {"content": [{"type": tag, "text": "x"}]})
    assert [d.path for d in diags] == ["$.result.content[0].type"]


def test_pruning_is_per_block() -> None:
    content = [
        {"type": "text", "text": "ok"},
        {"type": "image", "data": "x", "mimeType": 5},
        {"type": "audio"},
        {"type": "resource_link", "uri": "a://b"},
        {"type": "nope"},
    ]
    assert paths(validate_server_result("tools/call", V, {"content": content})) == [
        "$.result.content[1].mimeType",
        "$.result.content[2].data",
        "$.result.content[2].mimeType",
        "$.result.content[3].name",
        "$.result.content[4].type",
    ]


def test_embedded_resource_with_bad_contents_is_not_blamed_for_its_tag() -> None:
    result = {"content": [{"type": "resource", "resource": {"uri": "a://b"}}]}
    assert paths(validate_server_result("tools/call", V, result)) == [
        "$.result.content[0].resource.blob",
        "$.result.content[0].resource.text",
    ]


def test_block_without_a_tag_reports_the_missing_tag() -> None:
    diags = validate_server_result("tools/call", V, {"content": [{"text": "x"}]})
    assert [d.path for d in diags] == ["$.result.content[0].type"]


def test_form_elicitation_is_not_blamed_for_url_mode_fields() -> None:
    diags = validate_server_request("elicitation/create", V, {"message": "m"})
    assert [d.path for d in diags] == ["$.params.requestedSchema"]


# ---------------------------------------------------------------- path rendering


@pytest.mark.parametrize(
    ("kind", "method", "body", "expected"),
    [
        ("notification", "notifications/progress", {"progressToken": 1.5, "progress": 1}, ["$.params.progressToken"]),
        (
            "client result",
            "elicitation/create",
            {"action": "accept", "content": {"a": {"b": 1}}},
            ["$.result.content.a"],
        ),
    ],
)
def test_primitive_union_members_are_not_path_segments(kind: str, method: str, body: Any, expected: list[str]) -> None:
    if kind == "notification":
        diags = validate_server_notification(method, V, body)
    else:
        diags = validate_client_result(method, V, body)
    assert sorted({d.path for d in diags}) == expected


def test_capitalised_keys_stay_in_the_path() -> None:
    result = {"protocolVersion": V, "capabilities": {"experimental": {"Foo": 5}}, "serverInfo": INFO}
    assert paths(validate_server_result("initialize", V, result)) == ["$.result.capabilities.experimental.Foo"]


def test_too_many_errors_are_capped_with_a_summary() -> None:
    result = {"tools": [{"name": i} for i in range(20)]}  # 2 errors per tool
    diags = validate_server_result("tools/list", V, result)
    assert len(diags) == MAX_DIAGNOSTICS_PER_MESSAGE + 1
    assert diags[-1].path == "$.result"
    assert diags[-1].message == "tools/list result: and 32 more schema errors"
    assert len({d.path for d in diags}) == len(diags)


def test_exactly_the_cap_has_no_summary() -> None:
    result = {"tools": [{"name": i} for i in range(4)]}  # 8 errors
    diags = validate_server_result("tools/list", V, result)
    assert len(diags) == MAX_DIAGNOSTICS_PER_MESSAGE
    assert not any("more schema errors" in d.message for d in diags)


def test_deepest_errors_come_first() -> None:
    result = {"tools": [{"name": "a", "inputSchema": {"type": "array"}}], "nextCursor": 1}
    assert [d.path for d in validate_server_result("tools/list", V, result)] == [
        "$.result.tools[0].inputSchema.type",
        "$.result.nextCursor",
    ]


# ---------------------------------------------------------------- lax coercion


@pytest.mark.parametrize(
    ("kind", "method", "body", "expected"),
    [
        ("result", "tools/call", {"content": [], "isError": "yes"}, ["$.result.isError"]),
        ("result", "tools/call", {"content": [], "isError": 1}, ["$.result.isError"]),
        ("notification", "notifications/progress", {"progressToken": 1, "progress": "0.5"}, ["$.params.progress"]),
        ("notification", "notifications/cancelled", {"requestId": True}, ["$.params.requestId"]),
        ("notification", "notifications/progress", {"progressToken": 1, "progress": True}, ["$.params.progress"]),
        (
            "request",
            "sampling/createMessage",
            {"messages": [], "maxTokens": "5"},
            ["$.params.maxTokens"],
        ),
    ],
    ids=["isError string", "isError number", "progress string", "requestId bool", "progress bool", "maxTokens string"],
)
def test_wrong_json_types_that_pydantic_would_coerce_are_reported(
    kind: str, method: str, body: Any, expected: list[str]
) -> None:
    if kind == "result":
        diags = validate_server_result(method, V, body)
    elif kind == "notification":
        diags = validate_server_notification(method, V, body)
    else:
        diags = validate_server_request(method, V, body)
    assert sorted({d.path for d in diags}) == expected


# ---------------------------------------------------------------- notifications

NOTIFICATIONS = [
    ("notifications/progress", {"progressToken": 1, "progress": 0.5, "total": 1, "message": "half"}, []),
    ("notifications/progress", {"progressToken": "t", "progress": 2}, []),
    ("notifications/progress", None, ["$.params"]),
    ("notifications/progress", {"progressToken": 1}, ["$.params.progress"]),
    ("notifications/progress", {"progressToken": 1, "progress": "a"}, ["$.params.progress"]),
    ("notifications/progress", {"progressToken": 1, "progress": 1, "message": 5}, ["$.params.message"]),
    ("notifications/message", {"level": "info", "data": {"any": ["thing"]}, "logger": "l"}, []),
    ("notifications/message", {"level": "loud", "data": 1}, ["$.params.level"]),
    ("notifications/message", {"level": "info"}, ["$.params.data"]),
    ("notifications/resources/updated", {"uri": "file:///a"}, []),
    ("notifications/resources/updated", {}, ["$.params.uri"]),
    ("notifications/tools/list_changed", None, []),
    ("notifications/tools/list_changed", {"_meta": {}}, []),
    ("notifications/tools/list_changed", {"_meta": 1}, ["$.params._meta"]),
    ("notifications/prompts/list_changed", None, []),
    ("notifications/resources/list_changed", None, []),
    ("notifications/cancelled", {"requestId": 3, "reason": "x"}, []),
    ("notifications/cancelled", {"requestId": 3, "reason": 5}, ["$.params.reason"]),
    ("notifications/elicitation/complete", {"elicitationId": "e"}, []),
    ("notifications/elicitation/complete", {}, ["$.params.elicitationId"]),
    ("notifications/vendor/custom", {"whatever": 1}, []),
]


@pytest.mark.parametrize(("method", "params", "expected"), NOTIFICATIONS)
def test_server_notifications(method: str, params: Any, expected: list[str]) -> None:
    diags = validate_server_notification(method, V, params)
    assert paths(diags) == expected
    for d in diags:
        assert d.message.startswith(f"{method} notification: ")


# ---------------------------------------------------------------- server requests

SAMPLING_OK = {"messages": [{"role": "user", "content": {"type": "text", "text": "x"}}], "maxTokens": 5}
REQUESTS = [
    ("ping", None, []),
    ("roots/list", None, []),
    ("roots/list", {}, []),
    ("roots/list", {"_meta": 3}, ["$.params._meta"]),
    ("sampling/createMessage", SAMPLING_OK, []),
    ("sampling/createMessage", {**SAMPLING_OK, "systemPrompt": "s", "temperature": 0.2, "stopSequences": ["x"]}, []),
    ("sampling/createMessage", None, ["$.params"]),
    ("sampling/createMessage", {"messages": SAMPLING_OK["messages"]}, ["$.params.maxTokens"]),
    (
        "sampling/createMessage",
        {"messages": [{"role": "robot", "content": {"type": "text", "text": "x"}}], "maxTokens": 5},
        ["$.params.messages[0].role"],
    ),
    ("elicitation/create", {"message": "m", "requestedSchema": {"type": "object", "properties": {}}}, []),
    ("elicitation/create", {"mode": "url", "message": "m", "url": "https://x.example", "elicitationId": "e"}, []),
]


@pytest.mark.parametrize(("method", "params", "expected"), REQUESTS)
def test_server_requests(method: str, params: Any, expected: list[str]) -> None:
    diags = validate_server_request(method, V, params)
    assert paths(diags) == expected
    for d in diags:
        assert d.message.startswith(f"{method} request: ")


# ---------------------------------------------------------------- our own answers

CLIENT_RESULTS = [
    ("ping", {}, []),
    ("roots/list", {"roots": [{"uri": "file:///x", "name": "x"}]}, []),
    ("roots/list", {"roots": [{"name": "x"}]}, ["$.result.roots[0].uri"]),
    ("roots/list", {}, ["$.result.roots"]),
    ("sampling/createMessage", {"role": "assistant", "content": {"type": "text", "text": "x"}, "model": "m"}, []),
    ("sampling/createMessage", {"role": "assistant", "content": {"type": "text", "text": "x"}}, ["$.result.model"]),
    ("elicitation/create", {"action": "accept", "content": {"a": "x", "b": 1, "c": True}}, []),
    ("elicitation/create", {"action": "decline"}, []),
    ("elicitation/create", {"action": "cancel"}, []),
    ("elicitation/create", {"action": "maybe"}, ["$.result.action"]),
]


@pytest.mark.parametrize(("method", "result", "expected"), CLIENT_RESULTS)
def test_client_results(method: str, result: Any, expected: list[str]) -> None:
    assert paths(validate_client_result(method, V, result)) == expected


# ---------------------------------------------------------------- what exists in which version


@pytest.mark.parametrize(
    ("method", "present"),
    [
        ("ping", HANDSHAKE_VERSIONS),
        ("roots/list", HANDSHAKE_VERSIONS),
        ("sampling/createMessage", HANDSHAKE_VERSIONS),
        ("elicitation/create", ("2025-06-18", "2025-11-25")),
        ("elicitation/request", ()),
        ("tools/list", ()),
    ],
)
def test_known_server_requests_by_version(method: str, present: tuple[str, ...]) -> None:
    for version in HANDSHAKE_VERSIONS:
        assert known_server_request(method, version) is (version in present), version


@pytest.mark.parametrize(
    ("method", "present"),
    [
        ("notifications/progress", HANDSHAKE_VERSIONS),
        ("notifications/message", HANDSHAKE_VERSIONS),
        ("notifications/tools/list_changed", HANDSHAKE_VERSIONS),
        ("notifications/elicitation/complete", ("2025-11-25",)),
        ("notifications/initialized", ()),
        ("notifications/roots/list_changed", ()),
    ],
)
def test_known_server_notifications_by_version(method: str, present: tuple[str, ...]) -> None:
    for version in HANDSHAKE_VERSIONS:
        assert known_server_notification(method, version) is (version in present), version


def test_validation_never_raises_on_non_mapping_params() -> None:
    for params in (None, {}, {"x": object()}):
        validation.validate_server_request("sampling/createMessage", V, params)
        validation.validate_server_notification("notifications/progress", V, params)


def test_the_sessions_method_table_agrees_with_mcp_types() -> None:
    """inspector.protocol.methods is a cheap copy of mcp-types' version gates; they must not drift apart."""
    from mcp_types import methods as mt

    from inspector.protocol.methods import is_known_server_notification, is_known_server_request

    requests = {m for m, _ in mt.SERVER_REQUESTS} | {"tools/list", "elicitation/request", "tasks/get"}
    notifications = {m for m, _ in mt.SERVER_NOTIFICATIONS} | {"notifications/initialized", "notifications/x"}
    for version in HANDSHAKE_VERSIONS:
        for method in requests:
            assert is_known_server_request(method, version) is known_server_request(method, version), (method, version)
        for method in notifications:
            if method == "notifications/tasks/status":
                continue  # known to the session on purpose (tasks), absent from mcp-types' surface maps
            assert is_known_server_notification(method, version) is known_server_notification(method, version), (
                method,
                version,
            )
