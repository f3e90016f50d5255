"""Check a tool result's structuredContent against the tool's outputSchema, as a list of readable issues."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from inspector.protocol.jsonpath import format_path

__all__ = ["SchemaIssue", "validate_instance", "validate_tool_result"]

_MESSAGE_LIMIT = 300


@dataclass(frozen=True, slots=True)
class SchemaIssue:
    """One violation: where in the instance (``path``, JSONPath-like), what is wrong, and which schema rule."""

    path: str
    message: str
    schema_path: str = ""

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def validate_instance(instance: Any, schema: Any) -> list[SchemaIssue]:
    """Every way ``instance`` violates ``schema`` (its ``$schema`` picks the draft; 2020-12 by default).

    Formats are checked. An invalid schema is itself reported as one issue at path ``outputSchema``. Issues are
    sorted by path so that related ones sit together.
    """
    from jsonschema import Draft202012Validator, FormatChecker
    from jsonschema.exceptions import SchemaError
    from jsonschema.validators import validator_for

    if not isinstance(schema, dict | bool):
        return [SchemaIssue("outputSchema", f"the schema is a {type(schema).__name__}, not an object")]
    validator_class = validator_for(schema, default=Draft202012Validator)
    try:
        validator_class.check_schema(schema)
    except SchemaError as exc:
        where = format_path(exc.path) if exc.path else "the root"
        return [SchemaIssue("outputSchema", f"the schema itself is invalid at {where}: {_short(exc.message)}")]
    validator = validator_class(schema, format_checker=FormatChecker())
    try:
        errors = list(validator.iter_errors(instance))
    except Exception as exc:  # e.g. an unresolvable $ref: report, never crash the viewer
        return [SchemaIssue("outputSchema", f"cannot validate: {_short(str(exc))}")]
    issues = [issue for error in errors for issue in _issues_of(error)]
    return sorted(issues, key=lambda issue: (issue.path, issue.message))


def _issues_of(error: Any) -> list[SchemaIssue]:
    """Issues for one jsonschema error; missing and unexpected properties point at the property itself."""
    parts = list(error.absolute_path)
    rule = "/".join(str(p) for p in error.absolute_schema_path)
    instance = error.instance
    if error.validator == "required" and isinstance(instance, dict) and isinstance(error.validator_value, list):
        missing = [name for name in error.validator_value if isinstance(name, str) and name not in instance]
        if missing:
            return [SchemaIssue(format_path([*parts, name]), "required property is missing", rule) for name in missing]
    if (
        error.validator == "additionalProperties"
        and error.validator_value is False
        and isinstance(instance, dict)
        and isinstance(error.schema, dict)
    ):
        known = error.schema.get("properties", {})
        patterns = error.schema.get("patternProperties", {})
        extras = [
            key for key in instance if key not in known and not any(_search(pattern, key) for pattern in patterns)
        ]
        if extras:
            return [
                SchemaIssue(format_path([*parts, key]), "unexpected property (additionalProperties is false)", rule)
                for key in extras
            ]
    return [SchemaIssue(format_path(parts), _short(error.message), rule)]


def _search(pattern: str, text: str) -> bool:
    try:
        return re.search(pattern, text) is not None
    except re.error:
        return False


def validate_tool_result(result: dict[str, Any], output_schema: dict[str, Any] | None) -> list[SchemaIssue]:
    """Issues with a tools/call result's structuredContent given the tool's declared outputSchema.

    No schema: nothing to check. An ``isError`` result is exempt (a failing tool need not produce structured
    output). A schema with no structuredContent is an issue, as is content that does not validate.
    """
    if output_schema is None or result.get("isError") is True:
        return []
    if "structuredContent" not in result or result["structuredContent"] is None:
        return [
            SchemaIssue(
                "structuredContent",
                "missing: the tool declares an outputSchema, so the result must include structuredContent",
            )
        ]
    return validate_instance(result["structuredContent"], output_schema)


def _short(message: str) -> str:
    return message if len(message) <= _MESSAGE_LIMIT else message[: _MESSAGE_LIMIT - 1] + "…"
