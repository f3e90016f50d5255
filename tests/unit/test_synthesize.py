"""``inspector.schema.synthesize``: values for JSON Schemas (defaults, examples, else minimal valid values)."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from inspector.schema.synthesize import NO_HINT, Path, sample_for_pattern, synthesize, synthesize_arguments


def valid(schema: dict[str, Any], value: Any) -> bool:
    return Draft202012Validator(schema).is_valid(value)


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": "string", "default": "d", "examples": ["e"]}, "d"),
        ({"type": "string", "examples": ["e", "f"]}, "e"),
        ({"type": "string", "example": "openapi"}, "openapi"),
        ({"const": 7}, 7),
        ({"enum": [None, "b", "c"]}, "b"),
        ({"type": "boolean"}, False),
        ({"type": "null"}, None),
        ({"type": "string"}, ""),
        ({"type": "integer"}, 0),
        ({"type": "number", "minimum": 2.5}, 2.5),
        ({"type": "integer", "minimum": 3, "maximum": 9}, 3),
        ({"type": "integer", "exclusiveMinimum": 5, "multipleOf": 3}, 6),
        ({"type": "integer", "maximum": -4}, -4),
        ({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 0.2}, 0.1),
        ({"type": "string", "minLength": 3}, "xxx"),
        ({"type": "string", "format": "email"}, "user@example.com"),
        ({"type": "string", "format": "date-time"}, "2025-01-01T00:00:00Z"),
        ({"type": "string", "format": "uuid"}, "00000000-0000-4000-8000-000000000000"),
        ({"type": "string", "pattern": r"^\d{3}-[A-Z]{2}$"}, "000-AA"),
        ({"type": "array", "items": {"type": "integer"}}, []),
        ({"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "minItems": 2}, ["a", "a"]),
        ({"type": "array", "items": {"type": "integer"}, "minItems": 3, "uniqueItems": True}, [0, 1, 2]),
        ({"type": ["null", "integer"], "minimum": 1}, 1),
        ({"minLength": 2}, "xx"),
    ],
)
def test_scalars_and_arrays(schema: dict[str, Any], expected: Any) -> None:
    result = synthesize(schema)
    assert result.value == expected
    assert result.valid, result.errors
    assert valid(schema, result.value)


def test_required_properties_only_plus_defaults() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "number"},
            "b": {"type": "string", "minLength": 1},
            "optional": {"type": "string"},
            "with_default": {"type": "integer", "default": 10},
        },
        "required": ["a", "b"],
    }
    assert synthesize_arguments(schema).value == {"a": 0, "b": "x", "with_default": 10}


def test_refs_defs_and_nested_objects() -> None:
    schema = {
        "type": "object",
        "$defs": {
            "point": {"type": "object", "properties": {"x": {"type": "integer", "minimum": 1}}, "required": ["x"]}
        },
        "definitions": {"name": {"type": "string", "pattern": "^[a-z]+$"}},
        "properties": {"p": {"$ref": "#/$defs/point"}, "n": {"$ref": "#/definitions/name"}},
        "required": ["p", "n"],
    }
    result = synthesize_arguments(schema)
    assert result.value == {"p": {"x": 1}, "n": "a"}
    assert result.valid


def test_one_of_and_any_of_pick_a_branch_that_validates() -> None:
    schema = {
        "type": "object",
        "properties": {
            "shape": {
                "oneOf": [
                    {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}},
                     "required": ["kind", "r"]},
                    {"type": "object", "properties": {"kind": {"const": "square"}}, "required": ["kind"]},
                ]
            },
            "maybe": {"anyOf": [{"type": "null"}, {"type": "string", "minLength": 2}]},
        },
        "required": ["shape", "maybe"],
    }  # fmt: skip
    result = synthesize_arguments(schema)
    assert result.value == {"shape": {"kind": "circle", "r": 0}, "maybe": "xx"}
    assert result.valid


def test_all_of_is_merged() -> None:
    schema = {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                        {"properties": {"b": {"type": "integer", "minimum": 4}}, "required": ["b"]}]}  # fmt: skip
    assert synthesize(schema).value == {"a": "", "b": 4}


def test_conditionals_and_required_alternatives_are_repaired() -> None:
    """The JSON Schema 2020-12 fixture of the conformance suite: {} fails anyOf-of-required and if/else."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"address": {"$anchor": "addressDef", "type": "object", "properties": {"city": {"type": "string"}}}},
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"},
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": False,
    }
    result = synthesize_arguments(schema)
    assert result.valid, result.errors
    assert valid(schema, result.value)


def test_dependent_required_min_properties_and_additional_properties() -> None:
    schema = {
        "type": "object",
        "properties": {"card": {"type": "string"}, "cvv": {"type": "string", "pattern": "^[0-9]{3}$"}},
        "required": ["card"],
        "dependentRequired": {"card": ["cvv"]},
    }
    assert synthesize(schema).value == {"card": "", "cvv": "000"}
    counted = {"type": "object", "additionalProperties": {"type": "integer"}, "minProperties": 2}
    assert synthesize(counted).value == {"key1": 0, "key2": 0}


def test_draft_07_tuples_and_contains() -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "array",
        "items": [{"type": "string"}, {"type": "boolean"}],
        "minItems": 2,
    }
    assert synthesize(schema).value == ["", False]
    contains = {"type": "array", "contains": {"type": "integer", "minimum": 5}}
    result = synthesize(contains)
    assert result.value == [5] and result.valid


def test_unsatisfiable_or_unsupported_is_reported_not_raised() -> None:
    lookahead = synthesize({"type": "string", "pattern": "^(?=x)abc"})
    assert not lookahead.valid
    assert any("not simple enough" in note for note in lookahead.notes)

    impossible = synthesize({"type": "integer", "minimum": 5, "maximum": 1})
    assert not impossible.valid

    recursive = synthesize({"type": "object", "properties": {"next": {"$ref": "#"}}, "required": ["next"]})
    assert not recursive.valid  # infinitely deep: it stops, and says so
    assert recursive.notes

    missing = synthesize({"type": "object", "properties": {"a": {"$ref": "#/$defs/nope"}}, "required": ["a"]})
    assert missing.value == {"a": {}}
    assert any("points at nothing" in note for note in missing.notes)

    broken = synthesize({"type": "string", "pattern": "("})
    assert broken.value == ""


def test_arguments_are_always_an_object() -> None:
    assert synthesize_arguments(None).value == {}
    assert not synthesize_arguments(None).valid
    assert synthesize_arguments({"type": "object"}).value == {}
    not_object = synthesize_arguments({"type": "string"})
    assert not_object.value == {}
    assert any("does not describe an object" in note for note in not_object.notes)


def test_hint_comes_first_and_may_decline() -> None:
    seen: list[Path] = []

    def hint(path: Path, node: Any) -> Any:
        seen.append(path)
        return {"$schema": "x"} if path == ("schema",) else NO_HINT

    schema = {
        "type": "object",
        "properties": {"schema": {"type": "object"}, "n": {"type": "integer", "default": 3}},
        "required": ["schema", "n"],
    }
    assert synthesize_arguments(schema, hint=hint).value == {"schema": {"$schema": "x"}, "n": 3}
    assert ("n",) in seen


@pytest.mark.parametrize(
    ("pattern", "sample"),
    [
        (r"^[a-z]+$", "a"),
        (r"^(foo|bar)_[A-Z0-9]{2,5}$", "foo_AA"),
        (r"^\w+@\w+\.com$", "a@a.com"),
        (r"^[^\s@]+@[^\s@]+\.[^\s@]+$", "a@a.a"),
        (r"[^abc]x", "Ax"),
        (r"abc", "abc"),
        (r"(a)\1", None),
        (r"^(?=x)", None),
    ],
)
def test_pattern_samples(pattern: str, sample: str | None) -> None:
    assert sample_for_pattern(pattern) == sample
