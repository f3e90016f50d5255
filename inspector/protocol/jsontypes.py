"""The JSON type of a value from ``json.loads``, as messages name it (one definition for the whole app)."""

from __future__ import annotations

from typing import Final

__all__ = ["json_type", "json_type_phrase"]

_PHRASES: Final = {
    "boolean": "a boolean",
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "array": "a list",
    "object": "an object",
}


def json_type(value: object, *, integer: bool = False) -> str:
    """``null``, ``boolean``, ``number`` (or ``integer`` for ints when asked), ``string``, ``array``, ``object``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer" if integer else "number"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def json_type_phrase(value: object) -> str:
    """The type in words for messages: "a string", "a list", "an object", "null"."""
    name = json_type(value)
    return _PHRASES.get(name, name)
