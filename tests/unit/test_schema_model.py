"""The Qt-free schema layer (``inspector.schema``): $ref resolution, classification, values, paths, validation."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from schemakit import json_values, schemas

from inspector.protocol.jsonpath import format_path, parse_path
from inspector.schema import (
    MISSING,
    Kind,
    RecursionLimit,
    RefError,
    Resolver,
    SchemaValidator,
    accepts,
    classify,
    constraint_text,
    format_number,
    initial_value,
    json_equal,
    number_text_state,
    parse_json_text,
    parse_number,
    pick_variant,
    placeholder,
    to_json_text,
    validate,
)
from inspector.schema.fit import cell_text, parse_cell
from inspector.schema.refs import merge_all_of

NO_DATABASE = settings(database=None)  # no example database files in the checkout

DEFS = {
    "$defs": {
        "Address": {
            "type": "object",
            "title": "Address",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
        "Alias": {"$ref": "#/$defs/Address"},
        "Color": {"enum": ["red", "green"]},
        "Tree": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
            },
        },
        "Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}, "v": {"type": "integer"}}},
    }
}


def node_at(schema: dict[str, Any], *path: str | int) -> Any:
    node = classify(schema)
    for part in path:
        if part == "[]":
            node = node.items
        elif isinstance(part, int):
            node = node.variants[part].node
        else:
            node = next(prop.node for prop in node.properties if prop.name == part)
    return node


# --- $ref resolution -------------------------------------------------------------------------------------


def test_deref_follows_pointers_and_sibling_keywords_win() -> None:
    resolver = Resolver(DEFS)
    schema, refs = resolver.deref({"$ref": "#/$defs/Alias", "description": "mine", "title": "Home"})
    assert schema["properties"] == {"city": {"type": "string"}}
    assert schema["description"] == "mine" and schema["title"] == "Home"
    assert refs == ("#/$defs/Alias", "#/$defs/Address")


@pytest.mark.parametrize(
    ("root", "ref", "expected"),
    [
        ({"definitions": {"a": {"type": "integer"}}}, "#/definitions/a", {"type": "integer"}),
        ({"$defs": {"a/b": {"type": "string"}}}, "#/$defs/a~1b", {"type": "string"}),
        ({"$defs": {"t~x": {"type": "null"}}}, "#/$defs/t~0x", {"type": "null"}),
        ({"$defs": {"a b": {"type": "boolean"}}}, "#/$defs/a%20b", {"type": "boolean"}),
        ({"$defs": {"x": {"$anchor": "point", "type": "number"}}}, "#point", {"$anchor": "point", "type": "number"}),
        ({"prefixItems": [{"type": "string"}]}, "#/prefixItems/0", {"type": "string"}),
        (
            {"$id": "https://example.com/root", "$defs": {"a": {"$id": "https://example.com/a", "type": "integer"}}},
            "https://example.com/a",
            {"$id": "https://example.com/a", "type": "integer"},
        ),
    ],
)
def test_lookup_forms(root: dict[str, Any], ref: str, expected: Any) -> None:
    assert Resolver(root).deref({"$ref": ref})[0] == expected


@pytest.mark.parametrize("ref", ["#/$defs/missing", "https://elsewhere.example/schema.json", "#nope"])
def test_unresolvable_refs_raise(ref: str) -> None:
    with pytest.raises(RefError):
        Resolver(DEFS).deref({"$ref": ref})


def test_recursion_limit_and_bare_cycles() -> None:
    resolver = Resolver(DEFS)
    with pytest.raises(RecursionLimit):
        resolver.deref({"$ref": "#/$defs/Tree"}, ("#/$defs/Tree", "#/$defs/Tree"))
    cyclic = {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}}
    with pytest.raises(RefError):
        Resolver(cyclic).deref({"$ref": "#/$defs/a"})


def test_merge_all_of() -> None:
    schema = {
        "allOf": [
            {"$ref": "#/$defs/Address"},
            {"properties": {"zip": {"type": "string"}}, "required": ["zip"]},
        ],
        "description": "outer",
        **DEFS,
    }
    merged, _ = merge_all_of(schema, Resolver(schema), ())
    assert merged is not None
    assert set(merged["properties"]) == {"city", "zip"}
    assert merged["required"] == ["city", "zip"]
    assert merged["description"] == "outer"
    conflicting = {"allOf": [{"type": "string"}, {"type": "integer"}]}
    assert merge_all_of(conflicting, Resolver(conflicting), ())[0] is None


# --- classification ----------------------------------------------------------------------------------------

CLASSIFY_CASES: list[tuple[str, dict[str, Any], Kind, bool]] = [
    ("string", {"type": "string"}, Kind.STRING, False),
    ("integer", {"type": "integer"}, Kind.INTEGER, False),
    ("number", {"type": "number"}, Kind.NUMBER, False),
    ("boolean", {"type": "boolean"}, Kind.BOOLEAN, False),
    ("null", {"type": "null"}, Kind.NULL, False),
    ("const null", {"const": None}, Kind.NULL, False),
    ("enum", {"enum": ["a", "b"]}, Kind.ENUM, False),
    ("enum with null", {"enum": ["a", None]}, Kind.ENUM, True),
    ("const", {"const": "x"}, Kind.ENUM, False),
    ("oneOf consts", {"oneOf": [{"const": 1, "title": "One"}, {"const": 2, "title": "Two"}]}, Kind.ENUM, False),
    ("anyOf consts", {"anyOf": [{"const": "a"}, {"const": "b"}]}, Kind.ENUM, False),
    ("nullable type list", {"type": ["string", "null"]}, Kind.STRING, True),
    ("nullable anyOf", {"anyOf": [{"type": "integer"}, {"type": "null"}]}, Kind.INTEGER, True),
    ("nullable oneOf", {"oneOf": [{"type": "null"}, {"type": "boolean"}]}, Kind.BOOLEAN, True),
    ("openapi nullable", {"type": "number", "nullable": True}, Kind.NUMBER, True),
    ("nullable $ref", {"anyOf": [{"$ref": "#/$defs/Address"}, {"type": "null"}], **DEFS}, Kind.OBJECT, True),
    ("type list", {"type": ["string", "number"]}, Kind.VARIANTS, False),
    ("nullable type list of two", {"type": ["string", "integer", "null"]}, Kind.VARIANTS, True),
    ("object shapes", {"oneOf": [{"type": "object"}, {"type": "array"}]}, Kind.VARIANTS, False),
    ("array of strings", {"type": "array", "items": {"type": "string"}}, Kind.ARRAY, False),
    ("array of enums", {"type": "array", "items": {"enum": ["a", "b"]}}, Kind.MULTI_ENUM, False),
    ("array of titled consts", {"type": "array", "items": {"anyOf": [{"const": "a"}]}}, Kind.MULTI_ENUM, False),
    ("array of nullable enums", {"type": "array", "items": {"enum": ["a", None]}}, Kind.ARRAY, False),
    ("array without items", {"type": "array"}, Kind.ARRAY, False),
    ("tuple prefixItems", {"type": "array", "prefixItems": [{"type": "string"}]}, Kind.JSON, False),
    ("tuple draft-07", {"type": "array", "items": [{"type": "string"}]}, Kind.JSON, False),
    ("object", {"type": "object", "properties": {"a": {"type": "string"}}}, Kind.OBJECT, False),
    ("root free object", {"type": "object"}, Kind.OBJECT, False),
    ("map", {"type": "object", "additionalProperties": {"type": "string"}}, Kind.MAP, False),
    ("pattern map", {"type": "object", "patternProperties": {"^x-": {"type": "integer"}}}, Kind.MAP, False),
    ("inferred object", {"properties": {"a": {}}}, Kind.OBJECT, False),
    ("inferred array", {"items": {"type": "string"}}, Kind.ARRAY, False),
    ("inferred string", {"format": "email"}, Kind.STRING, False),
    ("inferred number", {"minimum": 3}, Kind.NUMBER, False),
    ("empty schema", {}, Kind.JSON, False),
    ("not", {"not": {"type": "string"}}, Kind.JSON, False),
    ("allOf merge", {"allOf": [{"type": "string"}, {"minLength": 2}]}, Kind.STRING, False),
    ("allOf conflict", {"allOf": [{"type": "string"}, {"type": "boolean"}]}, Kind.JSON, False),
    ("broken $ref", {"$ref": "#/$defs/nope"}, Kind.JSON, False),
    ("ref to enum", {"$ref": "#/$defs/Color", **DEFS}, Kind.ENUM, False),
]


@pytest.mark.parametrize(
    ("schema", "kind", "nullable"), [case[1:] for case in CLASSIFY_CASES], ids=[case[0] for case in CLASSIFY_CASES]
)
def test_classify(schema: dict[str, Any], kind: Kind, nullable: bool) -> None:
    node = classify(schema)
    assert node.kind is kind
    assert node.nullable is nullable


def test_nested_free_object_is_json_and_booleans_schemas() -> None:
    assert node_at({"type": "object", "properties": {"o": {"type": "object"}}}, "o").kind is Kind.JSON
    assert classify(True).kind is Kind.JSON
    assert classify(False).reason == "no value is allowed"


def test_choices_and_titles() -> None:
    node = classify({"type": "string", "oneOf": [{"const": "lo", "title": "Low"}, {"const": "hi"}]})
    assert [(choice.value, choice.title) for choice in node.choices] == [("lo", "Low"), ("hi", "hi")]
    legacy = classify({"type": "string", "enum": ["a", "b"], "enumNames": ["Alpha", "Beta"]})
    assert [choice.title for choice in legacy.choices] == ["Alpha", "Beta"]
    numbers = classify({"enum": [1, True, None, {"a": 1}]})
    assert [choice.title for choice in numbers.choices] == ["1", "true", '{"a": 1}']
    assert numbers.nullable
    assert numbers.choice_index(True) == 1 and numbers.choice_index(1) == 0
    assert classify({"const": "order", "title": "Kind"}).choices[0].title == "order"


def test_properties_labels_required_and_defaults() -> None:
    schema = {
        "type": "object",
        "properties": {
            "home": {"$ref": "#/$defs/Address"},
            "n": {"type": "integer", "title": "Count", "default": 3},
        },
        "required": ["home"],
        **DEFS,
    }
    props = {prop.name: prop for prop in classify(schema).properties}
    assert props["home"].required and props["home"].label == "home"
    assert props["home"].node.title == "Address"
    assert props["n"].label == "Count" and not props["n"].required
    assert props["n"].node.default == 3
    assert initial_value(props["n"].node, required=False) == 3
    assert initial_value(props["home"].node, required=True) is MISSING
    assert initial_value(classify({"const": "x"}), required=True) == "x"
    assert initial_value(classify({"const": "x"}), required=False) is MISSING
    assert initial_value(classify({"type": ["null", "string"], "default": None}), required=False) is None


def test_number_constraints_draft04_and_current() -> None:
    node = classify({"type": "number", "minimum": 1, "exclusiveMaximum": 5, "multipleOf": 0.5})
    assert (node.minimum, node.maximum, node.exclusive_minimum, node.exclusive_maximum) == (1, None, None, 5)
    assert node.multiple_of == 0.5
    old = classify({"type": "integer", "minimum": 0, "exclusiveMinimum": True, "maximum": 9})
    assert (old.minimum, old.exclusive_minimum, old.maximum) == (None, 0, 9)
    assert constraint_text(node) == "number · 1 ≤ x < 5 · multiple of 0.5"


def test_recursive_refs_expand_lazily_then_become_json() -> None:
    schema = {"$ref": "#/$defs/Tree", **DEFS}
    level = classify(schema)
    kinds = []
    for _ in range(4):
        kinds.append(level.kind)
        if level.kind is not Kind.OBJECT:
            break
        level = next(prop.node for prop in level.properties if prop.name == "children").items
    assert kinds[:2] == [Kind.OBJECT, Kind.OBJECT]
    assert kinds[-1] is Kind.JSON and "recursive" in level.reason
    linked = classify({"$ref": "#/$defs/Node", **DEFS})
    assert node_at({"$ref": "#/$defs/Node", **DEFS}, "next", "next").kind is Kind.JSON
    assert linked.kind is Kind.OBJECT


def test_variant_titles_and_discriminator() -> None:
    schema = {
        "$defs": {
            "Cat": {"type": "object", "properties": {"pet": {"const": "cat"}, "lives": {"type": "integer"}}},
            "Dog": {"type": "object", "title": "Good dog", "properties": {"pet": {"const": "dog"}}},
        },
        "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}, {"type": "string"}, {"type": "array"}],
        "discriminator": {"propertyName": "pet"},
    }
    node = classify(schema)
    assert [variant.title for variant in node.variants] == ["cat", "Good dog", "string", "array"]
    assert pick_variant(node, {"pet": "dog"}) == 1
    assert pick_variant(node, {"pet": "cat", "lives": 9}) == 0
    assert pick_variant(node, "text") == 2
    assert pick_variant(node, [1]) == 3
    assert pick_variant(node, 5) is None
    typed = classify({"type": ["string", "number", "boolean"]})
    assert [variant.title for variant in typed.variants] == ["string", "number", "boolean"]
    assert pick_variant(typed, True) == 2 and pick_variant(typed, 1.5) == 1


def test_variants_share_outer_properties() -> None:
    schema = {
        "type": "object",
        "properties": {"id": {"type": "string"}},
        "required": ["id"],
        "oneOf": [{"properties": {"a": {"type": "integer"}}}, {"properties": {"b": {"type": "integer"}}}],
    }
    first = classify(schema).variants[0].node
    assert [prop.name for prop in first.properties] == ["id", "a"]
    assert first.properties[0].required


# --- values -----------------------------------------------------------------------------------------------

ACCEPTS_CASES: list[tuple[dict[str, Any], Any, bool]] = [
    ({"type": "string"}, "x", True),
    ({"type": "string"}, 1, False),
    ({"type": "string"}, None, False),
    ({"type": ["string", "null"]}, None, True),
    ({"type": "integer"}, 2**80, True),
    ({"type": "integer"}, 3.0, True),
    ({"type": "integer"}, 3.5, False),
    ({"type": "integer"}, True, False),
    ({"type": "number"}, 1e300, True),
    ({"type": "number"}, math.inf, False),
    ({"type": "boolean"}, 0, False),
    ({"enum": ["a", 1]}, 1, True),
    ({"enum": ["a", 1]}, True, False),
    ({"type": "array", "items": {"enum": ["a", "b"]}}, ["b", "a", "a"], True),
    ({"type": "array", "items": {"enum": ["a", "b"]}}, ["c"], False),
    ({"type": "object", "additionalProperties": {"type": "string"}}, {"k": "v"}, True),
    ({"type": "object", "additionalProperties": {"type": "string"}}, {"k": 1}, False),
    ({"type": "object", "additionalProperties": {"type": "integer"}}, {"k": 1}, True),
    ({}, {"anything": [1, None]}, True),
]


@pytest.mark.parametrize(("schema", "value", "expected"), ACCEPTS_CASES)
def test_accepts(schema: dict[str, Any], value: Any, expected: bool) -> None:
    assert accepts(classify(schema), value) is expected


@pytest.mark.parametrize(
    ("text", "integer", "expected"),
    [
        ("5", False, 5),
        ("5.0", False, 5.0),
        ("-0.25", False, -0.25),
        ("1e3", False, 1000.0),
        (" 7 ", True, 7),
        ("123456789012345678901234567890", True, 123456789012345678901234567890),
        ("1e2", True, 100),
    ],
)
def test_parse_number(text: str, integer: bool, expected: int | float) -> None:
    parsed = parse_number(text, integer=integer)
    assert parsed == expected and type(parsed) is type(expected)


@pytest.mark.parametrize(
    ("text", "integer"), [("abc", False), ("1.5", True), ("1e400", False), ("", True), ("--1", False)]
)
def test_parse_number_rejects(text: str, integer: bool) -> None:
    with pytest.raises(ValueError):
        parse_number(text, integer=integer)


@pytest.mark.parametrize(
    ("text", "integer", "state"),
    [
        ("", True, "ok"),
        ("-", True, "partial"),
        ("1.", False, "ok"),
        (".", False, "partial"),
        ("1e", False, "partial"),
        ("1e+", False, "partial"),
        ("1.5", True, "invalid"),
        ("x", False, "invalid"),
        ("12", True, "ok"),
    ],
)
def test_number_text_state(text: str, integer: bool, state: str) -> None:
    assert number_text_state(text, integer=integer) == state


@NO_DATABASE
@given(st.one_of(st.integers(), st.floats(allow_nan=False, allow_infinity=False)))
def test_format_number_round_trips(value: int | float) -> None:
    parsed = parse_number(format_number(value), integer=False)
    assert parsed == value and type(parsed) is type(value)


JSON_VALUES = json_values()


@NO_DATABASE
@given(JSON_VALUES)
def test_json_text_round_trips_and_escapes_widget_unsafe_characters(value: Any) -> None:
    text = to_json_text(value)
    assert json_equal(parse_json_text(text), value)
    assert not any(char in text for char in "\u2028\u2029\u00a0\r")


def test_parse_json_text_messages() -> None:
    with pytest.raises(ValueError, match="line 1, column 7"):
        parse_json_text('{"a": }')
    with pytest.raises(ValueError, match="NaN"):
        parse_json_text("NaN")


def test_json_equal() -> None:
    assert json_equal({"a": [1, 2.0]}, {"a": [1.0, 2]})
    assert not json_equal(True, 1) and not json_equal([0], [False]) and not json_equal("1", 1)


PATH_PARTS = st.lists(st.one_of(st.integers(0, 99), st.text(max_size=6)), max_size=5)


@NO_DATABASE
@given(PATH_PARTS)
def test_paths_round_trip(parts: list[str | int]) -> None:
    assert parse_path(format_path(parts, root=""), root="") == tuple(parts)


@pytest.mark.parametrize(
    ("parts", "text"),
    [
        (["address", "city"], "address.city"),
        (["items", 0, "name"], "items[0].name"),
        ([], ""),
        (["a.b", "c d"], '["a.b"]["c d"]'),
        ([3], "[3]"),
        (["x-y", "_z"], '["x-y"]._z'),
    ],
)
def test_path_format(parts: list[str | int], text: str) -> None:
    assert format_path(parts, root="") == text


@pytest.mark.parametrize("text", [".a", "a..b", "a[x]", "a b", "[0]b"])
def test_bad_paths(text: str) -> None:
    with pytest.raises(ValueError):
        parse_path(text, root="")


@pytest.mark.parametrize(
    ("schema", "value"),
    [
        ({"additionalProperties": {"type": "string"}}, "5"),
        ({"additionalProperties": True}, "hello"),
        ({"additionalProperties": True}, "5"),
        ({"additionalProperties": True}, 5),
        ({"additionalProperties": {"type": ["string", "integer"]}}, "true"),
        ({"additionalProperties": {"type": "integer"}}, 7),
        ({"additionalProperties": True}, ""),
    ],
)
def test_map_cells_round_trip(schema: dict[str, Any], value: Any) -> None:
    node = classify({"type": "object", **schema})
    assert json_equal(parse_cell(node, cell_text(node, value)), value)


def test_placeholders() -> None:
    assert placeholder(classify({"type": "string", "format": "date"})) == "YYYY-MM-DD"
    assert placeholder(classify({"type": "string", "examples": ["Ada"]})) == "e.g. Ada"
    assert placeholder(classify({"type": "integer", "minimum": 1, "maximum": 9})) == "1 ≤ value ≤ 9"


# --- validation -------------------------------------------------------------------------------------------

NESTED = {
    "type": "object",
    "properties": {
        "address": {"$ref": "#/$defs/Address"},
        "items": {
            "type": "array",
            "items": {"type": "object", "properties": {"name": {"type": "string", "minLength": 2}}},
        },
        "note": {"anyOf": [{"type": "string", "maxLength": 3}, {"type": "null"}]},
        "when": {"type": "string", "format": "date"},
        "site": {"type": "string", "format": "uri"},
        "mail": {"type": "string", "format": "email"},
        "at": {"type": "string", "format": "date-time"},
        "id": {"type": "string", "format": "uuid"},
        "n": {"type": "integer", "exclusiveMinimum": 0, "multipleOf": 5},
        "tags": {"type": "array", "uniqueItems": True, "maxItems": 2},
    },
    "required": ["address"],
    **DEFS,
}

VALIDATION_CASES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("valid", {"address": {"city": "Oslo"}}, []),
    ("required nested", {"address": {}}, ["address.city: is required"]),
    ("required top", {}, ["address: is required"]),
    (
        "array item",
        {"address": {"city": "x"}, "items": [{"name": "ok"}, {"name": "x"}]},
        ["items[1].name: must be at least 2 characters long"],
    ),
    ("nullable branch blamed", {"address": {"city": "x"}, "note": "long"}, ["note: must be at most 3 characters long"]),
    ("nullable wrong type", {"address": {"city": "x"}, "note": 5}, ["note: must be a string or null"]),
    ("date", {"address": {"city": "x"}, "when": "2024-02-30"}, ["when: must be a valid date (YYYY-MM-DD)"]),
    ("uri", {"address": {"city": "x"}, "site": "example.com"}, ["site: must be a valid URI with a scheme (https://…)"]),
    ("email", {"address": {"city": "x"}, "mail": "nobody"}, ["mail: must be a valid e-mail address"]),
    (
        "date-time",
        {"address": {"city": "x"}, "at": "2024-01-01 25:00:00Z"},
        ["at: must be a valid date and time (YYYY-MM-DDThh:mm:ssZ)"],
    ),
    ("uuid", {"address": {"city": "x"}, "id": "123"}, ["id: must be a valid UUID"]),
    ("bounds", {"address": {"city": "x"}, "n": 0}, ["n: must be > 0"]),
    ("multipleOf", {"address": {"city": "x"}, "n": 7}, ["n: must be a multiple of 5"]),
    (
        "unique+max",
        {"address": {"city": "x"}, "tags": [1, 1, 2]},
        ["tags: must have at most 2 items", "tags: items must be unique"],
    ),
    ("type", {"address": "Oslo"}, ["address: must be an object"]),
]


@pytest.mark.parametrize(
    ("instance", "expected"), [case[1:] for case in VALIDATION_CASES], ids=[case[0] for case in VALIDATION_CASES]
)
def test_validation_messages_with_paths(instance: dict[str, Any], expected: list[str]) -> None:
    assert sorted(str(error) for error in validate(NESTED, instance)) == sorted(expected)


def test_valid_formats_pass() -> None:
    instance = {
        "address": {"city": "x"},
        "when": "2024-02-29",
        "at": "2024-02-29T23:59:60.5+01:00",
        "site": "urn:isbn:123",
        "mail": "a@b",
        "id": "123e4567-e89b-12d3-a456-426614174000",
    }
    assert validate(NESTED, instance) == []


@pytest.mark.parametrize(
    ("schema", "instance", "draft", "errors"),
    [
        # draft-07 understands `dependencies`; 2020-12 ignores it (it is dependentRequired there)
        (
            {"$schema": "http://json-schema.org/draft-07/schema#", "dependencies": {"a": ["b"]}},
            {"a": 1},
            "draft-07",
            ["b: is required when 'a' is set"],
        ),
        (
            {"$schema": "https://json-schema.org/draft/2020-12/schema", "dependencies": {"a": ["b"]}},
            {"a": 1},
            "2020-12",
            [],
        ),
        ({"dependentRequired": {"a": ["b"]}}, {"a": 1}, "2020-12", ["b: is required when 'a' is set"]),
        # draft-07 tuple `items` vs 2020-12 `prefixItems`
        (
            {"$schema": "http://json-schema.org/draft-07/schema#", "items": [{"type": "string"}]},
            [1],
            "draft-07",
            ["[0]: must be a string"],
        ),
        ({"prefixItems": [{"type": "string"}]}, [1], "2020-12", ["[0]: must be a string"]),
        (
            {"$schema": "http://json-schema.org/draft-04/schema#", "minimum": 1, "exclusiveMinimum": True},
            1,
            "draft-04",
            ["must be > 1"],
        ),
        ({"$schema": "https://example.com/unknown"}, 1, "2020-12", []),
    ],
)
def test_draft_selection(schema: dict[str, Any], instance: Any, draft: str, errors: list[str]) -> None:
    validator = SchemaValidator(schema)
    assert validator.draft == draft
    assert [str(error) for error in validator.errors(instance)] == errors


def test_discriminated_union_errors_come_from_the_matching_branch() -> None:
    schema = {
        "oneOf": [
            {"type": "object", "properties": {"k": {"const": "a"}, "x": {"type": "integer"}}, "required": ["k", "x"]},
            {"type": "object", "properties": {"k": {"const": "b"}, "y": {"type": "string"}}, "required": ["k", "y"]},
        ]
    }
    assert [str(error) for error in validate(schema, {"k": "b"})] == ["y: is required"]
    assert [str(error) for error in validate(schema, 5)] == ["must be an object"]


def test_broken_schemas_do_not_raise() -> None:
    assert "schema is invalid" in str(validate({"type": "string", "pattern": "("}, "x")[0])
    assert "schema is invalid" in str(validate({"$ref": "https://example.invalid/s.json"}, 1)[0])
    assert SchemaValidator({"type": "integer"}).is_valid(3) and not SchemaValidator({"type": "integer"}).is_valid("3")


# --- schemas real servers send -------------------------------------------------------------------------------


def _demo_tool_schemas() -> dict[str, dict[str, Any]]:
    code = (
        "import anyio, json\n"
        "from inspector.demo import build_server\n"
        "async def main():\n"
        "    print(json.dumps({t.name: t.input_schema for t in await build_server().list_tools()}))\n"
        "anyio.run(main)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    schemas: dict[str, dict[str, Any]] = json.loads(proc.stdout)
    return schemas


def _walk(node: Any, depth: int = 0) -> list[Any]:
    found = [node]
    if depth > 6:
        return found
    if node.kind is Kind.OBJECT:
        for prop in node.properties:
            found += _walk(prop.node, depth + 1)
    elif node.kind in (Kind.ARRAY, Kind.MULTI_ENUM):
        found += _walk(node.items, depth + 1)
    elif node.kind is Kind.VARIANTS:
        for variant in node.variants:
            found += _walk(variant.node, depth + 1)
    elif node.kind is Kind.MAP and node.additional is not None:
        found += _walk(node.additional, depth + 1)
    return found


def test_demo_tool_schemas_classify_without_json_fallbacks_except_tuples_and_recursion() -> None:
    schemas = _demo_tool_schemas()
    assert {"create_event", "validate_order", "echo"} <= set(schemas)
    for name, schema in schemas.items():
        for node in _walk(classify(schema)):
            if node.kind is Kind.JSON:
                assert name == "validate_order" and ("tuple" in node.reason or "recursive" in node.reason), (
                    name,
                    node.reason,
                )
        assert SchemaValidator(schema).errors({}) is not None


# --- whatever a server sends, classification and validation keep going ---------------------------------------

SCHEMAS = schemas(max_leaves=20)


@settings(max_examples=200, deadline=None, database=None)
@given(SCHEMAS, JSON_VALUES)
def test_arbitrary_schemas_never_crash(schema: dict[str, Any], instance: Any) -> None:
    for node in _walk(classify(schema)):
        constraint_text(node)
        placeholder(node)
        accepts(node, instance)
        initial_value(node, required=True)
        if node.kind is Kind.VARIANTS:
            pick_variant(node, instance)
    for error in validate(schema, instance):
        assert isinstance(str(error), str)
