"""Hypothesis strategies for whatever a server may send as a JSON Schema, and for JSON values to try on it.

One copy, shared by the Qt-free schema tests (tests/unit/test_schema_model.py) and the form's
(tests/gui/test_schema_form.py): arbitrary dictionaries of schema keywords, nested, with leaves that are
plausible (type names, refs, formats) or not (bogus types, dangling refs, numbers where strings belong).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

__all__ = ["SCHEMA_KEYWORDS", "SCHEMA_LEAVES", "TYPE_NAMES", "json_values", "schemas"]

TYPE_NAMES = st.sampled_from(["string", "integer", "number", "boolean", "null", "object", "array", "bogus"])
SCHEMA_LEAVES = st.one_of(
    TYPE_NAMES,
    st.lists(TYPE_NAMES, max_size=3),
    st.integers(-3, 3),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.none(),
    st.text(max_size=3),
    st.sampled_from(["#", "#/$defs/a", "#/$defs/missing", "(", "date", "email", "uri"]),
)
SCHEMA_KEYWORDS = st.sampled_from(
    [
        "type",
        "properties",
        "items",
        "enum",
        "const",
        "anyOf",
        "oneOf",
        "allOf",
        "$ref",
        "required",
        "default",
        "additionalProperties",
        "patternProperties",
        "minimum",
        "exclusiveMaximum",
        "multipleOf",
        "maxLength",
        "format",
        "nullable",
        "prefixItems",
        "not",
        "pattern",
        "$defs",
        "minItems",
        "discriminator",
        "title",
        "description",
    ]
)


def schemas(max_leaves: int = 20) -> st.SearchStrategy[dict[str, Any]]:
    """Nested dictionaries of schema keywords whose values are leaves, schemas, lists of schemas or maps of them."""
    return st.recursive(
        st.dictionaries(SCHEMA_KEYWORDS, SCHEMA_LEAVES, max_size=4),
        lambda inner: st.dictionaries(
            SCHEMA_KEYWORDS,
            st.one_of(
                inner, SCHEMA_LEAVES, st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["a", "b"]), inner)
            ),
            max_size=5,
        ),
        max_leaves=max_leaves,
    )


def json_values(
    text: st.SearchStrategy[str] | None = None, keys: st.SearchStrategy[str] | None = None, max_leaves: int = 12
) -> st.SearchStrategy[Any]:
    """Any JSON value (finite floats only): scalars, then lists and objects of them. `text` draws the strings,
    `keys` the object keys (default: short text)."""
    strings = st.text() if text is None else text
    names = st.text(max_size=5) if keys is None else keys
    return st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | strings,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(names, inner, max_size=4),
        max_leaves=max_leaves,
    )
