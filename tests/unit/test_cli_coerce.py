"""Coercion of ``--tool-arg`` strings by the tool's inputSchema."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.cli.coerce import coerce_tool_args, coerce_value, declared_types

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "count": {"type": "integer"},
        "ratio": {"type": "number"},
        "flag": {"type": "boolean"},
        "name": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "opts": {"type": "object"},
        "maybe": {"type": ["integer", "null"]},
        "text_or_null": {"type": ["string", "null"]},
        "either": {"anyOf": [{"type": "integer"}, {"type": "boolean"}]},
        "ref": {"$ref": "#/$defs/Level"},
        "old_ref": {"$ref": "#/definitions/Size"},
        "choice": {"enum": [1, 2, 3]},
        "word": {"enum": ["a", "b"]},
        "const": {"const": True},
        "untyped": {},
        "nested": {"properties": {"x": {"type": "integer"}}},
    },
    "$defs": {"Level": {"type": "integer", "minimum": 0}},
    "definitions": {"Size": {"type": "number"}},
}


@pytest.mark.parametrize(
    ("key", "text", "expected"),
    [
        ("count", "3", 3),
        ("count", "-12", -12),
        ("count", "3.0", 3),
        ("count", "1e3", 1000),
        ("ratio", "3", 3),
        ("ratio", "2.5", 2.5),
        ("ratio", "-0.25", -0.25),
        ("flag", "true", True),
        ("flag", "false", False),
        ("flag", "TRUE", True),
        ("name", "3", "3"),
        ("name", "true", "true"),
        ("name", '{"a": 1}', '{"a": 1}'),
        ("tags", '["a", "b"]', ["a", "b"]),
        ("opts", '{"a": {"b": [1]}}', {"a": {"b": [1]}}),
        ("maybe", "null", None),
        ("maybe", "7", 7),
        ("text_or_null", "null", None),
        ("text_or_null", "7", "7"),
        ("either", "5", 5),
        ("either", "false", False),
        ("ref", "4", 4),
        ("old_ref", "4.5", 4.5),
        ("choice", "2", 2),
        ("word", "a", "a"),
        ("const", "true", True),
        ("untyped", "3", "3"),
        ("nested", '{"x": 1}', {"x": 1}),
        ("unknown", "3", "3"),
        ("unknown", "true", "true"),
    ],
)
def test_coercion(key: str, text: str, expected: Any) -> None:
    args, warnings = coerce_tool_args([(key, text)], SCHEMA)
    assert args == {key: expected}
    assert type(args[key]) is type(expected)
    assert warnings == []


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("count", "abc"),
        ("count", "2.5"),
        ("count", "1_000"),
        ("ratio", "nan"),
        ("ratio", "inf"),
        ("flag", "yes"),
        ("tags", '{"not": "a list"}'),
        ("opts", "[1]"),
        ("opts", "{broken"),
    ],
)
def test_values_that_do_not_fit_stay_strings_with_a_warning(key: str, text: str) -> None:
    args, warnings = coerce_tool_args([(key, text)], SCHEMA)
    assert args == {key: text}
    assert len(warnings) == 1
    assert f"--tool-arg {key}" in warnings[0] and "expects" in warnings[0]


def test_later_pairs_override_earlier_ones_and_order_is_kept() -> None:
    args, _ = coerce_tool_args([("count", "1"), ("name", "x"), ("count", "2")], SCHEMA)
    assert args == {"count": 2, "name": "x"}


def test_no_or_broken_schema_keeps_strings() -> None:
    for schema in (None, {}, {"properties": "nope"}, {"type": "object", "properties": {"a": "nope"}}):
        args, warnings = coerce_tool_args([("a", "1")], schema)
        assert args == {"a": "1"} and warnings == []


def test_ref_cycles_and_external_refs_do_not_hang() -> None:
    root = {"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}}
    assert declared_types({"$ref": "#/$defs/A"}, root) is None
    assert declared_types({"$ref": "https://example.com/schema"}, root) is None
    assert declared_types({"$ref": "#/$defs/missing"}, root) is None
    assert coerce_value("3", {"$ref": "#/$defs/A"}, root) == ("3", None)


def test_declared_types() -> None:
    assert declared_types({"type": "integer"}) == {"integer"}
    assert declared_types({"type": ["string", "null"]}) == {"string", "null"}
    assert declared_types({"oneOf": [{"type": "integer"}, {}]}) is None
    assert declared_types({"allOf": [{"description": "x"}, {"type": "boolean"}]}) == {"boolean"}
    assert declared_types({"items": {}}) == {"array"}
    assert declared_types("garbage") is None
