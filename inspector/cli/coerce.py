"""Turn ``--tool-arg key=value`` strings into the JSON types the tool's inputSchema declares.

``"3"`` becomes ``3`` for integer/number, ``"true"``/``"false"`` become booleans, objects and arrays
are parsed as JSON, strings stay strings. Keys the schema does not know stay strings. A value that
does not fit its declared type is sent as the string given (an inspector must be able to send wrong
values) and a warning says so.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from typing import Any, Final

__all__ = ["coerce_tool_args", "coerce_value", "declared_types"]

_MAX_REF_DEPTH: Final = 32
# Order in which a non-string union is tried: the most specific reading first.
_TRY_ORDER: Final = ("integer", "number", "boolean", "null", "object", "array")
_JSON_TYPE_OF: Final[dict[type, str]] = {
    bool: "boolean",
    int: "integer",
    float: "number",
    str: "string",
    list: "array",
    dict: "object",
    type(None): "null",
}


def _resolve(schema: Any, root: Mapping[str, Any], depth: int = 0) -> Any:
    """Follow a local ``$ref`` (``#/$defs/X``, ``#/definitions/X``); anything unresolvable becomes ``{}``."""
    while isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str):
        if depth > _MAX_REF_DEPTH:
            return {}
        ref = schema["$ref"]
        if not ref.startswith("#"):
            return {}
        node: Any = root
        for part in ref[1:].split("/"):
            if not part:
                continue
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, Mapping) and part in node:
                node = node[part]
            else:
                return {}
        schema = node
        depth += 1
    return schema


def declared_types(schema: Any, root: Mapping[str, Any] | None = None, _depth: int = 0) -> set[str] | None:
    """The JSON types a schema allows, or None when it does not say (any type)."""
    if root is None:
        root = schema if isinstance(schema, Mapping) else {}
    schema = _resolve(schema, root)
    if not isinstance(schema, Mapping) or _depth > _MAX_REF_DEPTH:
        return None
    declared = schema.get("type")
    if isinstance(declared, str):
        return {declared}
    if isinstance(declared, list) and all(isinstance(t, str) for t in declared) and declared:
        return set(declared)
    if "const" in schema:
        return {_JSON_TYPE_OF.get(type(schema["const"]), "string")}
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return {_JSON_TYPE_OF.get(type(member), "string") for member in schema["enum"]}
    for combinator in ("anyOf", "oneOf"):
        branches = schema.get(combinator)
        if isinstance(branches, list) and branches:
            union: set[str] = set()
            for branch in branches:
                types = declared_types(branch, root, _depth + 1)
                if types is None:
                    return None
                union |= types
            return union
    branches = schema.get("allOf")
    if isinstance(branches, list):
        for branch in branches:
            types = declared_types(branch, root, _depth + 1)
            if types is not None:
                return types
    if "properties" in schema:
        return {"object"}
    if "items" in schema:
        return {"array"}
    return None


def _as_number(text: str) -> int | float | None:
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if isinstance(value, bool) or not isinstance(value, int | float):
        if "_" in text:
            return None
        try:
            value = float(text)
        except ValueError:
            return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value if isinstance(value, int | float) else None


def _try(kind: str, text: str) -> tuple[bool, Any]:
    if kind == "integer":
        number = _as_number(text)
        if isinstance(number, int):
            return True, number
        if isinstance(number, float) and number.is_integer():
            return True, int(number)
        return False, None
    if kind == "number":
        number = _as_number(text)
        return (number is not None), number
    if kind == "boolean":
        lowered = text.strip().lower()
        if lowered in ("true", "false"):
            return True, lowered == "true"
        return False, None
    if kind == "null":
        return (text == "null"), None
    if kind in ("object", "array"):
        try:
            value = json.loads(text)
        except ValueError:
            return False, None
        if isinstance(value, dict if kind == "object" else list):
            return True, value
        return False, None
    return False, None


def coerce_value(text: str, schema: Any, root: Mapping[str, Any] | None = None) -> tuple[Any, str | None]:
    """Convert one value for one property schema: (value, warning or None)."""
    types = declared_types(schema, root)
    if not types:
        return text, None
    if "string" in types:
        if "null" in types and text == "null":
            return None, None
        return text, None
    for kind in _TRY_ORDER:
        if kind in types:
            ok, value = _try(kind, text)
            if ok:
                return value, None
    expected = " or ".join(sorted(types))
    return text, f"expects {expected}; sending the string {text!r} as given"


def coerce_tool_args(
    pairs: Iterable[tuple[str, str]], input_schema: Mapping[str, Any] | None
) -> tuple[dict[str, Any], list[str]]:
    """Coerce ``key=value`` pairs with the tool's inputSchema: (arguments, warnings)."""
    arguments: dict[str, Any] = {}
    warnings: list[str] = []
    root: Mapping[str, Any] = input_schema if isinstance(input_schema, Mapping) else {}
    resolved = _resolve(root, root)
    properties = resolved.get("properties") if isinstance(resolved, Mapping) else None
    if not isinstance(properties, Mapping):
        properties = {}
    for key, text in pairs:
        if key not in properties:
            arguments[key] = text
            continue
        value, warning = coerce_value(text, properties[key], root)
        if warning is not None:
            warnings.append(f"--tool-arg {key}: the tool's inputSchema {warning}")
        arguments[key] = value
    return arguments, warnings
