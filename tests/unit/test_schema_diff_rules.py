"""Table tests of the schema-diff rules (inspector.regression.schema_diff): pairs of schemas, each row one rule.

Each row: direction, old schema, new schema, and every change expected as ``(kind, path, words of the reason)``
(exactly these, in any order). Paths start at ``$``.
"""

from __future__ import annotations

from typing import Any

import pytest

from inspector.regression.schema_diff import diff_schemas

OBJ = "object"


def obj(props: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": OBJ, "properties": props, **extra}
    if required is not None:
        schema["required"] = required
    return schema


S = {"type": "string"}
N = {"type": "number"}
I = {"type": "integer"}  # noqa: E741

ROWS: list[tuple[str, str, Any, Any, list[tuple[str, str, str]]]] = [
    ("identical", "input", obj({"a": S}, ["a"]), obj({"a": S}, ["a"]), []),
    ("both empty", "input", None, None, []),
    # --- required ---
    (
        "input: required argument added",
        "input",
        obj({"a": S}, ["a"]),
        obj({"a": S, "b": S}, ["a", "b"]),
        [("breaking", "$.required", 'required argument "b" added')],
    ),
    (
        "input: optional argument added",
        "input",
        obj({"a": S}),
        obj({"a": S, "b": S}),
        [("compatible", "$.properties.b", 'optional argument "b" added')],
    ),
    (
        "input: argument made required",
        "input",
        obj({"a": S}),
        obj({"a": S}, ["a"]),
        [("breaking", "$.required", 'argument "a" made required')],
    ),
    (
        "input: argument made optional",
        "input",
        obj({"a": S}, ["a"]),
        obj({"a": S}),
        [("compatible", "$.required", 'argument "a" made optional')],
    ),
    (
        "input: argument removed",
        "input",
        obj({"a": S, "b": S}),
        obj({"a": S}),
        [("breaking", "$.properties.b", 'argument "b" removed')],
    ),
    (
        "input: required order is no change",
        "input",
        obj({"a": S, "b": S}, ["a", "b"]),
        obj({"a": S, "b": S}, ["b", "a"]),
        [],
    ),
    (
        "nested required property added",
        "input",
        obj({"o": obj({"x": S})}),
        obj({"o": obj({"x": S, "y": S}, ["y"])}),
        [("breaking", "$.properties.o.required", 'required property "y" added')],
    ),
    # --- output: the reverse direction ---
    (
        "output: property removed",
        "output",
        obj({"a": S, "b": S}, ["a", "b"]),
        obj({"a": S}, ["a"]),
        [("breaking", "$.properties.b", 'property "b" removed')],
    ),
    (
        "output: property made optional",
        "output",
        obj({"a": S}, ["a"]),
        obj({"a": S}),
        [("breaking", "$.required", 'property "a" made optional')],
    ),
    (
        "output: property made required",
        "output",
        obj({"a": S}),
        obj({"a": S}, ["a"]),
        [("compatible", "$.required", 'property "a" made required')],
    ),
    (
        "output: property added (required)",
        "output",
        obj({"a": S}, ["a"]),
        obj({"a": S, "b": S}, ["a", "b"]),
        [("compatible", "$.properties.b", 'property "b" added')],
    ),
    (
        "output: type widened",
        "output",
        obj({"n": I}),
        obj({"n": N}),
        [("breaking", "$.properties.n.type", "widened: integer -> number")],
    ),
    (
        "output: type narrowed",
        "output",
        obj({"n": N}),
        obj({"n": I}),
        [("compatible", "$.properties.n.type", "narrowed: number -> integer")],
    ),
    (
        "output: enum value added",
        "output",
        {"enum": ["C", "F"]},
        {"enum": ["C", "F", "K"]},
        [("breaking", "$.enum", 'enum value "K" added')],
    ),
    (
        "output: enum value removed",
        "output",
        {"enum": ["C", "F"]},
        {"enum": ["C"]},
        [("compatible", "$.enum", 'enum value "F" removed')],
    ),
    # --- types ---
    (
        "input: type narrowed number -> integer",
        "input",
        obj({"n": N}),
        obj({"n": I}),
        [("breaking", "$.properties.n.type", 'type of argument "n" narrowed: number -> integer')],
    ),
    (
        "input: type widened integer -> number",
        "input",
        obj({"n": I}),
        obj({"n": N}),
        [("compatible", "$.properties.n.type", "widened: integer -> number")],
    ),
    (
        "input: type changed string -> number",
        "input",
        obj({"a": S}),
        obj({"a": N}),
        [("breaking", "$.properties.a.type", "changed: string -> number")],
    ),
    (
        "input: type array narrowed",
        "input",
        {"type": ["string", "null"]},
        {"type": "string"},
        [("breaking", "$.type", "narrowed: null|string -> string")],
    ),
    (
        "input: type array widened",
        "input",
        {"type": "string"},
        {"type": ["string", "number"]},
        [("compatible", "$.type", "widened: string -> number|string")],
    ),
    ("input: type array order is no change", "input", {"type": ["string", "null"]}, {"type": ["null", "string"]}, []),
    ("input: type restricted", "input", {}, {"type": "string"}, [("breaking", "$.type", "restricted to string")]),
    (
        "input: type no longer restricted",
        "input",
        {"type": "string"},
        {},
        [("compatible", "$.type", "no longer restricted")],
    ),
    # --- enum / const ---
    (
        "input: enum value removed",
        "input",
        {"type": "string", "enum": ["a", "b"]},
        {"type": "string", "enum": ["a"]},
        [("breaking", "$.enum", 'enum value "b" removed')],
    ),
    (
        "input: enum value added",
        "input",
        {"enum": ["a"]},
        {"enum": ["a", "b"]},
        [("compatible", "$.enum", 'enum value "b" added')],
    ),
    (
        "input: enum reordered",
        "input",
        {"enum": ["a", "b"]},
        {"enum": ["b", "a"]},
        [("cosmetic", "$.enum", "reordered")],
    ),
    (
        "input: enum to const (value removed)",
        "input",
        {"enum": ["a", "b"]},
        {"const": "a"},
        [("breaking", "$.const", 'enum value "b" removed')],
    ),
    (
        "input: const to enum (value added)",
        "input",
        {"const": "a"},
        {"enum": ["a", "b"]},
        [("compatible", "$.enum", 'enum value "b" added')],
    ),
    (
        "input: enum added",
        "input",
        S,
        {"type": "string", "enum": ["a"]},
        [("breaking", "$.enum", 'restricted to the values "a"')],
    ),
    (
        "input: enum dropped",
        "input",
        {"type": "string", "enum": ["a"]},
        S,
        [("compatible", "$.enum", "no longer restricted")],
    ),
    (
        "input: numeric enum value removed",
        "input",
        {"enum": [1, 2, 3]},
        {"enum": [1, 3]},
        [("breaking", "$.enum", "enum value 2 removed")],
    ),
    # --- nested objects and items ---
    (
        "input: nested type narrowed",
        "input",
        obj({"o": obj({"n": N})}),
        obj({"o": obj({"n": I})}),
        [("breaking", "$.properties.o.properties.n.type", 'type of property "n" narrowed')],
    ),
    (
        "input: items type narrowed",
        "input",
        obj({"xs": {"type": "array", "items": N}}),
        obj({"xs": {"type": "array", "items": I}}),
        [("breaking", "$.properties.xs.items.type", "narrowed")],
    ),
    (
        "input: items enum value removed",
        "input",
        {"type": "array", "items": {"enum": ["a", "b"]}},
        {"type": "array", "items": {"enum": ["a"]}},
        [("breaking", "$.items.enum", 'enum value "b" removed')],
    ),
    (
        "output: item property removed",
        "output",
        {"type": "array", "items": obj({"a": S, "b": S})},
        {"type": "array", "items": obj({"a": S})},
        [("breaking", "$.items.properties.b", 'property "b" removed')],
    ),
    (
        "input: additionalProperties closed",
        "input",
        obj({"a": S}),
        obj({"a": S}, additionalProperties=False),
        [("breaking", "$.additionalProperties", "no longer allowed")],
    ),
    (
        "input: additionalProperties opened",
        "input",
        obj({"a": S}, additionalProperties=False),
        obj({"a": S}),
        [("compatible", "$.additionalProperties", "allowed")],
    ),
    (
        "input: map value type narrowed",
        "input",
        {"type": "object", "additionalProperties": N},
        {"type": "object", "additionalProperties": I},
        [("breaking", "$.additionalProperties.type", "narrowed")],
    ),
    # --- anyOf / oneOf ---
    (
        "input: nullable dropped",
        "input",
        {"anyOf": [S, {"type": "null"}]},
        {"anyOf": [S]},
        [("breaking", "$.anyOf", "alternative null of the schema removed")],
    ),
    (
        "input: made nullable",
        "input",
        S,
        {"anyOf": [S, {"type": "null"}]},
        [("compatible", "$.anyOf[1]", "alternative null of the schema added")],
    ),
    (
        "output: made nullable",
        "output",
        S,
        {"anyOf": [S, {"type": "null"}]},
        [("breaking", "$.anyOf[1]", "alternative null of the schema added")],
    ),
    (
        "input: alternative narrowed inside anyOf",
        "input",
        {"anyOf": [N, {"type": "null"}]},
        {"anyOf": [I, {"type": "null"}]},
        [("breaking", "$.anyOf[0].type", "narrowed: number -> integer")],
    ),
    (
        "input: oneOf object alternative gains a required property",
        "input",
        {"oneOf": [obj({"kind": {"const": "a"}}, ["kind"]), S]},
        {"oneOf": [obj({"kind": {"const": "a"}, "x": S}, ["kind", "x"]), S]},
        [("breaking", "$.oneOf[0].required", 'required argument "x" added')],
    ),
    (
        "input: alternatives reordered",
        "input",
        {"anyOf": [S, N]},
        {"anyOf": [N, S]},
        [("cosmetic", "$.anyOf", "reordered")],
    ),
    (
        "input: anyOf becomes oneOf",
        "input",
        {"anyOf": [S, N]},
        {"oneOf": [S, N]},
        [("breaking", "$", "anyOf became oneOf")],
    ),
    # --- $ref ---
    (
        "input: $ref target narrowed",
        "input",
        {"type": "object", "properties": {"v": {"$ref": "#/$defs/V"}}, "$defs": {"V": {"enum": ["a", "b"]}}},
        {"type": "object", "properties": {"v": {"$ref": "#/$defs/V"}}, "$defs": {"V": {"enum": ["a"]}}},
        [("breaking", "$.properties.v.enum", 'enum value "b" removed')],
    ),
    (
        "input: inlined $ref is no change",
        "input",
        {"type": "object", "properties": {"v": {"$ref": "#/definitions/V"}}, "definitions": {"V": N}},
        {"type": "object", "properties": {"v": N}},
        [],
    ),
    (
        "input: renamed $defs entry is no change",
        "input",
        {"properties": {"v": {"$ref": "#/$defs/A"}}, "$defs": {"A": S}},
        {"properties": {"v": {"$ref": "#/$defs/B"}}, "$defs": {"B": S}},
        [],
    ),
    (
        "input: recursive $ref (cycle) narrowed once",
        "input",
        {
            "$ref": "#/$defs/Node",
            "$defs": {"Node": obj({"name": S, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}})},
        },
        {
            "$ref": "#/$defs/Node",
            "$defs": {
                "Node": obj({"name": S, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}, ["name"])
            },
        },
        [("breaking", "$.required", 'argument "name" made required')],
    ),
    (
        "input: unchanged cycle",
        "input",
        {"$ref": "#/$defs/T", "$defs": {"T": {"anyOf": [S, {"type": "array", "items": {"$ref": "#/$defs/T"}}]}}},
        {"$ref": "#/$defs/T", "$defs": {"T": {"anyOf": [S, {"type": "array", "items": {"$ref": "#/$defs/T"}}]}}},
        [],
    ),
    (
        "input: $ref with sibling keywords",
        "input",
        {"properties": {"v": {"$ref": "#/$defs/V", "description": "old"}}, "$defs": {"V": N}},
        {"properties": {"v": {"$ref": "#/$defs/V", "description": "new"}}, "$defs": {"V": I}},
        [("cosmetic", "$.properties.v.description", "description"), ("breaking", "$.properties.v.type", "narrowed")],
    ),
    (
        "input: external $ref changed",
        "input",
        {"$ref": "https://example.com/a.json"},
        {"$ref": "https://example.com/b.json"},
        [("breaking", "$.$ref", "external $ref")],
    ),
    # --- bounds and formats ---
    (
        "input: maximum lowered",
        "input",
        {"type": "integer", "maximum": 10},
        {"type": "integer", "maximum": 5},
        [("breaking", "$.maximum", "tightened: 10 -> 5")],
    ),
    (
        "input: minimum lowered",
        "input",
        {"type": "integer", "minimum": 5},
        {"type": "integer", "minimum": 1},
        [("compatible", "$.minimum", "loosened: 5 -> 1")],
    ),
    (
        "input: maxLength added",
        "input",
        S,
        {"type": "string", "maxLength": 3},
        [("breaking", "$.maxLength", "tightened: None -> 3")],
    ),
    (
        "input: minItems removed",
        "input",
        {"type": "array", "minItems": 1},
        {"type": "array"},
        [("compatible", "$.minItems", "loosened")],
    ),
    (
        "input: pattern added",
        "input",
        S,
        {"type": "string", "pattern": "^a"},
        [("breaking", "$.pattern", 'pattern "^a" added')],
    ),
    (
        "input: format removed",
        "input",
        {"type": "string", "format": "email"},
        S,
        [("compatible", "$.format", "removed")],
    ),
    (
        "output: maximum raised",
        "output",
        {"type": "integer", "maximum": 5},
        {"type": "integer", "maximum": 10},
        [("breaking", "$.maximum", "loosened")],
    ),
    # --- cosmetic ---
    (
        "description and title",
        "input",
        {"type": "string", "description": "a", "title": "A"},
        {"type": "string", "description": "b", "title": "B"},
        [("cosmetic", "$.description", "description"), ("cosmetic", "$.title", "title")],
    ),
    (
        "examples",
        "input",
        {"type": "string", "examples": ["x"]},
        {"type": "string", "examples": ["y"]},
        [("cosmetic", "$.examples", "examples")],
    ),
    ("property order is no change", "input", obj({"a": S, "b": N}), {"type": OBJ, "properties": {"b": N, "a": S}}, []),
    (
        "default changed",
        "input",
        {"type": "integer", "default": 1},
        {"type": "integer", "default": 2},
        [("compatible", "$.default", "default")],
    ),
    # --- boolean schemas ---
    (
        "input: true -> constrained",
        "input",
        obj({"a": True}),
        obj({"a": S}),
        [("breaking", "$.properties.a", "constrained now")],
    ),
    (
        "input: constrained -> true",
        "input",
        obj({"a": S}),
        obj({"a": True}),
        [("compatible", "$.properties.a", "accepts anything now")],
    ),
    # --- keywords compared as a whole: constraints narrow when added, widen when removed ---
    (
        "input: allOf constraint added",
        "input",
        obj({"a": S}),
        obj({"a": {"type": "string", "allOf": [{"minLength": 3}]}}),
        [("breaking", "$.properties.a.allOf", 'allOf added to argument "a"')],
    ),
    (
        "input: not removed widens",
        "input",
        obj({"a": {"type": "string", "not": {"const": "x"}}}),
        obj({"a": S}),
        [("compatible", "$.properties.a.not", 'not of argument "a" removed')],
    ),
    (
        "input: dependentRequired added",
        "input",
        obj({"a": S, "b": S}),
        obj({"a": S, "b": S}, dependentRequired={"a": ["b"]}),
        [("breaking", "$.dependentRequired", "dependentRequired added to the schema")],
    ),
    (
        "output: if/then added narrows (compatible)",
        "output",
        obj({"a": S}),
        obj({"a": S}, **{"if": {"required": ["a"]}, "then": {"required": ["b"]}}),
        [
            ("compatible", "$.if", "if added to the schema"),
            ("compatible", "$.then", "then added to the schema"),
        ],
    ),
    (
        "output: propertyNames removed widens (breaking)",
        "output",
        obj({}, propertyNames={"pattern": "^a"}),
        obj({}),
        [("breaking", "$.propertyNames", "propertyNames of the schema removed")],
    ),
    (
        "input: prefixItems changed",
        "input",
        {"type": "array", "prefixItems": [S]},
        {"type": "array", "prefixItems": [I]},
        [("breaking", "$.prefixItems", "prefixItems of the schema changed")],
    ),
    (
        "output: patternProperties changed either way is breaking",
        "output",
        obj({}, patternProperties={"^x": S}),
        obj({}, patternProperties={"^x": N}),
        [("breaking", "$.patternProperties", "cannot be compared")],
    ),
    (
        "input: an extension keyword is no break",
        "input",
        obj({"a": S}),
        obj({"a": S}, **{"x-ui-order": ["a"]}),
        [("compatible", '$["x-ui-order"]', "x-ui-order of the schema changed")],
    ),
]


@pytest.mark.parametrize(("direction", "old", "new", "expected"), [row[1:] for row in ROWS], ids=[r[0] for r in ROWS])
def test_rule(direction: Any, old: Any, new: Any, expected: list[tuple[str, str, str]]) -> None:
    changes = diff_schemas(old, new, direction=direction)
    got = sorted((c.kind.value, c.path) for c in changes)
    assert got == sorted((kind, path) for kind, path, _words in expected), [
        (c.kind.value, c.path, c.reason) for c in changes
    ]
    for kind, path, words in expected:
        reasons = [c.reason for c in changes if c.kind.value == kind and c.path == path]
        assert any(words in reason for reason in reasons), (words, reasons)


def test_paths_start_where_asked_and_quote_odd_names() -> None:
    changes = diff_schemas(obj({"my arg": S}), obj({}), direction="input", path='$.tools["t"].inputSchema')
    assert [c.path for c in changes] == ['$.tools["t"].inputSchema.properties["my arg"]']
    assert changes[0].old == S and changes[0].new is None


def test_old_and_new_values_are_reported() -> None:
    (change,) = diff_schemas({"enum": ["a", "b"]}, {"enum": ["a"]}, direction="input")
    assert (change.old, change.new) == ("b", None)
    (change,) = diff_schemas(obj({"n": N}), obj({"n": I}), direction="input")
    assert (change.old, change.new) == ("number", "integer")


def test_mutually_recursive_refs_terminate() -> None:
    old = {
        "$ref": "#/$defs/A",
        "$defs": {"A": obj({"b": {"$ref": "#/$defs/B"}}), "B": obj({"a": {"$ref": "#/$defs/A"}})},
    }
    new = {
        "$ref": "#/$defs/A",
        "$defs": {"A": obj({"b": {"$ref": "#/$defs/B"}}), "B": obj({"a": {"$ref": "#/$defs/A"}, "n": I}, ["n"])},
    }
    changes = diff_schemas(old, new, direction="input")
    assert [(c.kind.value, c.path) for c in changes] == [("breaking", "$.properties.b.required")]
