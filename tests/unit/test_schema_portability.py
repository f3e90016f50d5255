"""The tool-schema portability lint: each rule in each schema position, paths, order, counts, and properties
that hold for any JSON value (it never raises, every finding points at a node that breaks its rule)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.protocol.schema_portability import (
    MAX_DEPTH,
    Rule,
    SchemaFinding,
    count_findings,
    findings_by_tool,
    lint_schema,
    result_findings,
    schema_findings,
    summarize,
)


def found(schema: Any) -> list[tuple[str, str]]:
    """(rule, path) of every finding in one schema, in report order."""
    return [(rule.value, path) for rule, path, _issue, _suggestion in lint_schema(schema)]


OBJ = {"type": "object"}

# (schema, expected (rule, path) in order) — one row per rule and position
CASES: list[tuple[Any, list[tuple[str, str]]]] = [
    # clean schemas
    (OBJ, []),
    ({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}, []),
    ({"type": "object", "additionalProperties": False}, []),
    ({"type": "object", "additionalProperties": True, "unevaluatedProperties": False}, []),
    ({"type": "array", "additionalItems": True, "unevaluatedItems": False}, []),
    ({"enum": [1, 2]}, []),
    ({"const": None}, []),
    ({"$ref": "#/$defs/x", "$defs": {"x": {"type": "string"}}}, []),
    ({"not": {}}, []),  # {} directly under not: fine
    ({"if": {"type": "string"}, "then": {"minLength": 1}}, []),
    ({"if": {"type": "string"}, "else": {"type": "number"}}, []),
    ({"dependencies": {"a": ["b"]}}, []),  # the property-dependency form holds no schema
    # the schema itself
    ({}, [("untyped-schema", "")]),
    ({"description": "d", "title": "t", "default": 1, "examples": [1]}, [("untyped-schema", "")]),
    ({"if": {"type": "string"}}, [("untyped-schema", "")]),  # if alone constrains nothing
    ({"then": {"type": "string"}}, [("untyped-schema", "")]),
    (True, [("boolean-schema", "")]),
    (False, [("boolean-schema", "")]),
    # boolean-schema in every position but the boolean-valued keywords
    ({"type": "object", "properties": {"a": True}}, [("boolean-schema", "properties.a")]),
    ({"type": "object", "properties": {"a": False}}, [("boolean-schema", "properties.a")]),
    ({"type": "object", "patternProperties": {"^x": True}}, [("boolean-schema", 'patternProperties["^x"]')]),
    ({"type": "object", "$defs": {"d": True}}, [("boolean-schema", "$defs.d")]),
    ({"type": "object", "definitions": {"d": False}}, [("boolean-schema", "definitions.d")]),
    ({"type": "object", "dependentSchemas": {"d": True}}, [("boolean-schema", "dependentSchemas.d")]),
    ({"type": "object", "dependencies": {"d": True}}, [("boolean-schema", "dependencies.d")]),
    ({"anyOf": [True, OBJ]}, [("boolean-schema", "anyOf[0]")]),
    ({"allOf": [OBJ, False]}, [("boolean-schema", "allOf[1]")]),
    ({"oneOf": [OBJ, OBJ, True]}, [("boolean-schema", "oneOf[2]")]),
    ({"type": "array", "prefixItems": [True]}, [("boolean-schema", "prefixItems[0]")]),
    ({"type": "array", "items": True}, [("boolean-schema", "items")]),
    ({"type": "array", "items": [OBJ, True]}, [("boolean-schema", "items[1]")]),
    ({"type": "array", "contains": False}, [("boolean-schema", "contains")]),
    ({"not": True}, [("boolean-schema", "not")]),
    ({"type": "object", "propertyNames": True}, [("boolean-schema", "propertyNames")]),
    ({"if": True, "then": OBJ}, [("boolean-schema", "if")]),
    ({"if": OBJ, "then": True, "else": False}, [("boolean-schema", "then"), ("boolean-schema", "else")]),
    ({"type": "string", "contentSchema": True}, [("boolean-schema", "contentSchema")]),
    # type-union
    ({"type": ["string", "null"]}, [("type-union", "")]),
    ({"type": ["string"]}, [("type-union", "")]),  # a one-member list is still a list
    ({"type": ["string", "string"]}, []),  # duplicates: not a union the rule speaks about
    ({"type": []}, []),
    ({"type": ["string", "date"]}, []),  # not a JSON Schema type name
    ({"type": ["string", 1]}, []),
    ({"type": "object", "properties": {"n": {"type": ["integer", "null"]}}}, [("type-union", "properties.n")]),
    # remote-ref
    ({"$ref": "https://example.com/s.json"}, [("remote-ref", "")]),
    ({"$ref": "other.json#/x"}, [("remote-ref", "")]),
    ({"$ref": ""}, []),
    ({"$ref": 3}, []),
    ({"$ref": "x.json", "$id": "https://example.com/root.json"}, []),  # an embedded $id: may resolve inside
    ({"$ref": "x.json", "$defs": {"x": {"$id": "x.json", "type": "string"}}}, []),
    ({"$ref": "x.json", "$id": ""}, [("remote-ref", "")]),  # an empty $id declares nothing
    # untyped-schema below the root
    ({"type": "object", "properties": {"a": {}}}, [("untyped-schema", "properties.a")]),
    ({"type": "object", "properties": {"a": {"description": "x"}}}, [("untyped-schema", "properties.a")]),
    ({"type": "object", "additionalProperties": {}}, [("untyped-schema", "additionalProperties")]),
    ({"not": {"anyOf": [{}]}}, [("untyped-schema", "not.anyOf[0]")]),  # only directly under not is exempt
    # several in one node: its own findings first (union, ref, untyped), then its subschemas'
    (
        {"type": ["object", "null"], "properties": {"b": True, "a": {}}, "anyOf": [{}]},
        [
            ("type-union", ""),
            ("boolean-schema", "properties.b"),
            ("untyped-schema", "properties.a"),
            ("untyped-schema", "anyOf[0]"),
        ],
    ),
    ({"$ref": "https://x/y", "type": ["string", "null"]}, [("type-union", ""), ("remote-ref", "")]),
    # not schemas at all (the protocol validation's business): nothing
    (None, []),
    (3, []),
    ("object", []),
    ([True], []),
    ({"type": "object", "properties": {"a": None, "b": 3, "c": "x"}}, []),
    ({"type": "object", "properties": [True]}, []),
    ({"anyOf": {"a": True}}, []),
]


@pytest.mark.parametrize(("schema", "expected"), CASES, ids=[json.dumps(c[0])[:60] for c in CASES])
def test_rule_table(schema: Any, expected: list[tuple[str, str]]) -> None:
    assert found(schema) == expected


@pytest.mark.parametrize(
    ("key", "path"),
    [
        ("city", "properties.city"),
        ("_x$1", "properties._x$1"),
        ("first-name", 'properties["first-name"]'),
        ("9lives", 'properties["9lives"]'),
        ("a b", 'properties["a b"]'),
        ('say "hi"', 'properties["say \\"hi\\""]'),
        ("back\\slash", 'properties["back\\\\slash"]'),
        ("tab\there", 'properties["tab\\there"]'),
        ("bell\x07", 'properties["bell\\u0007"]'),
        ("café", 'properties["café"]'),
        ("lone\ud800", 'properties["lone\\ud800"]'),
        ("", 'properties[""]'),
    ],
)
def test_member_paths_are_written_as_the_official_cli_writes_them(key: str, path: str) -> None:
    assert found({"type": "object", "properties": {key: True}}) == [("boolean-schema", path)]


def test_members_are_visited_in_javascript_order_integer_keys_first() -> None:
    props = {"b": True, "10": True, "a": True, "2": True, "01": True, "-1": True, "4294967295": True}
    paths = [path for _rule, path in found({"type": "object", "properties": props})]
    assert paths == [
        'properties["2"]',
        'properties["10"]',
        "properties.b",
        "properties.a",
        'properties["01"]',
        'properties["-1"]',
        'properties["4294967295"]',  # beyond the array index range: an ordinary key
    ]


def test_the_walk_stops_at_the_depth_limit_without_recursing_forever() -> None:
    def nested(levels: int) -> Any:
        node: Any = True
        for _ in range(levels):
            node = {"not": {"anyOf": [node]}}
        return node

    # each level adds two to the depth (not, then anyOf[0]); the bare true sits at depth 2 * levels
    assert [rule for rule, _path in found(nested(MAX_DEPTH // 2))] == ["boolean-schema"]
    assert found(nested(MAX_DEPTH // 2 + 1)) == []
    assert found(nested(5000)) == []  # far deeper than Python's recursion limit


def test_texts_say_what_is_wrong_and_how_to_fix_it() -> None:
    rows = {(rule, path): (issue, fix) for rule, path, issue, fix in lint_schema(_every_rule())}
    issue, fix = rows[(Rule.TYPE_UNION, "properties.n")]
    assert '["integer","null"]' in issue
    assert '{"anyOf": [{"type": "integer"}, {"type": "null"}]}' in fix
    assert "nullable" in fix  # the caveat for dialects without null
    assert "nullable" not in rows[(Rule.TYPE_UNION, "properties.s")][1]
    issue, fix = rows[(Rule.REMOTE_REF, "properties.r")]
    assert "https://example.com/r.json" in issue and "#/$defs/" in fix
    assert "`true`" in rows[(Rule.BOOLEAN_SCHEMA, "properties.t")][0]
    assert '{"not": {}}' in rows[(Rule.BOOLEAN_SCHEMA, "properties.f")][1]
    assert "`{}`" in rows[(Rule.BOOLEAN_SCHEMA, "properties.n2.not")][1]
    assert '"additionalProperties": true' in rows[(Rule.UNTYPED_SCHEMA, "properties.u")][1]


def _every_rule() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "n": {"type": ["integer", "null"]},
            "s": {"type": ["string", "number"]},
            "r": {"$ref": "https://example.com/r.json"},
            "t": True,
            "f": False,
            "n2": {"not": True},
            "u": {"title": "u"},
        },
    }


# --- tools -------------------------------------------------------------------------------------------


def test_tools_input_and_output_schemas_are_linted_and_grouped_per_tool_entry() -> None:
    tools: list[Any] = [
        {"name": "clean", "inputSchema": OBJ},
        {"name": "a", "inputSchema": {"type": "object", "properties": {"x": True}}, "outputSchema": {}},
        "not a tool",
        {"inputSchema": True},  # no name: skipped
        {"name": 7, "inputSchema": True},
        {"name": "a", "inputSchema": {"type": ["object", "null"]}},  # same name, another entry
        {"name": "no-schema"},  # nothing to lint
        {"name": "null-schema", "inputSchema": None},
    ]
    findings = schema_findings(tools)
    assert [(f.tool, f.tool_index, f.location, f.severity) for f in findings] == [
        ("a", 1, "inputSchema.properties.x", "error"),
        ("a", 1, "outputSchema", "warning"),
        ("a", 5, "inputSchema", "warning"),
    ]
    assert count_findings(findings) == (1, 2, 2)
    assert summarize(findings) == "1 error, 2 warnings across 2 tools"
    groups = findings_by_tool(findings)
    assert [g["toolName"] for g in groups] == ["a", "a"]
    assert groups[0]["findings"][0] == {
        "rule": "boolean-schema",
        "severity": "error",
        "schema": "inputSchema",
        "path": "properties.x",
        "issue": findings[0].issue,
        "suggestion": findings[0].suggestion,
    }
    assert result_findings({"tools": tools}) == findings


@pytest.mark.parametrize("result", [None, [], {}, {"tools": None}, {"tools": {"name": "x"}}, "tools"])
def test_a_result_without_a_tools_list_has_no_findings(result: Any) -> None:
    assert result_findings(result) == []
    assert schema_findings(result) == []


@pytest.mark.parametrize(
    ("errors", "warnings", "tools", "text"),
    [
        (0, 0, 0, "0 errors, 0 warnings across 0 tools"),
        (1, 0, 1, "1 error, 0 warnings across 1 tool"),
        (0, 1, 1, "0 errors, 1 warning across 1 tool"),
        (2, 3, 2, "2 errors, 3 warnings across 2 tools"),
    ],
)
def test_summary_wording(errors: int, warnings: int, tools: int, text: str) -> None:
    findings = [
        SchemaFinding("t", i % max(tools, 1), "inputSchema", Rule.BOOLEAN_SCHEMA, "", "", "") for i in range(errors)
    ] + [SchemaFinding("t", i % max(tools, 1), "inputSchema", Rule.TYPE_UNION, "", "", "") for i in range(warnings)]
    assert summarize(findings) == text


# --- properties over any JSON value -----------------------------------------------------------------------

_KEYWORDS = [
    "type", "properties", "items", "anyOf", "not", "$ref", "$id", "$defs", "if", "then", "else", "enum",
    "additionalProperties", "prefixItems", "description", "dependencies", "contains", "title",
]  # fmt: skip
_TYPE_NAMES = ["null", "boolean", "object", "array", "number", "string", "integer", "date"]

json_leaves = st.none() | st.booleans() | st.integers() | st.sampled_from(_TYPE_NAMES) | st.text(max_size=8)
keys = st.sampled_from(_KEYWORDS) | st.text(max_size=6)
json_values = st.recursive(
    json_leaves,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(keys, children, max_size=5),
    max_leaves=40,
)

_TOKEN = re.compile(r'\.?([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]')


def _resolve(schema: Any, path: str) -> Any:
    """The node a finding's path names (the path syntax parsed back)."""
    node = schema
    pos = 0
    while pos < len(path):
        match = _TOKEN.match(path, pos)
        assert match is not None, (path, pos)
        name, index, quoted = match.groups()
        if index is not None:
            node = node[int(index)]
        else:
            key = name if name is not None else json.loads(quoted)
            node = node[key]
        pos = match.end()
    return node


@settings(max_examples=400, deadline=None)
@given(json_values)
def test_every_finding_points_at_a_node_that_breaks_its_rule(schema: Any) -> None:
    for rule, path, issue, suggestion in lint_schema(schema):
        node = _resolve(schema, path)
        assert issue and suggestion
        if rule is Rule.BOOLEAN_SCHEMA:
            assert isinstance(node, bool)
        elif rule is Rule.TYPE_UNION:
            assert isinstance(node["type"], list) and len(set(node["type"])) == len(node["type"]) > 0
        elif rule is Rule.REMOTE_REF:
            assert isinstance(node["$ref"], str) and not node["$ref"].startswith("#")
        else:
            assert isinstance(node, dict) and "type" not in node and "$ref" not in node


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_any_tools_list_is_linted_without_raising_and_counts_add_up(tools: Any) -> None:
    findings = schema_findings(tools if isinstance(tools, list) else [tools])
    errors, warnings, n_tools = count_findings(findings)
    assert errors + warnings == len(findings)
    assert sum(len(g["findings"]) for g in findings_by_tool(findings)) == len(findings)
    assert len(findings_by_tool(findings)) == n_tools
    assert all(f.severity == ("error" if f.rule is Rule.BOOLEAN_SCHEMA else "warning") for f in findings)


_clean_leaf = st.sampled_from([{"type": "string"}, {"type": "integer", "minimum": 0}, {"enum": ["a", "b"]}])
clean_schemas = st.recursive(
    _clean_leaf,
    lambda children: (
        st.dictionaries(st.text(max_size=5), children, max_size=3).map(lambda p: {"type": "object", "properties": p})
        | children.map(lambda c: {"type": "array", "items": c})
        | st.lists(children, min_size=1, max_size=3).map(lambda branches: {"anyOf": branches})
    ),
    max_leaves=15,
)


@settings(max_examples=200, deadline=None)
@given(clean_schemas, st.text(max_size=5).filter(lambda n: n != "rest"))
def test_a_portable_schema_has_no_findings_and_one_bare_true_is_found_where_it_is(schema: Any, name: str) -> None:
    assert found(schema) == []
    broken = {"type": "object", "properties": {name: True, "rest": schema}}
    findings = found(broken)
    assert len(findings) == 1 and findings[0][0] == "boolean-schema"
    assert _resolve(broken, findings[0][1]) is True
