"""JSON Schema handling shared by the form, the CLI and the probe; never imports Qt.

* ``classify(schema) -> Node``: what kind of field each schema node is (``model``), with ``$ref``/``$defs``
  resolved (``refs``), nullable spellings normalised and children classified lazily.
* ``accepts``, ``initial_value``, ``pick_variant``, ``constraint_text``, ``placeholder`` (``fit``).
* ``SchemaValidator`` / ``validate`` -> ``FieldError(path, message)`` (``validate``).
* ``MISSING``, exact number text and JSON text (``values``); field paths are ``inspector.protocol.jsonpath``
  paths with ``root=""``.
"""

from inspector.schema.classify import classify
from inspector.schema.fit import accepts, constraint_text, initial_value, pick_variant, placeholder
from inspector.schema.model import MAX_DEPTH, Choice, Kind, Node, Property, Variant
from inspector.schema.refs import MAX_REF_REPEAT, RecursionLimit, RefError, Resolver
from inspector.schema.validate import FieldError, SchemaValidator, format_checker, validate
from inspector.schema.values import (
    MISSING,
    Missing,
    PathPart,
    format_number,
    json_equal,
    json_type,
    number_text_state,
    parse_json_text,
    parse_number,
    to_json_text,
)

__all__ = [
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
    "format_checker",
    "format_number",
    "initial_value",
    "json_equal",
    "json_type",
    "number_text_state",
    "parse_json_text",
    "parse_number",
    "pick_variant",
    "placeholder",
    "to_json_text",
    "validate",
]
