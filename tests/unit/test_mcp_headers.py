"""The 2026-07-28 Streamable HTTP headers: encoding, standard headers, x-mcp-header rules, Mcp-Param-* values.

Table-driven from the spec's rules and examples (transports/streamable-http.mdx, server/tools.mdx) and the
official conformance scenarios' tool definitions; cross-checked against the official SDK's server-side
validation (``mcp.shared.inbound``), which is what a real SDK server runs on the headers we send.
"""

from __future__ import annotations

import base64
import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp.shared import inbound

from inspector.protocol.mcp_headers import (
    MAX_SAFE_INTEGER,
    HeaderParam,
    HeaderParams,
    decode_header_value,
    encode_header_value,
    encode_params,
    filter_tools,
    header_params_by_tool,
    is_header_mismatch,
    is_plain_header_value,
    param_headers,
    request_headers,
    standard_headers,
    tool_header_params,
)

V = "2026-07-28"


def b64(text: str) -> str:
    return "=?base64?" + base64.b64encode(text.encode("utf-8")).decode("ascii") + "?="


# --- value encoding: the spec's table, then the edges --------------------------------------------------

SPEC_ENCODING = [
    ("us-west1", "us-west1"),
    ("Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="),
    (" padded ", "=?base64?IHBhZGRlZCA=?="),
    ("line1\nline2", "=?base64?bGluZTEKbGluZTI=?="),
    ("=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="),
]

EDGE_ENCODING = [
    ("", ""),  # an empty string is a valid (empty) header value
    ("us west 1", "us west 1"),  # inner spaces are fine
    (" us-west1", b64(" us-west1")),
    ("us-west1 ", b64("us-west1 ")),
    ("\tindented", b64("\tindented")),  # tab: a control character, so encoded
    ("a\tb", b64("a\tb")),
    ("line1\r\nline2", b64("line1\r\nline2")),
    ("del\x7f", b64("del\x7f")),
    ("nul\x00", b64("nul\x00")),
    ("caf\u00e9", b64("caf\u00e9")),
    ("~!#$%&'()*+,-./:;<=>?@[\\]^_`{|}", "~!#$%&'()*+,-./:;<=>?@[\\]^_`{|}"),
    ("=?base64?", "=?base64?"),  # starts like the sentinel but does not end like it
    ("?=", "?="),
    ("=?base64?=", b64("=?base64?=")),  # overlapping prefix and suffix: encoded, to be safe either way
    ("=?BASE64?x?=", "=?BASE64?x?="),  # the markers are case-sensitive
    ("file:///path/to/file%20name.txt", "file:///path/to/file%20name.txt"),
]


@pytest.mark.parametrize(("value", "encoded"), SPEC_ENCODING + EDGE_ENCODING)
def test_encode_header_value(value: str, encoded: str) -> None:
    assert encode_header_value(value) == encoded
    assert is_plain_header_value(value) == (encoded == value)
    assert decode_header_value(encoded) == value


def test_lone_surrogate_has_no_encoding() -> None:
    with pytest.raises(UnicodeEncodeError):
        encode_header_value("bad\ud800")


@pytest.mark.parametrize(
    ("header", "decoded"),
    [
        ("plain", "plain"),
        ("=?base64?SGVsbG8=?=", "Hello"),
        ("=?base64?SGVsbG8?=", None),  # missing padding
        ("=?base64?SGVs!!!bG8=?=", None),  # not the Base64 alphabet
        ("=?base64?SGVsbG9=?=", None),  # non-canonical trailing bits
        ("=?base64?/w==?=", None),  # not UTF-8
        ("=?base64??=", ""),
        ("=?base64?SGVsbG8=", "=?base64?SGVsbG8="),  # no suffix: literal
        ("SGVsbG8=?=", "SGVsbG8=?="),  # no prefix: literal
    ],
)
def test_decode_header_value(header: str, decoded: str | None) -> None:
    assert decode_header_value(header) == decoded


def _valid_header_value(value: str) -> bool:
    """RFC 9110 field-value as sent: visible ASCII, space and tab only, no CR/LF, no edge whitespace."""
    return all(ch == " " or 0x21 <= ord(ch) <= 0x7E for ch in value) and value == value.strip(" \t")


@settings(max_examples=400)
@given(st.text())
def test_every_encoded_value_is_a_header_value_and_decodes_back(value: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return
    encoded = encode_header_value(value)
    assert _valid_header_value(encoded)
    assert decode_header_value(encoded) == value
    assert inbound.decode_header_value(encoded) == value  # the SDK server decodes it to the same string


# --- standard headers ----------------------------------------------------------------------------------

STANDARD: list[tuple[str, dict[str, Any] | None, dict[str, str]]] = [
    ("tools/call", {"name": "get_weather", "arguments": {}}, {"Mcp-Name": "get_weather"}),
    ("prompts/get", {"name": "code_review"}, {"Mcp-Name": "code_review"}),
    (
        "resources/read",
        {"uri": "file:///projects/myapp/config.json"},
        {"Mcp-Name": "file:///projects/myapp/config.json"},
    ),
    ("resources/read", {"uri": "file:///é.txt"}, {"Mcp-Name": b64("file:///é.txt")}),
    ("tools/call", {"name": "my tool "}, {"Mcp-Name": b64("my tool ")}),
    ("tools/call", {"name": "my-hyphenated-tool"}, {"Mcp-Name": "my-hyphenated-tool"}),
    ("tools/list", {"cursor": "abc"}, {}),
    ("server/discover", None, {}),
    ("subscriptions/listen", {"name": "ignored"}, {}),  # only the three methods carry Mcp-Name
    ("resources/read", {"name": "not-the-uri"}, {}),
    ("tools/call", {"name": 7}, {}),  # nothing to mirror: the server judges the request
    ("tools/call", None, {}),
    ("tools/call", {"name": "x\ud800"}, {}),  # no UTF-8 form
]


@pytest.mark.parametrize(("method", "params", "name"), STANDARD)
def test_standard_headers(method: str, params: dict[str, Any] | None, name: dict[str, str]) -> None:
    assert standard_headers(method, params, V) == {"MCP-Protocol-Version": V, "Mcp-Method": method, **name}


def test_method_that_cannot_be_a_header_value_is_left_out() -> None:
    assert standard_headers("bad\nmethod", None, V) == {"MCP-Protocol-Version": V}
    assert standard_headers("méthode", None, V) == {"MCP-Protocol-Version": V}


def test_standard_headers_pass_the_sdk_server_ladder() -> None:
    for method, params, _ in STANDARD[:6]:
        body = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": method,
            "params": {
                **(params or {}),
                "_meta": {
                    "io.modelcontextprotocol/protocolVersion": V,
                    "io.modelcontextprotocol/clientCapabilities": {},
                },
            },
        }
        headers = {k.lower(): v for k, v in standard_headers(method, params, V).items()}
        assert isinstance(inbound.classify_inbound_request(body, headers=headers), inbound.InboundModernRoute)
        # and a wrong name is what the server refuses with -32020
        headers["mcp-name"] = "wrong"
        rejected = inbound.classify_inbound_request(body, headers=headers)
        assert isinstance(rejected, inbound.InboundLadderRejection) and is_header_mismatch(rejected.code)


# --- x-mcp-header rules --------------------------------------------------------------------------------


def tool(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"name": "t", "inputSchema": {"type": "object", "properties": properties, **extra}}


def prop(header: Any, type_: Any = "string", **extra: Any) -> dict[str, Any]:
    return {"type": type_, "x-mcp-header": header, **extra}


VALID: list[tuple[str, dict[str, Any], list[HeaderParam]]] = [
    (
        "spec example",
        tool({"region": prop("Region"), "query": {"type": "string"}}),
        [HeaderParam("Region", ("region",), "string")],
    ),
    ("no annotations", tool({"q": {"type": "string"}}), []),
    ("no inputSchema", {"name": "t"}, []),
    (
        "integer and boolean",
        tool({"n": prop("N", "integer"), "b": prop("B", "boolean")}),
        [HeaderParam("N", ("n",), "integer"), HeaderParam("B", ("b",), "boolean")],
    ),
    ("every tchar", tool({"a": prop("A1!#$%&'*+-.^_`|~z")}), [HeaderParam("A1!#$%&'*+-.^_`|~z", ("a",), "string")]),
    (
        "nested properties",
        tool({"outer": {"type": "object", "properties": {"inner": prop("Inner")}}}),
        [HeaderParam("Inner", ("outer", "inner"), "string")],
    ),
    (
        "nested without type on the parent",
        tool({"o": {"properties": {"i": prop("I", "integer")}}}),
        [HeaderParam("I", ("o", "i"), "integer")],
    ),
    ("a property named items", tool({"items": prop("Items")}), [HeaderParam("Items", ("items",), "string")]),
    (
        "a property named properties",
        tool({"properties": {"type": "object", "properties": {"x": prop("X")}}}),
        [HeaderParam("X", ("properties", "x"), "string")],
    ),
    (
        "data keywords are not schemas",
        tool(
            {
                "a": {
                    "type": "object",
                    "default": {"x-mcp-header": "D"},
                    "examples": [{"x-mcp-header": "E"}],
                    "const": {"x-mcp-header": "C"},
                    "enum": [{"x-mcp-header": "N"}],
                }
            }
        ),
        [],
    ),
    (
        "different names",
        tool({"a": prop("Alpha"), "b": prop("Beta")}),
        [HeaderParam("Alpha", ("a",), "string"), HeaderParam("Beta", ("b",), "string")],
    ),
    (
        "conformance: Method is a param, not Mcp-Method",
        tool({"m": prop("Method")}),
        [HeaderParam("Method", ("m",), "string")],
    ),
]


@pytest.mark.parametrize(("case", "definition", "expected"), VALID, ids=[c[0] for c in VALID])
def test_valid_annotations(case: str, definition: dict[str, Any], expected: list[HeaderParam]) -> None:
    found = tool_header_params(definition)
    assert found.valid, found.problems
    assert list(found.params) == expected
    assert inbound.find_invalid_x_mcp_header(definition.get("inputSchema")) is None  # the SDK agrees


INVALID: list[tuple[str, dict[str, Any], str]] = [
    # the conformance scenario http-invalid-tool-headers, one by one
    ("empty", tool({"value": prop("")}), "is empty"),
    ("object type", tool({"data": prop("Data", "object")}), 'type "object"'),
    ("array type", tool({"items": prop("Items", "array", items={"type": "string"})}), 'type "array"'),
    ("null type", tool({"nil": prop("Nil", "null")}), 'type "null"'),
    ("number type", tool({"score": prop("Score", "number")}), '"number", which is not permitted'),
    ("duplicate, same case", tool({"f1": prop("Region"), "f2": prop("Region")}), "unique, ignoring case"),
    ("duplicate, other case", tool({"f1": prop("MyField"), "f2": prop("myfield")}), "unique, ignoring case"),
    ("space", tool({"value": prop("My Region")}), "contains ' ' at position 2"),
    ("colon", tool({"value": prop("Region:Primary")}), "contains ':' at position 6"),
    ("non-ASCII", tool({"value": prop("Région")}), "non-ASCII character U+00E9"),
    ("tab", tool({"value": prop("Region\t1")}), "control character U+0009"),
    # the rest of the spec's rules
    ("CR", tool({"value": prop("A\rB")}), "control character U+000D"),
    ("LF", tool({"value": prop("A\nB")}), "control character U+000A"),
    ("DEL", tool({"value": prop("A\x7f")}), "control character U+007F"),
    ("separator", tool({"value": prop("a(b)")}), "contains '('"),
    ("slash", tool({"value": prop("a/b")}), "contains '/'"),
    ("not a string", tool({"value": prop(5)}), "must be a string, not a number"),
    ("null header", tool({"value": prop(None)}), "must be a string, not null"),
    ("no type", tool({"value": {"x-mcp-header": "V"}}), "declares no type"),
    ("type list", tool({"value": prop("V", ["string", "null"])}), "type is a list"),
    (
        "$ref'd property has no type of its own",
        tool({"v": {"$ref": "#/$defs/s", "x-mcp-header": "V"}}, **{"$defs": {"s": {"type": "string"}}}),
        "declares no type",
    ),
    ("on the root", {"name": "t", "inputSchema": {"type": "object", "x-mcp-header": "Root"}}, "on the schema root"),
    ("through items", tool({"list": {"type": "array", "items": prop("Item")}}), "/properties/list/items"),
    ("through prefixItems", tool({"list": {"type": "array", "prefixItems": [prop("Item")]}}), "/prefixItems/0"),
    ("through anyOf", tool({}, anyOf=[{"properties": {"a": prop("A")}}]), "/anyOf/0/properties/a"),
    ("through oneOf", tool({"a": {"oneOf": [prop("A")]}}), "/oneOf/0"),
    ("through allOf", tool({}, allOf=[{"properties": {"a": prop("A")}}]), "/allOf/0"),
    ("through not", tool({"a": {"not": prop("A")}}), "/not"),
    ("through if", tool({}, **{"if": {"properties": {"a": prop("A")}}}), "/if/properties/a"),
    ("through then", tool({}, then={"properties": {"a": prop("A")}}), "/then/"),
    ("through else", tool({}, **{"else": {"properties": {"a": prop("A")}}}), "/else/"),
    ("in $defs", tool({}, **{"$defs": {"s": prop("S")}}), "/$defs/s"),
    ("in definitions", tool({}, definitions={"s": prop("S")}), "/definitions/s"),
    ("through additionalProperties", tool({}, additionalProperties=prop("A")), "/additionalProperties"),
    ("through patternProperties", tool({}, patternProperties={"^x": prop("X")}), "/patternProperties/^x"),
    (
        "through dependentSchemas",
        tool({}, dependentSchemas={"a": {"properties": {"b": prop("B")}}}),
        "/dependentSchemas/a",
    ),
    ("through contains", tool({"l": {"type": "array", "contains": prop("C")}}), "/contains"),
    ("through propertyNames", tool({}, propertyNames=prop("P")), "/propertyNames"),
    (
        "nested under items",
        tool({"l": {"type": "array", "items": {"type": "object", "properties": {"x": prop("X")}}}}),
        "/items/properties/x",
    ),
    ("pointer escapes", tool({}, **{"$defs": {"a/b~c": prop("S")}}), "/$defs/a~1b~0c"),
]


@pytest.mark.parametrize(("case", "definition", "reason"), INVALID, ids=[c[0] for c in INVALID])
def test_invalid_annotations(case: str, definition: dict[str, Any], reason: str) -> None:
    found = tool_header_params(definition)
    assert not found.valid and found.params == ()
    assert any(reason in problem for problem in found.problems), found.problems


@pytest.mark.parametrize(("case", "definition", "reason"), INVALID, ids=[c[0] for c in INVALID])
def test_the_sdk_rejects_them_too(case: str, definition: dict[str, Any], reason: str) -> None:
    assert inbound.find_invalid_x_mcp_header(definition["inputSchema"]) is not None


def test_draft07_keywords_are_walked_too() -> None:
    # beyond the SDK: draft-07 keywords hold schemas as well, so an annotation there is "anywhere else"
    for extra in (
        {"dependencies": {"a": {"properties": {"b": prop("B")}}}},
        {"additionalItems": prop("A")},
    ):
        assert not tool_header_params(tool({}, **extra)).valid
    tuple_items = tool_header_params(tool({"list": {"type": "array", "items": [prop("Item")]}}))
    assert any("/properties/list/items/0" in problem for problem in tuple_items.problems)
    # a dependencies entry that is a list of names is not a schema
    assert tool_header_params(tool({"a": prop("A")}, dependencies={"a": ["b"]})).valid


def test_every_problem_is_reported() -> None:
    found = tool_header_params(tool({"a": prop(""), "b": prop("B", "number"), "c": {"items": prop("C")}}))
    assert len(found.problems) == 3


def test_deep_schema_does_not_exhaust_the_stack() -> None:
    schema: dict[str, Any] = prop("Deep")
    for _ in range(5000):
        schema = {"type": "object", "properties": {"n": schema}}
    found = tool_header_params({"name": "deep", "inputSchema": schema})
    assert found.valid and found.params[0].path == ("n",) * 5000


def test_filter_tools_keeps_the_rest_untouched() -> None:
    valid = {"name": "valid_tool", "inputSchema": {"type": "object", "properties": {"region": prop("Region")}}}
    plain = {"name": "plain", "inputSchema": {"type": "object"}}
    weird: Any = "not an object"
    tools = [valid, INVALID[0][1] | {"name": "invalid_empty_header"}, plain, weird, INVALID[4][1] | {"name": 3}]
    snapshot = copy.deepcopy(tools)
    kept, dropped = filter_tools(tools)
    assert [id(t) for t in kept] == [id(valid), id(plain), id(weird)]
    assert tools == snapshot  # nothing was modified
    assert [(d.index, d.name) for d in dropped] == [(1, "invalid_empty_header"), (4, None)]
    assert dropped[0].message.startswith('tool "invalid_empty_header" was dropped: invalid x-mcp-header')
    assert dropped[1].message.startswith("tool #4 was dropped")
    assert filter_tools([]) == ([], [])


def test_header_params_by_tool() -> None:
    tools = [
        tool({"r": prop("Region")}) | {"name": "a"},
        tool({"r": prop("")}) | {"name": "bad"},
        tool({"q": {"type": "string"}}) | {"name": "none"},
        tool({"x": prop("Other")}) | {"name": "a"},
    ]
    found = header_params_by_tool(tools)
    assert list(found) == ["a"]
    assert found["a"].params == (HeaderParam("Region", ("r",), "string"),)


# --- Mcp-Param-* values --------------------------------------------------------------------------------

# the conformance scenario http-custom-headers: its tool and arguments, and the headers it checks for
CUSTOM_TOOL = tool(
    {
        "region": prop("Region"),
        "priority": prop("Priority", "integer"),
        "verbose": prop("Verbose", "boolean"),
        "debug": prop("Debug", "boolean"),
        "empty_val": prop("EmptyVal"),
        "method_val": prop("Method"),
        "float_val": {"type": "number"},
        "non_ascii_val": prop("NonAscii"),
        "whitespace_val": prop("Whitespace"),
        "internal_space_val": prop("InternalSpace"),
        "crlf_val": prop("CrLf"),
        "tab_val": prop("Tab"),
        "query": {"type": "string"},
    }
)
CUSTOM_ARGS = {
    "region": "us-west1",
    "priority": 42,
    "verbose": False,
    "debug": True,
    "empty_val": "",
    "method_val": "test-method",
    "float_val": 3.14159,
    "non_ascii_val": "Hello, 世界",
    "whitespace_val": " padded ",
    "internal_space_val": "us west 1",
    "crlf_val": "line1\r\nline2",
    "tab_val": "\tindented",
    "query": "SELECT * FROM users",
}
CUSTOM_HEADERS = {
    "Mcp-Param-Region": "us-west1",
    "Mcp-Param-Priority": "42",
    "Mcp-Param-Verbose": "false",
    "Mcp-Param-Debug": "true",
    "Mcp-Param-EmptyVal": "",
    "Mcp-Param-Method": "test-method",
    "Mcp-Param-NonAscii": "=?base64?SGVsbG8sIOS4lueVjA==?=",
    "Mcp-Param-Whitespace": "=?base64?IHBhZGRlZCA=?=",
    "Mcp-Param-InternalSpace": "us west 1",
    "Mcp-Param-CrLf": b64("line1\r\nline2"),
    "Mcp-Param-Tab": b64("\tindented"),
}


def test_param_headers_of_the_conformance_tool() -> None:
    params = tool_header_params(CUSTOM_TOOL)
    result = encode_params(params, CUSTOM_ARGS)
    assert result.headers == CUSTOM_HEADERS
    assert result.notes == ()
    lowered = {k.lower(): v for k, v in result.headers.items()}
    assert inbound.validate_mcp_param_headers(CUSTOM_TOOL["inputSchema"], CUSTOM_ARGS, lowered) is None


def test_null_and_absent_arguments_omit_their_header() -> None:
    params = tool_header_params(CUSTOM_TOOL)
    args = {"region": "us-east1", "priority": 1, "verbose": None, "query": "SELECT 1"}
    assert param_headers(params, args) == {"Mcp-Param-Region": "us-east1", "Mcp-Param-Priority": "1"}
    assert param_headers(params, None) == {}
    assert param_headers(params, {}) == {}


N = HeaderParams((HeaderParam("N", ("n",), "integer"),))
S = HeaderParams((HeaderParam("S", ("s",), "string"),))
NESTED = HeaderParams((HeaderParam("Deep", ("a", "b"), "string"),))

VALUES: list[tuple[str, HeaderParams, Any, dict[str, str], list[tuple[str, bool]]]] = [
    ("negative integer", N, {"n": -7}, {"Mcp-Param-N": "-7"}, []),
    ("zero", N, {"n": 0}, {"Mcp-Param-N": "0"}, []),
    ("largest safe integer", N, {"n": MAX_SAFE_INTEGER}, {"Mcp-Param-N": str(MAX_SAFE_INTEGER)}, []),
    ("smallest safe integer", N, {"n": -MAX_SAFE_INTEGER}, {"Mcp-Param-N": str(-MAX_SAFE_INTEGER)}, []),
    ("beyond the safe range", N, {"n": 2**53}, {"Mcp-Param-N": str(2**53)}, [("safe range", True)]),
    ("integral float for an integer", N, {"n": 42.0}, {"Mcp-Param-N": "42"}, []),
    ("fraction for an integer", N, {"n": 3.5}, {"Mcp-Param-N": "3.5"}, [("fraction", True)]),
    ("not finite", N, {"n": float("nan")}, {}, [("not a JSON number", False)]),
    ("boolean in an integer", N, {"n": True}, {"Mcp-Param-N": "true"}, []),
    ("string in an integer", N, {"n": "42"}, {"Mcp-Param-N": "42"}, []),
    ("object", S, {"s": {"a": 1}}, {}, [("an object cannot be carried", False)]),
    ("list", S, {"s": [1]}, {}, [("a list cannot be carried", False)]),
    ("lone surrogate", S, {"s": "x\ud800"}, {}, [("lone surrogate", False)]),
    ("sentinel look-alike", S, {"s": "=?base64?literal?="}, {"Mcp-Param-S": "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="}, []),
    ("nested path", NESTED, {"a": {"b": "v"}}, {"Mcp-Param-Deep": "v"}, []),
    ("nested path, parent absent", NESTED, {"x": 1}, {}, []),
    ("nested path, parent not an object", NESTED, {"a": "v"}, {}, []),
    ("nested path, parent null", NESTED, {"a": None}, {}, []),
    ("nested path, leaf null", NESTED, {"a": {"b": None}}, {}, []),
]


@pytest.mark.parametrize(("case", "params", "args", "headers", "notes"), VALUES, ids=[c[0] for c in VALUES])
def test_param_values(
    case: str, params: HeaderParams, args: Any, headers: dict[str, str], notes: list[tuple[str, bool]]
) -> None:
    result = encode_params(params, args)
    assert result.headers == headers
    assert [(n.sent) for n in result.notes] == [sent for _, sent in notes]
    for note, (text, _) in zip(result.notes, notes, strict=True):
        assert text in note.reason and note.param.header_name in note.message


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-MAX_SAFE_INTEGER, max_value=MAX_SAFE_INTEGER),
    st.text().filter(lambda s: not any(0xD800 <= ord(c) <= 0xDFFF for c in s)),
)


@settings(max_examples=300)
@given(st.dictionaries(st.sampled_from(["s", "n", "b"]), scalars))
def test_the_sdk_server_accepts_what_we_send(args: dict[str, Any]) -> None:
    definition = tool({"s": prop("S"), "n": prop("N", "integer"), "b": prop("B", "boolean")})
    headers = param_headers(tool_header_params(definition), args)
    assert all(_valid_header_value(v) for v in headers.values())
    lowered = {k.lower(): v for k, v in headers.items()}
    assert inbound.validate_mcp_param_headers(definition["inputSchema"], args, lowered) is None


# --- whole requests ------------------------------------------------------------------------------------

EXECUTE_SQL = {
    "name": "execute_sql",
    "description": "Execute SQL on Google Cloud Spanner",
    "inputSchema": {
        "type": "object",
        "properties": {
            "region": {"type": "string", "description": "The region", "x-mcp-header": "Region"},
            "query": {"type": "string", "description": "The SQL query to execute"},
        },
        "required": ["region", "query"],
    },
}


def test_request_headers_of_the_spec_example() -> None:
    index = header_params_by_tool([EXECUTE_SQL])
    params = {"name": "execute_sql", "arguments": {"region": "us-west1", "query": "SELECT * FROM users"}}
    assert request_headers("tools/call", params, V, index) == {
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/call",
        "Mcp-Name": "execute_sql",
        "Mcp-Param-Region": "us-west1",
    }


def test_request_headers_without_a_known_tool_or_for_other_methods() -> None:
    index = header_params_by_tool([EXECUTE_SQL])
    args = {"arguments": {"region": "us-west1"}}
    assert "Mcp-Param-Region" not in request_headers("tools/call", {"name": "other", **args}, V, index)
    assert request_headers("prompts/get", {"name": "execute_sql", **args}, V, index) == {
        "MCP-Protocol-Version": V,
        "Mcp-Method": "prompts/get",
        "Mcp-Name": "execute_sql",
    }
    bad = {"execute_sql": HeaderParams((), ("broken",))}
    assert "Mcp-Param-Region" not in request_headers("tools/call", {"name": "execute_sql", **args}, V, bad)
    odd = request_headers("tools/call", {"name": "execute_sql", "arguments": ["us-west1"]}, V, index)
    assert "Mcp-Param-Region" not in odd


@pytest.mark.parametrize(
    ("code", "expected"),
    [(-32020, True), (-32021, False), (-32602, False), (None, False), (True, False), ("-32020", False)],
)
def test_is_header_mismatch(code: object, expected: bool) -> None:
    assert is_header_mismatch(code) is expected
