"""Each assertion kind checked against observed answers: pass, fail, the message and the actual value."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.regression.assertions import Observed, assertion_from_json, check

TOOL_RESULT = {
    "content": [{"type": "text", "text": "hello world"}, {"type": "image", "data": "AA==", "mimeType": "image/png"}],
    "structuredContent": {"sum": 3, "tags": ["a", "b"], "ok": True, "nested": {"x": 1, "y": 2}},
    "isError": False,
}
OK = Observed("tools/call", "ok", result=TOOL_RESULT, latency_ms=12.0)
TOOL_ERROR = Observed("tools/call", "isError", result={"content": [{"type": "text", "text": "Unknown tool:\n  echo"}]})
RPC_ERROR = Observed(
    "tools/call", "error", error={"code": -32602, "message": "Invalid params", "data": {"field": "city"}}
)
NO_ANSWER = Observed("tools/call", "failed", failure="no answer within 2 s", latency_ms=2000.0)


def _check(raw: dict[str, Any], observed: Observed) -> tuple[bool, str, Any]:
    result = check(assertion_from_json(raw), observed)
    return result.passed, result.message, result.actual


CASES = [
    # outcome
    ({"kind": "outcome", "expect": "ok"}, OK, True, "the outcome: ok", "ok"),
    (
        {"kind": "outcome", "expect": "ok"},
        TOOL_ERROR,
        False,
        "isError: Unknown tool: echo",
        "isError: Unknown tool: echo",
    ),
    ({"kind": "outcome", "expect": "isError"}, TOOL_ERROR, True, "isError", None),
    ({"kind": "outcome", "expect": "error"}, RPC_ERROR, True, "JSON-RPC error -32602: Invalid params", None),
    ({"kind": "outcome", "expect": "error", "code": -32602}, RPC_ERROR, True, "-32602", None),
    ({"kind": "outcome", "expect": "error", "code": -32601}, RPC_ERROR, False, "-32602", None),
    ({"kind": "outcome", "expect": "error"}, OK, False, "the outcome: ok", "ok"),
    ({"kind": "outcome", "expect": "ok"}, NO_ANSWER, False, "no answer: no answer within 2 s", None),
    # equals
    ({"kind": "equals", "path": "$.structuredContent.sum", "value": 3}, OK, True, "passes", 3),
    ({"kind": "equals", "path": "$.structuredContent.sum", "value": 3.0}, OK, True, "passes", 3),
    ({"kind": "equals", "path": "$.structuredContent.sum", "value": 4}, OK, False, "$.structuredContent.sum is 3", 3),
    ({"kind": "equals", "path": "$.structuredContent.ok", "value": 1}, OK, False, "is true", True),
    ({"kind": "equals", "path": "$.structuredContent.sum", "value": "3"}, OK, False, "is 3", 3),
    ({"kind": "equals", "path": "$.structuredContent.nested", "value": {"y": 2, "x": 1}}, OK, True, "passes", None),
    ({"kind": "equals", "path": "$.structuredContent.nested", "value": {"x": 1}}, OK, False, "nested is", None),
    ({"kind": "equals", "path": "$.missing", "value": 1}, OK, False, "nothing at $.missing", None),
    ({"kind": "equals", "path": "$.content[*].type", "value": "image"}, OK, True, "$.content[1].type passes", "image"),
    (
        {"kind": "equals", "path": "$.content[*].type", "value": "audio"},
        OK,
        False,
        'none of the 2 values passes: ["text","image"]',
        ["text", "image"],
    ),
    (
        {"kind": "equals", "path": "$.content[*].type", "value": "text", "all": True},
        OK,
        False,
        "$.content[1].type",
        "image",
    ),
    ({"kind": "equals", "path": "$.code", "value": -32602}, RPC_ERROR, True, "passes", -32602),
    ({"kind": "equals", "path": "$.data.field", "value": "city"}, RPC_ERROR, True, "passes", "city"),
    # contains
    ({"kind": "contains", "path": "$.content[0].text", "value": "world"}, OK, True, "passes", "hello world"),
    ({"kind": "contains", "path": "$.content[0].text", "value": "moon"}, OK, False, 'is "hello world"', "hello world"),
    ({"kind": "contains", "path": "$.structuredContent.tags", "value": "b"}, OK, True, "passes", ["a", "b"]),
    ({"kind": "contains", "path": "$.structuredContent.tags", "value": "c"}, OK, False, "tags is", ["a", "b"]),
    ({"kind": "contains", "path": "$.structuredContent", "value": {"sum": 3, "ok": True}}, OK, True, "passes", None),
    ({"kind": "contains", "path": "$.structuredContent", "value": {"sum": 4}}, OK, False, "structuredContent is", None),
    ({"kind": "contains", "path": "$.structuredContent.sum", "value": 3}, OK, False, "is 3", 3),
    # matches
    ({"kind": "matches", "path": "$.content[0].text", "regex": "^hello\\b"}, OK, True, "passes", "hello world"),
    ({"kind": "matches", "path": "$.content[0].text", "regex": "^world"}, OK, False, 'is "hello world"', None),
    ({"kind": "matches", "path": "$.structuredContent.sum", "regex": "3"}, OK, False, "is 3", 3),
    ({"kind": "matches", "path": "$..text", "regex": "world", "all": True}, OK, True, "all 1 values pass", None),
    # content types
    ({"kind": "content_types", "types": ["text", "image"]}, OK, True, "present", ["text", "image"]),
    (
        {"kind": "content_types", "types": ["audio"]},
        OK,
        False,
        "missing audio; present: text, image",
        ["text", "image"],
    ),
    ({"kind": "content_types", "types": ["text"]}, RPC_ERROR, False, "present: none", []),
    # latency
    ({"kind": "latency", "max_ms": 50}, OK, True, "answered in 12.0 ms", 12.0),
    ({"kind": "latency", "max_ms": 5}, OK, False, "answered in 12.0 ms", 12.0),
    ({"kind": "latency", "max_ms": 5000}, NO_ANSWER, False, "answered in 2000.0 ms", 2000.0),
    # anything but outcome and latency, without an answer
    ({"kind": "equals", "path": "$", "value": 1}, NO_ANSWER, False, "no answer: no answer within 2 s", None),
]


@pytest.mark.parametrize(("raw", "observed", "passed", "fragment", "actual"), CASES)
def test_check(raw: dict[str, Any], observed: Observed, passed: bool, fragment: str, actual: Any) -> None:
    got_passed, message, got_actual = _check(raw, observed)
    assert got_passed is passed, message
    assert fragment in message
    if actual is not None:
        assert got_actual == actual


def test_content_types_of_prompts_and_resources() -> None:
    prompt = Observed(
        "prompts/get", "ok", result={"messages": [{"role": "user", "content": {"type": "text", "text": "x"}}]}
    )
    assert _check({"kind": "content_types", "types": ["text"]}, prompt)[0]
    assert not _check({"kind": "content_types", "types": ["image"]}, prompt)[0]
    resource = Observed("resources/read", "ok", result={"contents": [{"uri": "u", "blob": "AA=="}]})
    assert _check({"kind": "content_types", "types": ["blob"]}, resource)[0]
    assert _check({"kind": "content_types", "types": ["text"]}, resource)[1] == "missing text; present: blob"


SCHEMA = {
    "type": "object",
    "properties": {"sum": {"type": "number"}, "label": {"type": "string"}},
    "required": ["sum", "label"],
}


def _schema_check(result: Any, schema: Any = SCHEMA, listed: bool | None = True) -> tuple[bool, str, Any]:
    observed = Observed("tools/call", "ok", result=result, output_schema=schema, tool_listed=listed)
    return _check({"kind": "output_schema"}, observed)


def test_output_schema() -> None:
    assert _schema_check({"structuredContent": {"sum": 1, "label": "x"}}) == (True, "valid", {"sum": 1, "label": "x"})
    passed, message, actual = _schema_check({"structuredContent": {"sum": "one", "label": "x"}})
    assert not passed and message.startswith("$.structuredContent.sum: ") and actual == {"sum": "one", "label": "x"}
    passed, message, _ = _schema_check({"structuredContent": {"sum": "one"}})
    assert not passed and "(and 1 more)" in message
    assert _schema_check({"content": []})[1] == "the result has no structuredContent"
    assert _schema_check({"structuredContent": {}}, schema=None)[1] == "the tool declares no outputSchema"
    assert _schema_check({"structuredContent": {}}, listed=False)[1] == "the tool is not in the server's tools/list"
    passed, message, _ = _schema_check({"structuredContent": {}}, schema={"type": "nonsense"})
    assert not passed and "cannot validate" in message


def test_descriptions() -> None:
    lines = {
        "outcome is error -32602": {"kind": "outcome", "expect": "error", "code": -32602},
        '$.a equals {"b":1}': {"kind": "equals", "path": "$.a", "value": {"b": 1}},
        "$..t matches /^x/ (every value)": {"kind": "matches", "path": "$..t", "regex": "^x", "all": True},
        "content types include text, image": {"kind": "content_types", "types": ["text", "image"]},
        "latency under 500 ms": {"kind": "latency", "max_ms": 500},
        "structuredContent valid against the tool's outputSchema": {"kind": "output_schema"},
    }
    for line, raw in lines.items():
        assert assertion_from_json(raw).describe() == line
