"""JSON Schema handling shared by the form, the CLI and the probe; never imports Qt.

* ``classify(schema) -> Node``: what kind of field each schema node is (``model``), with ``$ref``/``$defs``
  resolved (``refs``), nullable spellings normalised and children classified lazily.
* ``accepts``, ``initial_value``, ``pick_variant``, ``constraint_text``, ``placeholder`` (``fit``).
* ``SchemaValidator`` / ``validate`` -> ``FieldError(path, message)`` (``validate``).
* ``MISSING``, exact number text, JSON text and field paths (``values``).
"""

from inspector.schema.classify import classify
from inspector.schema.fit import accepts, constraint_text, initial_value, pick_variant, placeholder
from inspector.schema.model import MAX_DEPTH, Choice, Kind, Node, Property, Variant
from inspector.schema.refs import MAX_REF_REPEAT, RecursionLimit, RefError, Resolver
from inspector.schema.validate import FORMAT_CHECKER, FieldError, SchemaValidator, validate
from inspector.schema.values import (
    MISSING,
    Missing,
    PathPart,
    format_number,
    format_path,
    json_equal,
    json_type,
    number_text_state,
    parse_json_text,
    parse_number,
    parse_path,
    to_json_text,
)

__all__ = [
    "FORMAT_CHECKER",
    "MAX_DEPTH",
    "MAX_REF_REPEAT",
    "MISSING",
    "Choice",
    "FieldError",
    "Kind",
    "Missing",
    "Node",
    "PathPart",
    "Property",
    "RecursionLimit",
    "RefError",
    "Resolver",
    "SchemaValidator",
    "Variant",
    "accepts",
    "classify",
    "constraint_text",
    "format_number",
    "format_path",
    "initial_value",
    "json_equal",
    "json_type",
    "number_text_state",
    "parse_json_text",
    "parse_number",
    "parse_path",
    "pick_variant",
    "placeholder",
    "to_json_text",
    "validate",
]
