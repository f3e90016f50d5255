"""inspector.content.validation: structuredContent against outputSchema, as readable issues with paths."""

from __future__ import annotations

from typing import Any

from inspector.content.validation import SchemaIssue, validate_instance, validate_tool_result
from inspector.demo.tools_basic import _BAD_OUTPUT_SCHEMA

BAD_RESULT: dict[str, Any] = {
    "content": [{"type": "text", "text": '{"temperature": "hot", "units": "kelvin"}'}],
    "structuredContent": {"temperature": "hot", "units": "kelvin"},
}


def test_bad_structured_demo_result_gives_one_issue_per_violation() -> None:
    issues = validate_tool_result(BAD_RESULT, _BAD_OUTPUT_SCHEMA)
    assert [(i.path, i.message) for i in issues] == [
        ("$.temperature", "'hot' is not of type 'number'"),
        ("$.unit", "required property is missing"),
        ("$.units", "unexpected property (additionalProperties is false)"),
    ]
    assert str(issues[0]) == "$.temperature: 'hot' is not of type 'number'"
    assert issues[0].schema_path == "properties/temperature/type"


def test_valid_structured_content_has_no_issues() -> None:
    result = {"content": [], "structuredContent": {"temperature": 21.5, "unit": "C"}}
    assert validate_tool_result(result, _BAD_OUTPUT_SCHEMA) == []


def test_no_schema_means_nothing_to_check() -> None:
    assert validate_tool_result(BAD_RESULT, None) == []


def test_missing_structured_content_is_an_issue() -> None:
    issues = validate_tool_result({"content": []}, _BAD_OUTPUT_SCHEMA)
    assert len(issues) == 1
    assert issues[0].path == "structuredContent"
    assert "missing" in issues[0].message


def test_is_error_results_are_exempt() -> None:
    assert validate_tool_result({"content": [], "isError": True}, _BAD_OUTPUT_SCHEMA) == []


def test_nested_paths_and_enum() -> None:
    day = {"type": "object", "properties": {"high": {"type": "number"}}}
    schema = {"type": "object", "properties": {"forecast": {"type": "array", "items": day}}, "required": ["forecast"]}
    issues = validate_instance({"forecast": [{"high": 1}, {"high": "x"}]}, schema)
    assert [i.path for i in issues] == ["$.forecast[1].high"]


def test_invalid_schema_is_reported_not_raised() -> None:
    issues = validate_instance({}, {"type": "nonsense"})
    assert len(issues) == 1 and issues[0].path == "outputSchema"
    assert "invalid" in issues[0].message
    assert validate_instance({}, ["not", "a", "schema"])[0].path == "outputSchema"


def test_unresolvable_ref_is_reported() -> None:
    issues = validate_instance({"a": 1}, {"properties": {"a": {"$ref": "#/$defs/missing"}}})
    assert issues and issues[0].path == "outputSchema"


def test_draft_07_schema_is_honoured() -> None:
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "dependencies": {"a": ["b"]}}
    issues = validate_instance({"a": 1}, schema)
    assert len(issues) == 1 and "'b' is a dependency of 'a'" in issues[0].message


def test_formats_are_checked() -> None:
    issues = validate_instance({"when": "yesterday"}, {"properties": {"when": {"type": "string", "format": "date"}}})
    assert [i.path for i in issues] == ["$.when"]


def test_pattern_properties_are_not_flagged_as_unexpected() -> None:
    schema = {"type": "object", "patternProperties": {"^x-": {}}, "additionalProperties": False}
    assert validate_instance({"x-a": 1}, schema) == []
    assert [i.path for i in validate_instance({"y": 1}, schema)] == ["$.y"]


def test_long_messages_are_shortened() -> None:
    issues = validate_instance("x" * 5000, {"type": "number"})
    assert len(issues[0].message) <= 300 and issues[0].message.endswith("…")


def test_issue_paths_use_the_one_notation() -> None:
    issues = validate_instance({"odd key": 1}, {"type": "object", "properties": {"odd key": {"type": "string"}}})
    assert [issue.path for issue in issues] == ['$["odd key"]']
    assert isinstance(SchemaIssue("$", "m"), SchemaIssue)
